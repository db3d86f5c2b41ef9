//! Starting from a Hornet full snapshot (snapshot.md §3, §4) and writing the genesis as one
//! (§6): the 311-byte genesis of §2 loads into the same network as the built-in `hornet`
//! style, a written genesis equals it byte for byte, a snapshot at a later target makes a
//! follower at that index (its outputs indexed in the same write), and a refused file
//! leaves no ledger behind.

mod common;

use common::*;
use ledger_core::codec::decode_block;
use ledger_core::ids;
use ledger_core::merkle::merkle_root;
use ledger_core::model::*;
use ledger_core::protocol::ProtocolParameters;
use ledger_core::snapshot::*;
use ledger_core::Code;
use ledger_store::{
    write_genesis_snapshot, GenesisStyle, OutputFilter, OutputQuery, OutputsOf, Store, StoreOptions,
};
use std::path::{Path, PathBuf};

const GENESIS_FILE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../test/data/genesis-hornet-dev.snapshot.bin");

fn from_snapshot(path: &Path, min_pow_score: u32) -> StoreOptions {
    StoreOptions { snapshot: Some(path.to_path_buf()), ..dev_options(min_pow_score) }
}

fn follower(options: StoreOptions) -> StoreOptions {
    StoreOptions {
        coordinator_enabled: false,
        coordinator_seeds: vec![],
        trusted_public_keys: vec![ledger_core::crypto::public_key(&coordinator_seed())],
        milestone_keys: Default::default(),
        ..options
    }
}

/// Every output the indexer lists.
fn indexed(store: &Store) -> Vec<OutputId> {
    let query = OutputQuery {
        of: OutputsOf::AllKinds,
        filter: OutputFilter::default(),
        cursor: None,
        page_size: 1000,
    };
    store.indexed_outputs(&query).unwrap().items
}

fn write_file(dir: &Path, name: &str, s: &FullSnapshot) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, write_full_snapshot(s).unwrap()).unwrap();
    path
}

#[test]
fn the_genesis_file_starts_the_same_network_as_the_hornet_style() {
    let file = PathBuf::from(GENESIS_FILE);
    let loaded_dir = tempfile::tempdir().unwrap();
    // The configured minPowScore (0) gives way to the file's (1500); the name matches.
    let loaded = Store::open(&loaded_dir.path().join("ledger"), from_snapshot(&file, 0)).unwrap();
    assert_eq!(loaded.protocol(), &ProtocolParameters::dev_default());
    assert!(loaded.origin().from_snapshot);
    assert_eq!(loaded.status().pruning_index, 0);
    assert!(!loaded.is_ready());
    let built_dir = tempfile::tempdir().unwrap();
    let built = Store::open(
        built_dir.path(),
        StoreOptions { genesis_style: GenesisStyle::Hornet, ..dev_options(1500) },
    )
    .unwrap();
    // Milestone 1 is the same block on both.
    let a = loaded.issue_milestone(Some(1_700_000_000)).unwrap();
    let b = built.issue_milestone(Some(1_700_000_000)).unwrap();
    assert_eq!(loaded.block(&a.block_id).unwrap(), built.block(&b.block_id).unwrap());
    assert_eq!(loaded.output(&[0; 34]).unwrap(), built.output(&[0; 34]).unwrap());
    drop(loaded);
    // Reopened with another minPowScore: the file's parameters stay; the path is ignored.
    let reopened = Store::open(
        &loaded_dir.path().join("ledger"),
        StoreOptions { snapshot: Some("/nonexistent".into()), ..dev_options(7) },
    )
    .unwrap();
    assert_eq!(reopened.protocol().min_pow_score, 1500);
    assert_eq!(reopened.status().ledger_index, 1);
}

