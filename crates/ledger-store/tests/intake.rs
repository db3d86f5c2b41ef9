//! Block intake in batches: one call, one write, one result per block in order.

mod common;

use common::*;
use ledger_core::codec::encode_block;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::Code;
use std::sync::atomic::AtomicBool;

const MIN_POW: u32 = 10;

fn mined(parents: Vec<Id32>, data: &[u8]) -> Vec<u8> {
    let block = Block {
        protocol_version: 2,
        parents,
        payload: Some(Payload::TaggedData(TaggedData { tag: vec![], data: data.to_vec() })),
        nonce: 0,
    };
    let mut bytes = encode_block(&block);
    let found = ledger_core::pow::mine(&bytes, MIN_POW, 1, &AtomicBool::new(false)).unwrap();
    let at = bytes.len() - 8;
    bytes[at..].copy_from_slice(&found.nonce.to_le_bytes());
    bytes
}

#[test]
fn a_batch_gets_one_result_per_block_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), MIN_POW);
    store.issue_milestone(None).unwrap();
    let tips = store.select_tips().unwrap();
    let first = mined(tips.clone(), b"first");
    let mut child_parents = vec![tips[0], ids::block_id(&first)];
    child_parents.sort();
    let child = mined(child_parents, b"child of first, same batch");
    let mut weak = mined(tips.clone(), b"weak");
    let at = weak.len() - 8;
    // Find a nonce that fails the score (most do at 10 × ~100 bytes).
    let mut n = 1u64;
    loop {
        weak[at..].copy_from_slice(&n.to_le_bytes());
        if !ledger_core::pow::meets_min_score(&weak, MIN_POW) {
            break;
        }
        n += 1;
    }
    let orphan = mined(vec![tips[0], [0xff; 32]], b"orphan");
    let batch: Vec<&[u8]> = vec![&first, &first, &child, &weak, &orphan, b"\x02"];
    let results = store.submit_blocks(&batch);
    assert_eq!(results.len(), 6);
    assert!(results[0].as_ref().unwrap().stored);
    assert!(!results[1].as_ref().unwrap().stored);
    assert_eq!(results[1].as_ref().unwrap().block_id, ids::block_id(&first));
    assert!(results[2].as_ref().unwrap().stored);
    assert_eq!(results[3].as_ref().err().unwrap().code, Code::PowScoreTooLow);
    assert_eq!(results[4].as_ref().err().unwrap().path, "parents[1]");
    assert!(results[5].is_err());
    assert_eq!(store.status().blocks_stored, 3); // milestone 1, first, child
                                                 // The child's parent came in the same batch and is no tip any more.
    let tips_now = store.select_tips().unwrap();
    assert!(tips_now.contains(&ids::block_id(&child)));
    assert!(!tips_now.contains(&ids::block_id(&first)));
    // Submitting the stored blocks again, alone, stores nothing.
    assert!(!store.submit_block(&child).unwrap().stored);
}

/// The check that runs before mining: every rule but the proof of work, parents known,
/// nothing written.
#[test]
fn precheck_applies_every_rule_but_the_proof_of_work() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), u32::MAX);
    let unmined = |parents: Vec<Id32>, data: Vec<u8>| {
        encode_block(&Block {
            protocol_version: 2,
            parents,
            payload: Some(Payload::TaggedData(TaggedData { tag: vec![], data })),
            nonce: 0,
        })
    };
    let genesis_parents = ledger_store::GenesisStyle::Ledger.entry_points();
    assert_eq!(
        store
            .precheck_block(&unmined(genesis_parents.clone(), b"early".to_vec()))
            .unwrap_err()
            .code,
        Code::NotReady
    );
    store.issue_milestone(None).unwrap();
    let tips = store.select_tips().unwrap();
    let blocks_before = store.status().blocks_stored;

    // A valid block without a nonce passes, and is not stored by the check.
    store.precheck_block(&unmined(tips.clone(), b"fine".to_vec())).unwrap();
    assert_eq!(store.status().blocks_stored, blocks_before);

    let code = |bytes: &[u8]| store.precheck_block(bytes).unwrap_err();
    let oversize = code(&unmined(tips.clone(), vec![0x61; 40_000]));
    assert_eq!(oversize.code, Code::BlockTooLarge);
    let unknown = code(&unmined(vec![tips[0], [0xff; 32]], b"orphan".to_vec()));
    assert_eq!((unknown.code, unknown.path.as_str()), (Code::UnknownParent, "parents[1]"));
    let mut version = unmined(tips.clone(), b"v3".to_vec());
    version[0] = 3;
    assert_eq!(code(&version).code, Code::WrongProtocolVersion);
    let mut unsorted = tips.clone();
    unsorted.reverse();
    assert_eq!(code(&unmined(unsorted, b"unsorted".to_vec())).path, "parents[1]");
    let mut trailing = unmined(tips.clone(), b"trailing".to_vec());
    trailing.push(0);
    assert!(store.precheck_block(&trailing).is_err());
    assert_eq!(store.status().blocks_stored, blocks_before);
}

