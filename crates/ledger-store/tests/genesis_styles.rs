//! The two built-in genesis styles (D41, snapshot.md §5): the `hornet` style's milestone 1
//! (one parent `0x00…00`, both roots MTH(∅)) and the tips after it, the style fixed in the
//! data directory, and a follower accepting both first-milestone forms (D42).

mod common;

use common::*;
use ledger_core::codec::{decode_block, encode_block};
use ledger_core::json::hex;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::{GenesisStyle, Store, StoreOptions};

const MTH_EMPTY: &str = "0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8";

fn options(style: GenesisStyle) -> StoreOptions {
    StoreOptions { genesis_style: style, ..dev_options(0) }
}

fn follower(style: GenesisStyle) -> StoreOptions {
    StoreOptions {
        coordinator_enabled: false,
        coordinator_seeds: vec![],
        trusted_public_keys: vec![ledger_core::crypto::public_key(&coordinator_seed())],
        milestone_keys: Default::default(),
        ..options(style)
    }
}

fn milestone_of(bytes: &[u8]) -> MilestonePayload {
    match decode_block(bytes).unwrap().payload {
        Some(Payload::Milestone(m)) => *m,
        _ => panic!("not a milestone block"),
    }
}

#[test]
fn hornet_style_milestone_1_has_one_parent_and_empty_tree_roots() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), options(GenesisStyle::Hornet)).unwrap();
    assert_eq!(store.origin().style, GenesisStyle::Hornet);
    let first = store.issue_milestone(Some(1_700_000_000)).unwrap();
    let bytes = store.block(&first.block_id).unwrap().unwrap();
    let block = decode_block(&bytes).unwrap();
    assert_eq!(block.parents, vec![[0; 32]]);
    let m = milestone_of(&bytes);
    assert_eq!((m.index, m.previous_milestone_id), (1, [0; 32]));
    assert_eq!(hex(&m.inclusion_merkle_root), MTH_EMPTY);
    assert_eq!(hex(&m.applied_merkle_root), MTH_EMPTY);
    // Tips after it: the milestone block and the entry point, as in the `ledger` style.
    let mut tips = vec![[0; 32], first.block_id];
    tips.sort();
    assert_eq!(store.select_tips().unwrap(), tips);
    // `0x00…01` is no entry point here.
    let mut one = [0u8; 32];
    one[31] = 1;
    let orphan = encode_block(&Block {
        protocol_version: 2,
        parents: vec![[0; 32], one],
        payload: None,
        nonce: 0,
    });
    let err = store.submit_block(&orphan).err().unwrap();
    assert_eq!((err.code, err.path.as_str()), (Code::UnknownParent, "parents[1]"));
    // Later milestones are as in the `ledger` style.
    let block = store.submit_block(&block_bytes(&store, None)).unwrap();
    let second = store.issue_milestone(Some(1_700_000_010)).unwrap();
    assert_eq!(second.referenced_blocks, 2);
    assert!(
        json(&store.block_metadata_json(&block.block_id).unwrap().unwrap())
            ["referencedByMilestoneIndex"]
            == 2
    );
}

#[test]
fn the_style_is_fixed_when_the_data_directory_is_created() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path(), options(GenesisStyle::Hornet)).unwrap());
    let err = Store::open(dir.path(), options(GenesisStyle::Ledger)).err().unwrap();
    assert_eq!((err.code, err.path.as_str()), (Code::GenesisStyleMismatch, "genesis.style"));
    assert!(err.detail.contains("hornet in the data directory but ledger"), "{}", err.detail);
    let store = Store::open(dir.path(), options(GenesisStyle::Hornet)).unwrap();
    assert_eq!(store.origin().style, GenesisStyle::Hornet);
}

#[test]
fn a_follower_accepts_both_first_milestone_forms() {
    // The same coordinator key in both styles: form A has zero roots and two parents,
    // form B MTH(∅) and the single parent 0x00…00.
    let issued = |style| {
        let dir = tempfile::tempdir().unwrap();
        let coordinator = Store::open(dir.path(), options(style)).unwrap();
        let first = coordinator.issue_milestone(Some(1_700_000_000)).unwrap();
        coordinator.block(&first.block_id).unwrap().unwrap()
    };
    let form_a = issued(GenesisStyle::Ledger);
    let form_b = issued(GenesisStyle::Hornet);
    assert_eq!(milestone_of(&form_a).inclusion_merkle_root, [0; 32]);
    assert_eq!(hex(&milestone_of(&form_b).inclusion_merkle_root), MTH_EMPTY);

    // A `ledger`-style follower has both entry points: either form is its milestone 1.
    for form in [&form_a, &form_b] {
        let dir = tempfile::tempdir().unwrap();
        let node = Store::open(dir.path(), follower(GenesisStyle::Ledger)).unwrap();
        assert!(node.submit_block(form).unwrap().stored);
        assert_eq!(node.status().ledger_index, 1);
        assert!(node.submit_block(&block_bytes(&node, None)).unwrap().stored);
    }
    // A `hornet`-style follower has only 0x00…00: form A approves an unknown entry point.
    let dir = tempfile::tempdir().unwrap();
    let node = Store::open(dir.path(), follower(GenesisStyle::Hornet)).unwrap();
    assert_eq!(node.submit_block(&form_a).err().unwrap().code, Code::MilestoneParentsInvalid);
    assert!(node.submit_block(&form_b).unwrap().stored);
}

#[test]
fn other_roots_at_the_first_index_are_refused() {
    // Form B with a root that is neither zero nor MTH(∅), signed again by the coordinator.
    let dir = tempfile::tempdir().unwrap();
    let coordinator = Store::open(dir.path(), options(GenesisStyle::Hornet)).unwrap();
    let first = coordinator.issue_milestone(Some(1_700_000_000)).unwrap();
    let mut m = milestone_of(&coordinator.block(&first.block_id).unwrap().unwrap());
    m.inclusion_merkle_root = [7; 32];
    let bytes = signed_milestone_block(m);
    let dir = tempfile::tempdir().unwrap();
    let node = Store::open(dir.path(), follower(GenesisStyle::Hornet)).unwrap();
    let err = node.submit_block(&bytes).err().unwrap();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::MilestoneMerkleRootMismatch, "payload.inclusionMerkleRoot")
    );
    assert!(err.detail.contains(&MTH_EMPTY[2..]), "{}", err.detail);
}