#[test]
fn a_written_genesis_is_the_spec_file_and_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger");
    let store = Store::open(
        &ledger,
        StoreOptions { genesis_style: GenesisStyle::Hornet, ..dev_options(1500) },
    )
    .unwrap();
    store.issue_milestone(Some(1_700_000_000)).unwrap();
    // Written while the node has it open (read-only access), after milestone 1.
    let out = dir.path().join("genesis.bin");
    let written = write_genesis_snapshot(&ledger, &out).unwrap();
    assert_eq!(
        (written.bytes, written.outputs, written.solid_entry_points, written.style),
        (311, 1, 1, GenesisStyle::Hornet)
    );
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(GENESIS_FILE).unwrap());
    // Never over an existing file.
    assert_eq!(write_genesis_snapshot(&ledger, &out).err().unwrap().code, Code::FileExists);
    drop(store);
    // And back: a second data directory from the written file.
    let other = tempfile::tempdir().unwrap();
    let loaded = Store::open(other.path(), from_snapshot(&out, 1500)).unwrap();
    assert_eq!(loaded.unspent_total().unwrap(), SUPPLY as u128);
    // The `ledger` style writes its two entry points.
    let ledger_style = tempfile::tempdir().unwrap();
    drop(Store::open(ledger_style.path(), dev_options(1500)).unwrap());
    let out = ledger_style.path().join("genesis.bin");
    let written = write_genesis_snapshot(ledger_style.path(), &out).unwrap();
    assert_eq!(
        (written.bytes, written.solid_entry_points, written.style),
        (343, 2, GenesisStyle::Ledger)
    );
    // No ledger at all.
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(
        write_genesis_snapshot(&empty.path().join("ledger"), &empty.path().join("x"))
            .err()
            .unwrap()
            .code,
        Code::NoLedger
    );
}

#[test]
fn a_refused_file_leaves_no_ledger_behind() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger");
    let file = PathBuf::from(GENESIS_FILE);
    let other_network = StoreOptions {
        protocol: ProtocolParameters { network_name: "other-v2".into(), ..dev_protocol(1500) },
        ..from_snapshot(&file, 1500)
    };
    let err = Store::open(&ledger, other_network).err().unwrap();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotNetworkMismatch, "protocolParameters.params.networkName")
    );
    assert!(
        err.detail.contains("'ledger-devnet-v2' (id 5140426672903325834)")
            && err.detail.contains("genesis-hornet-dev"),
        "{}",
        err.detail
    );
    assert!(!ledger.exists());
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.push(0);
    let bad = dir.path().join("trailing.bin");
    std::fs::write(&bad, bytes).unwrap();
    assert_eq!(
        Store::open(&ledger, from_snapshot(&bad, 1500)).err().unwrap().code,
        Code::TrailingBytes
    );
    assert_eq!(
        Store::open(&ledger, from_snapshot(&dir.path().join("missing.bin"), 1500))
            .err()
            .unwrap()
            .code,
        Code::SnapshotUnreadable
    );
    assert!(!ledger.exists());
}

/// A network at milestone 3 whose snapshot targets milestone 2: milestone 3 moved the
/// genesis output to A; the entry points are two blocks confirmed by milestone 2.
fn at_target_2() -> FullSnapshot {
    let genesis = SnapshotOutput {
        output_id: [0; 34],
        block_id: [0; 32],
        milestone_index_booked: 0,
        milestone_timestamp_booked: 0,
        output: genesis_output(),
    };
    let tx = [0x33; 32];
    let a = SnapshotOutput {
        output_id: ids::output_id(&tx, 0),
        block_id: [0xb3; 32],
        milestone_index_booked: 3,
        milestone_timestamp_booked: 1_700_000_030,
        output: basic_output(SUPPLY, [5; 32]),
    };
    let milestone = |index: u32, timestamp: u32, previous: Id32| MilestonePayload {
        index,
        timestamp,
        protocol_version: 2,
        previous_milestone_id: previous,
        parents: vec![[0xe1; 32], [0xe2; 32]],
        inclusion_merkle_root: [0; 32],
        applied_merkle_root: [0; 32],
        metadata: vec![],
        options: vec![],
        signatures: vec![Ed25519Signature { public_key: [1; 32], signature: [2; 64] }],
    };
    let m2 = milestone(2, 1_700_000_020, [0x11; 32]);
    let m3 = milestone(3, 1_700_000_030, ids::milestone_id(&m2));
    FullSnapshot {
        genesis_milestone_index: 0,
        target_milestone_index: 2,
        target_milestone_timestamp: 1_700_000_020,
        target_milestone_id: ids::milestone_id(&m2),
        ledger_milestone_index: 3,
        treasury: TreasuryOutput::default(),
        protocol_parameters: ProtocolParametersOption {
            target_milestone_index: 0,
            protocol_version: 2,
            params: dev_protocol(0),
        },
        outputs: vec![a.clone()],
        milestone_diffs: vec![
            MilestoneDiff {
                milestone: m3,
                spent_treasury: None,
                created: vec![a],
                consumed: vec![SpentOutput { output: genesis, transaction_id_spent: tx }],
            },
            MilestoneDiff {
                milestone: m2,
                spent_treasury: None,
                created: vec![],
                consumed: vec![],
            },
        ],
        solid_entry_points: vec![[0xe2; 32], [0xe1; 32]],
    }
}