#[test]
fn children_are_listed_in_id_order_up_to_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), MIN_POW);
    let milestone_1 = store.issue_milestone(None).unwrap().block_id;
    let parent = mined(store.select_tips().unwrap(), b"parent");
    assert!(store.submit_block(&parent).unwrap().stored);
    let parent_id = ids::block_id(&parent);
    // Three blocks that all approve `parent` and the milestone-1 block.
    let mut parents = vec![milestone_1, parent_id];
    parents.sort();
    let blocks: Vec<Vec<u8>> =
        (0..3).map(|i| mined(parents.clone(), format!("child {i}").as_bytes())).collect();
    for b in &blocks {
        assert!(store.submit_block(b).unwrap().stored);
    }
    let mut expected: Vec<_> = blocks.iter().map(|b| ids::block_id(b)).collect();
    expected.sort();
    assert_eq!(store.children(&parent_id, 1000).unwrap().unwrap(), expected);
    assert_eq!(store.children(&parent_id, 2).unwrap().unwrap(), expected[..2].to_vec());
    assert!(store.children(&milestone_1, 1000).unwrap().unwrap().len() >= 3);
    // A block nothing approves yet has no children; unknown ids and entry points are None.
    assert_eq!(store.children(&expected[0], 1000).unwrap().unwrap(), Vec::<Id32>::new());
    assert!(store.children(&[0xab; 32], 1000).unwrap().is_none());
    assert!(store.children(&[0; 32], 1000).unwrap().is_none());
}

/// D40: a block with one parent is refused on the API (D3) and stored when a peer sent it;
/// the next milestone references it like any other block. No parents is refused from both.
#[test]
fn one_parent_is_stored_from_a_peer_and_refused_on_the_api() {
    use ledger_core::validate::BlockOrigin;
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), MIN_POW);
    let milestone_1 = store.issue_milestone(None).unwrap().block_id;
    let single = mined(vec![milestone_1], b"one parent, as Hornet's tip selection makes them");
    let refused = store.submit_block(&single).err().unwrap();
    assert_eq!((refused.code, refused.path.as_str()), (Code::ParentsTooFew, "parents"));
    assert_eq!(store.precheck_block(&single).unwrap_err().code, Code::ParentsTooFew);
    store.precheck_block_from(&single, BlockOrigin::Peer).unwrap();
    let from_peer = store.submit_blocks_from(&[&single], BlockOrigin::Peer).pop().unwrap().unwrap();
    assert!(from_peer.stored);
    assert_eq!(from_peer.block_id, ids::block_id(&single));
    assert_eq!(store.block(&from_peer.block_id).unwrap().unwrap(), single);
    // A tip like any other, and confirmed by the next milestone.
    assert!(store.select_tips().unwrap().contains(&from_peer.block_id));
    let m2 = store.issue_milestone(None).unwrap();
    assert_eq!(m2.referenced_blocks, 2); // milestone 1's block and this one
    let meta = json(&store.block_metadata_json(&from_peer.block_id).unwrap().unwrap());
    assert_eq!(meta["referencedByMilestoneIndex"], 2);
    assert_eq!(meta["ledgerInclusionState"], "noTransaction");
    let none = mined(vec![], b"no parents");
    for origin in [BlockOrigin::Api, BlockOrigin::Peer] {
        assert_eq!(
            store.submit_blocks_from(&[&none], origin).pop().unwrap().err().unwrap().code,
            Code::ParentsTooFew
        );
    }
}

/// Blocks of one batch that name the same stored parents outside the pending graph: the
/// parents' metadata is read once for the batch, and each block still gets its own roots.
/// An old parent (referenced by milestone 2, now 14) makes a block lazy; fresh tips do not.
#[test]
fn blocks_of_a_batch_sharing_old_parents_get_their_own_roots() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), MIN_POW);
    let old = store.issue_milestone(None).unwrap().block_id;
    for _ in 0..13 {
        store.issue_milestone(None).unwrap();
    }
    let tips = store.select_tips().unwrap();
    let mut on_old = vec![[0; 32], old];
    on_old.sort();
    let lazy_a = mined(on_old.clone(), b"lazy a");
    let fresh = mined(tips.clone(), b"fresh");
    let lazy_b = mined(on_old.clone(), b"lazy b");
    let orphan = mined(vec![old, [0xff; 32]], b"orphan");
    let results = store.submit_blocks(&[&lazy_a, &fresh, &lazy_b, &orphan]);
    let refused = results[3].as_ref().err().expect("the orphan is refused");
    assert_eq!((refused.code, refused.path.as_ref()), (Code::UnknownParent, "parents[1]"));
    let promote = |bytes: &[u8]| {
        json(&store.block_metadata_json(&ids::block_id(bytes)).unwrap().unwrap())["shouldPromote"]
            .clone()
    };
    for (bytes, lazy) in [(&lazy_a, true), (&fresh, false), (&lazy_b, true)] {
        assert!(results
            .iter()
            .any(|r| r.as_ref().is_ok_and(|s| s.stored && s.block_id == ids::block_id(bytes))));
        assert_eq!(promote(bytes), lazy, "{}", String::from_utf8_lossy(&bytes[bytes.len() - 20..]));
    }
    // The same as a block on the old parent submitted alone.
    let alone = mined(on_old, b"lazy alone");
    store.submit_block(&alone).unwrap();
    assert_eq!(promote(&alone), true);
}