#[test]
fn a_later_snapshot_makes_a_follower_at_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = at_target_2();
    let file = write_file(dir.path(), "at-2.bin", &snapshot);
    let ledger = dir.path().join("ledger");
    // The coordinator cannot run on it.
    let err = Store::open(&ledger, from_snapshot(&file, 0)).err().unwrap();
    assert_eq!((err.code, err.path.as_str()), (Code::CoordinatorNotAllowed, "coordinator.enabled"));
    assert!(!ledger.exists());

    let store = Store::open(&ledger, follower(from_snapshot(&file, 0))).unwrap();
    let status = store.status();
    assert_eq!(status.ledger_index, 2);
    assert_eq!(status.pruning_index, 2);
    assert_eq!(status.latest_milestone, Some((2, 1_700_000_020, snapshot.target_milestone_id)));
    assert!(store.is_ready());
    // The ledger at milestone 2: the genesis output unspent again, A not created yet.
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
    assert!(json(&store.output(&[0; 34]).unwrap().unwrap().1)["isSpent"] == false);
    assert!(store.output(&ids::output_id(&[0x33; 32], 0)).unwrap().is_none());
    // The indexer lists the ledger at the target, written with it.
    store.verify_index().unwrap();
    assert_eq!(indexed(&store), vec![[0; 34]]);
    // No milestone is stored (as in Hornet's import): milestone 3 of the diffs was undone and
    // comes again over gossip with its block; milestone 2 (the target) is history.
    assert!(store.milestone_by_index(3).unwrap().is_none());
    assert!(store.milestone_by_index(2).unwrap().is_none());
    assert!(store.utxo_changes(3).unwrap().is_none());
    // Tips are the entry points, and a block approving them is healthy.
    assert_eq!(store.select_tips().unwrap(), vec![[0xe1; 32], [0xe2; 32]]);
    let block = store.submit_block(&block_bytes(&store, None)).unwrap();
    let meta = json(&store.block_metadata_json(&block.block_id).unwrap().unwrap());
    assert_eq!(
        (meta["shouldPromote"].as_bool(), meta["shouldReattach"].as_bool()),
        (Some(false), Some(false))
    );

    // The next milestone must follow the target's id and time, and approves the new block.
    let next = |previous: Id32, timestamp: u32| {
        let parents = vec![block.block_id];
        let root = merkle_root(&parents);
        MilestonePayload {
            index: 3,
            timestamp,
            protocol_version: 2,
            previous_milestone_id: previous,
            parents,
            inclusion_merkle_root: root,
            applied_merkle_root: merkle_root(&[]),
            metadata: vec![],
            options: vec![],
            signatures: vec![],
        }
    };
    let wrong_previous = signed_milestone_block(next([0; 32], 1_700_000_030));
    assert_eq!(
        store.submit_block(&wrong_previous).err().unwrap().code,
        Code::MilestonePreviousIdMismatch
    );
    let too_early = signed_milestone_block(next(snapshot.target_milestone_id, 1_700_000_020));
    assert_eq!(
        store.submit_block(&too_early).err().unwrap().code,
        Code::MilestoneTimestampNotIncreasing
    );
    let good = signed_milestone_block(next(snapshot.target_milestone_id, 1_700_000_030));
    assert!(store.submit_block(&good).unwrap().stored);
    assert_eq!(store.status().ledger_index, 3);
    assert_eq!(store.milestone_by_index(3).unwrap().unwrap().block_id, ids::block_id(&good));
    store.verify_index().unwrap();
    drop(store);

    // After a restart: same state, the origin kept.
    let store = Store::open(&ledger, follower(dev_options(1500))).unwrap();
    assert_eq!(store.status().ledger_index, 3);
    assert_eq!(store.status().pruning_index, 2);
    assert_eq!(store.origin().target_milestone_index, 2);
    assert_eq!(
        write_genesis_snapshot(&ledger, &dir.path().join("g.bin")).err().unwrap().code,
        Code::SnapshotNotGenesis
    );
}

#[test]
fn the_first_milestone_after_a_genesis_file_is_accepted_by_a_follower() {
    // A coordinator and a follower, both from the genesis file: milestone 1 has parents
    // [0x00…00] and MTH(∅) roots, and the follower takes it.
    let file = PathBuf::from(GENESIS_FILE);
    let a_dir = tempfile::tempdir().unwrap();
    let b_dir = tempfile::tempdir().unwrap();
    let a = Store::open(a_dir.path(), from_snapshot(&file, 1500)).unwrap();
    let b = Store::open(b_dir.path(), follower(from_snapshot(&file, 1500))).unwrap();
    let first = a.issue_milestone(None).unwrap();
    let bytes = a.block(&first.block_id).unwrap().unwrap();
    assert_eq!(decode_block(&bytes).unwrap().parents, vec![[0; 32]]);
    assert!(b.submit_block(&bytes).unwrap().stored);
    assert_eq!(a.milestone_by_index(1).unwrap(), b.milestone_by_index(1).unwrap());
}

#[test]
fn a_snapshot_written_by_hornet_makes_a_follower_at_its_target() {
    let file = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../test/data/hornet-private-tangle-t56.snapshot.bin"
    ));
    let dir = tempfile::tempdir().unwrap();
    let configured =
        ProtocolParameters { network_name: "private_tangle1".into(), ..dev_protocol(1500) };
    let store = Store::open(
        dir.path(),
        StoreOptions { protocol: configured, ..follower(from_snapshot(&file, 1500)) },
    )
    .unwrap();
    assert_eq!(store.protocol().token_supply, 2_779_530_283_277_761);
    assert_eq!((store.status().ledger_index, store.status().pruning_index), (56, 56));
    // Hornet's SetInitialSnapshotInfo: snapshot, entry point and pruning index at the target.
    let history = store.history_indexes();
    assert_eq!(
        (history.snapshot_index, history.entry_point_index, history.pruning_index),
        (56, 56, 56)
    );
    assert_eq!(store.unspent_total().unwrap(), 2_779_530_283_277_761);
    store.verify_index().unwrap();
    assert!(!indexed(&store).is_empty());
    // The milestones of the diffs above the target (57–81) are not stored: the node syncs
    // them, as Hornet does after its import.
    assert!((56..=81).all(|i| store.milestone_by_index(i).unwrap().is_none()));
    // Hornet's treasury of the file (a snap-gen network's: zero id, amount 0) is stored.
    assert_eq!(
        store.treasury_json().unwrap(),
        format!("{{\"milestoneId\":\"0x{}\",\"amount\":\"0\"}}", "00".repeat(32))
    );
    assert_eq!(store.receipts_json(None).unwrap(), "{\"receipts\":[]}");
    assert_eq!(
        store.select_tips().unwrap(),
        vec![id32("0x25e3765acf9ade42d7577398012dcc325f6e294db3de5b9b4f1d79e5bb399e9e"); 1]
    );
}
