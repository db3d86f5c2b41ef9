//! Snapshots of a confirmed state (snapshot.md §8) written by the store and loaded into a new
//! one (§4, §7): a full snapshot at any target within reach gives the ledger the network had
//! at that target; a delta continues its full snapshot, and extending it keeps what it held;
//! the limits refuse targets out of reach with Hornet's words; receipts and the treasury go
//! through a delta; bad files are refused with nothing left behind.

mod common;

use common::*;
use ledger_core::ids;
use ledger_core::merkle::merkle_root;
use ledger_core::model::*;
use ledger_core::snapshot::*;
use ledger_core::Code;
use ledger_store::{
    read_snapshot_header_of, GenesisStyle, OutputFilter, OutputQuery, OutputsOf, SnapshotKind,
    SnapshotRequest, Store, StoreOptions,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every unspent output id the indexer lists, ascending.
fn unspent(store: &Store) -> Vec<OutputId> {
    let query = OutputQuery {
        of: OutputsOf::AllKinds,
        filter: OutputFilter::default(),
        cursor: None,
        page_size: 10_000,
    };
    let mut items = store.indexed_outputs(&query).unwrap().items;
    items.sort();
    items
}

/// A coordinator network of `milestones` milestones: every third one confirms a transfer
/// that splits the dev genesis key's newest output; the unspent set after each milestone and
/// the blocks of each (the transfer, then the milestone's own block), as gossip would bring
/// them.
struct Network {
    _dir: tempfile::TempDir,
    store: Store,
    unspent_at: BTreeMap<u32, Vec<OutputId>>,
    blocks_of: BTreeMap<u32, Vec<Vec<u8>>>,
}

fn network(milestones: u32) -> Network {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(
        dir.path(),
        StoreOptions { genesis_style: GenesisStyle::Hornet, ..dev_options(0) },
    )
    .unwrap();
    let mut owned: (OutputId, Output) = ([0; 34], genesis_output());
    let mut unspent_at = BTreeMap::new();
    let mut blocks_of = BTreeMap::new();
    for index in 1..=milestones {
        let mut blocks = Vec::new();
        if index > 1 && index % 3 == 0 {
            let amount = owned.1.amount();
            let tx = transfer(
                &genesis_seed(),
                std::slice::from_ref(&owned),
                vec![
                    basic_output(1_000_000, [index as u8; 32]),
                    basic_output(amount - 1_000_000, genesis_address()),
                ],
            );
            let block = tx_block(&store, &tx);
            store.submit_block(&block).unwrap();
            blocks.push(block);
            owned = (ids::output_id(&ids::transaction_id(&tx), 1), tx.essence.outputs[1].clone());
        }
        let issued = store.issue_milestone(Some(1_700_000_000 + index)).unwrap();
        blocks.push(store.block(&issued.block_id).unwrap().unwrap());
        blocks_of.insert(index, blocks);
        unspent_at.insert(index, unspent(&store));
    }
    Network { _dir: dir, store, unspent_at, blocks_of }
}

/// A follower that started at `target` is given the network's blocks after it, as gossip
/// brings them (the target's milestone block first: the next milestone approves it), and
/// ends with the network's ledger and milestones.
fn sync_after(n: &Network, joined: &Store, target: u32) {
    let last = *n.blocks_of.keys().last().unwrap();
    let target_block = n.blocks_of[&target].last().unwrap();
    joined.submit_block(target_block).unwrap();
    for index in target + 1..=last {
        for block in &n.blocks_of[&index] {
            joined.submit_block(block).unwrap();
        }
        assert_eq!(joined.status().ledger_index, index);
    }
    assert_eq!(unspent(joined), n.unspent_at[&last]);
    for index in target + 1..=last {
        assert_eq!(
            joined.milestone_by_index(index).unwrap().map(|m| m.milestone_id),
            n.store.milestone_by_index(index).unwrap().map(|m| m.milestone_id)
        );
        let (got, want) = (
            joined.utxo_changes(index).unwrap().unwrap(),
            n.store.utxo_changes(index).unwrap().unwrap(),
        );
        assert_eq!((got.created, got.consumed), (want.created, want.consumed));
    }
    joined.verify_index().unwrap();
}

fn full(target: u32, path: &Path) -> SnapshotRequest {
    SnapshotRequest {
        kind: SnapshotKind::Full,
        target,
        full_path: path.to_path_buf(),
        delta_path: None,
        record: false,
        pace: None,
    }
}

fn delta(target: u32, full_path: &Path, delta_path: &Path) -> SnapshotRequest {
    SnapshotRequest {
        kind: SnapshotKind::Delta,
        target,
        full_path: full_path.to_path_buf(),
        delta_path: Some(delta_path.to_path_buf()),
        record: true,
        pace: None,
    }
}

/// A follower of the dev coordinator started from these files.
fn joiner(dir: &Path, full: &Path, delta: Option<&Path>) -> ledger_core::Result<Store> {
    Store::open(
        &dir.join("ledger"),
        StoreOptions {
            snapshot: Some(full.to_path_buf()),
            snapshot_delta: delta.map(Path::to_path_buf),
            coordinator_enabled: false,
            coordinator_seeds: vec![],
            trusted_public_keys: vec![ledger_core::crypto::public_key(&coordinator_seed())],
            ..dev_options(0)
        },
    )
}

#[test]
fn a_full_snapshot_at_a_target_within_reach_loads_to_the_ledger_at_that_target() {
    let n = network(60);
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("snapshots/full_snapshot_30.bin");
    let written = n.store.create_snapshot(&full(30, &file)).unwrap();
    assert_eq!(
        (written.target_milestone_index, written.ledger_milestone_index, written.kind),
        (30, 60, SnapshotKind::Full)
    );
    assert_eq!(written.bytes, std::fs::metadata(&file).unwrap().len());
    assert!(!ledger_store::snapshot_temp_path(&file).exists());
    // Hornet's shape: the ledger at 60, the diffs 60 … 1 (30 above the target, the target,
    // and below it as far as the history reaches, at most 29), the target's milestone.
    let s = read_full_snapshot(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!((s.target_milestone_index, s.ledger_milestone_index), (30, 60));
    assert_eq!(s.milestone_diffs.len(), 60);
    assert_eq!(s.milestone_diffs.first().unwrap().index(), 60);
    assert_eq!(s.milestone_diffs.last().unwrap().index(), 1);
    let m30 = n.store.milestone_by_index(30).unwrap().unwrap();
    assert_eq!(
        (s.target_milestone_id, s.target_milestone_timestamp),
        (m30.milestone_id, m30.timestamp)
    );
    assert_eq!(s.outputs.len(), n.unspent_at[&60].len());
    assert_eq!(s.treasury, TreasuryOutput::default());

    let joined_dir = tempfile::tempdir().unwrap();
    let joined = joiner(joined_dir.path(), &file, None).unwrap();
    assert_eq!(unspent(&joined), n.unspent_at[&30]);
    let status = joined.status();
    assert_eq!((status.ledger_index, status.pruning_index), (30, 30));
    assert_eq!(status.latest_milestone.map(|l| (l.0, l.2)), Some((30, m30.milestone_id)));
    assert_eq!(joined.unspent_total().unwrap(), SUPPLY as u128);
    joined.verify_index().unwrap();
    // Outputs keep where and when they were booked.
    for id in &n.unspent_at[&30] {
        assert_eq!(joined.output(id).unwrap().unwrap().0, n.store.output(id).unwrap().unwrap().0);
    }

    // It syncs the milestones after the target and reaches the network's ledger at 60.
    sync_after(&n, &joined, 30);
    drop(joined);

    // Targets out of reach, in Hornet's words: at most CMI − 20, at least 21.
    let err = n.store.create_snapshot(&full(41, &out.path().join("x.bin"))).unwrap_err();
    assert_eq!(
        (err.code, err.detail.as_str()),
        (Code::SnapshotTargetTooNew, "maximum: 40, actual: 41: snapshot target is too new")
    );
    let err = n.store.create_snapshot(&full(20, &out.path().join("x.bin"))).unwrap_err();
    assert_eq!(
        (err.code, err.detail.as_str()),
        (Code::SnapshotTargetTooOld, "minimum: 21, actual: 20: snapshot target is too old")
    );
    assert!(!out.path().join("x.bin").exists() && !out.path().join("x.bin.tmp").exists());
    // The last write is remembered.
    assert_eq!(n.store.last_snapshot().unwrap().target_milestone_index, 30);
    assert!(n.store.history_task().is_none());
}

#[test]
fn a_delta_continues_its_full_snapshot_and_grows_in_place() {
    let n = network(60);
    let out = tempfile::tempdir().unwrap();
    let full_path = out.path().join("full_snapshot.bin");
    let delta_path = out.path().join("delta_snapshot.bin");
    n.store.create_snapshot(&full(25, &full_path)).unwrap();
    let first = n.store.create_snapshot(&delta(30, &full_path, &delta_path)).unwrap();
    assert_eq!((first.kind, first.milestone_diffs), (SnapshotKind::Delta, 5));
    assert_eq!(n.store.history_indexes().snapshot_index, 30);
    let before = std::fs::read(&delta_path).unwrap();
    let d = read_delta_snapshot(&before).unwrap();
    let indexes: Vec<u32> = d.milestone_diffs.iter().map(|m| m.index()).collect();
    assert_eq!(indexes, (26..=30).collect::<Vec<_>>());
    let full_header = read_full_snapshot(&std::fs::read(&full_path).unwrap()).unwrap();
    assert_eq!(d.full_snapshot_target_milestone_id, full_header.target_milestone_id);

    let joined_dir = tempfile::tempdir().unwrap();
    let joined = joiner(joined_dir.path(), &full_path, Some(&delta_path)).unwrap();
    assert_eq!(unspent(&joined), n.unspent_at[&30]);
    assert_eq!((joined.status().ledger_index, joined.status().pruning_index), (30, 30));
    drop(joined);

    // Extended to 38: the old header and diffs are kept byte for byte, 8 diffs appended.
    let second = n.store.create_snapshot(&delta(38, &full_path, &delta_path)).unwrap();
    assert_eq!(second.milestone_diffs, 13);
    let after = std::fs::read(&delta_path).unwrap();
    let ledger_store_header = read_snapshot_header_of(&delta_path).unwrap();
    let SnapshotHeader::Delta(h) = ledger_store_header else { panic!("a delta") };
    let old_sep_offset = before.len() - 32 * d.solid_entry_points.len();
    assert_eq!(
        &after[DELTA_HEADER_LENGTH..old_sep_offset],
        &before[DELTA_HEADER_LENGTH..old_sep_offset]
    );
    assert_eq!((h.target_milestone_index, h.milestone_diff_count), (38, 13));
    assert_eq!(read_delta_snapshot(&after).unwrap().milestone_diffs.len(), 13);
    let joined_dir = tempfile::tempdir().unwrap();
    let joined = joiner(joined_dir.path(), &full_path, Some(&delta_path)).unwrap();
    assert_eq!(unspent(&joined), n.unspent_at[&38]);
    assert_eq!(
        joined.status().latest_milestone.map(|l| l.2),
        Some(n.store.milestone_by_index(38).unwrap().unwrap().milestone_id)
    );
    sync_after(&n, &joined, 38);
    drop(joined);

    // Not backwards, not onto another full snapshot.
    let err = n.store.create_snapshot(&delta(35, &full_path, &delta_path)).unwrap_err();
    assert_eq!(err.code, Code::SnapshotTargetTooOld);
    let other_full = out.path().join("other_full.bin");
    n.store.create_snapshot(&full(27, &other_full)).unwrap();
    let err = n.store.create_snapshot(&delta(39, &other_full, &delta_path)).unwrap_err();
    assert_eq!(err.code, Code::SnapshotDeltaMismatch);
    assert_eq!(std::fs::read(&delta_path).unwrap(), after);
    // A recorded full snapshot removes the delta that continued the old one.
    n.store
        .create_snapshot(&SnapshotRequest {
            record: true,
            delta_path: Some(delta_path.clone()),
            ..full(39, &full_path)
        })
        .unwrap();
    assert!(!delta_path.exists());
    assert_eq!(n.store.history_indexes().snapshot_index, 39);
}

/// Bytes of a full snapshot with one field changed (read, change, write).
fn changed(bytes: &[u8], change: impl FnOnce(&mut FullSnapshot)) -> Vec<u8> {
    let mut s = read_full_snapshot(bytes).unwrap();
    change(&mut s);
    write_full_snapshot(&s).unwrap()
}

#[test]
fn bad_files_are_refused_and_leave_no_ledger_behind() {
    let n = network(60);
    let out = tempfile::tempdir().unwrap();
    let full_path = out.path().join("full.bin");
    let delta_path = out.path().join("delta.bin");
    n.store.create_snapshot(&full(25, &full_path)).unwrap();
    n.store.create_snapshot(&delta(35, &full_path, &delta_path)).unwrap();
    let good = std::fs::read(&full_path).unwrap();
    let good_delta = std::fs::read(&delta_path).unwrap();
    let refuse = |full_bytes: &[u8], delta_bytes: Option<&[u8]>| -> ledger_core::Error {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f.bin");
        std::fs::write(&f, full_bytes).unwrap();
        let d = delta_bytes.map(|b| {
            let d = dir.path().join("d.bin");
            std::fs::write(&d, b).unwrap();
            d
        });
        let err = joiner(dir.path(), &f, d.as_deref()).err().expect("refused");
        assert!(!dir.path().join("ledger").exists(), "{err}");
        assert!(!err.to_string().contains('\n'), "one line: {err}");
        err
    };
    for cut in [0, 1, 60, 154, good.len() / 2, good.len() - 1] {
        let code = refuse(&good[..cut], None).code;
        assert!(
            [Code::TruncatedBytes, Code::LengthPrefixTooLarge].contains(&code),
            "{cut}: {code}"
        );
    }
    for cut in [10, 56, good_delta.len() - 1] {
        let code = refuse(&good, Some(&good_delta[..cut])).code;
        assert!(
            [Code::TruncatedBytes, Code::LengthPrefixTooLarge].contains(&code),
            "{cut}: {code}"
        );
    }
    let other_network =
        changed(&good, |s| s.protocol_parameters.params.network_name = "elsewhere".into());
    assert_eq!(refuse(&other_network, None).code, Code::SnapshotNetworkMismatch);
    let broken_chain =
        changed(&good, |s| s.milestone_diffs[3].milestone.previous_milestone_id[0] ^= 1);
    assert_eq!(refuse(&broken_chain, None).code, Code::SnapshotMilestoneChainBroken);
    // A delta whose full snapshot is another one.
    let other_full = out.path().join("other.bin");
    n.store.create_snapshot(&full(27, &other_full)).unwrap();
    let err = refuse(&std::fs::read(&other_full).unwrap(), Some(&good_delta));
    assert_eq!(err.code, Code::SnapshotDeltaMismatch);
    // A delta given as the full snapshot and the other way round.
    assert_eq!(refuse(&good_delta, None).code, Code::SnapshotTypeUnsupported);
    assert_eq!(refuse(&good, Some(&good)).code, Code::SnapshotTypeUnsupported);
    // And the good pair loads.
    let dir = tempfile::tempdir().unwrap();
    let store = joiner(dir.path(), &full_path, Some(&delta_path)).unwrap();
    assert_eq!(unspent(&store), n.unspent_at[&35]);
}

// ----- receipts: a follower of a network with migration ------------------------------------

const TREASURY: u64 = 100_000_000;

/// A genesis with a treasury (a network with migration): the dev genesis output less the
/// treasury, in the snapshot a follower starts from.
fn treasury_genesis(dir: &Path) -> PathBuf {
    let file = dir.join("genesis.bin");
    let genesis = FullSnapshot {
        genesis_milestone_index: 0,
        target_milestone_index: 0,
        target_milestone_timestamp: 0,
        target_milestone_id: [0; 32],
        ledger_milestone_index: 0,
        treasury: TreasuryOutput { milestone_id: [0; 32], amount: TREASURY },
        protocol_parameters: ProtocolParametersOption {
            target_milestone_index: 0,
            protocol_version: 2,
            params: dev_protocol(0),
        },
        outputs: vec![SnapshotOutput {
            output_id: [0; 34],
            block_id: [0; 32],
            milestone_index_booked: 0,
            milestone_timestamp_booked: 0,
            output: basic_output(SUPPLY - TREASURY, genesis_address()),
        }],
        milestone_diffs: vec![],
        solid_entry_points: vec![[0; 32]],
    };
    std::fs::write(&file, write_full_snapshot(&genesis).unwrap()).unwrap();
    file
}

fn receipt(migrated_at: u32, deposit: u64, left: u64) -> MilestoneOption {
    MilestoneOption::Receipt(ReceiptOption {
        migrated_at,
        last: false,
        funds: vec![MigratedFundsEntry {
            tail_transaction_hash: [3; 49],
            address: Address::Ed25519([0x99; 32]),
            deposit,
        }],
        transaction: TreasuryTransaction {
            input: Input::Treasury { milestone_id: [0; 32] },
            output: Output::Treasury { amount: left },
        },
    })
}

/// The follower's next milestone: it approves the previous milestone's block (the only
/// pending block), with white flag's roots, optionally a receipt.
fn next_milestone(store: &Store, options: Vec<MilestoneOption>) -> Vec<u8> {
    let status = store.status();
    let (index, timestamp, previous) = status.latest_milestone.unwrap_or((0, 0, [0; 32]));
    let (parents, referenced) = match store.milestone_by_index(index).unwrap() {
        Some(m) => (vec![m.block_id], vec![m.block_id]),
        None => (vec![[0; 32]], vec![]),
    };
    signed_milestone_block(MilestonePayload {
        index: index + 1,
        timestamp: timestamp.max(1_700_000_000) + 1,
        protocol_version: 2,
        previous_milestone_id: previous,
        parents,
        inclusion_merkle_root: merkle_root(&referenced),
        applied_merkle_root: merkle_root(&[]),
        metadata: vec![],
        options,
        signatures: vec![],
    })
}

#[test]
fn a_receipt_moves_funds_out_of_the_treasury_and_travels_in_a_delta() {
    let dir = tempfile::tempdir().unwrap();
    let genesis = treasury_genesis(dir.path());
    let store = joiner(dir.path(), &genesis, None).unwrap();
    let zero_treasury =
        format!("{{\"milestoneId\":\"0x{}\",\"amount\":\"{TREASURY}\"}}", "00".repeat(32));
    assert_eq!(store.treasury_json().unwrap(), zero_treasury);
    assert_eq!(store.receipts_json(None).unwrap(), "{\"receipts\":[]}");
    for _ in 1..30 {
        assert!(store.submit_block(&next_milestone(&store, vec![])).unwrap().stored);
    }
    // A receipt that leaves the wrong amount in the treasury is refused.
    let wrong = next_milestone(&store, vec![receipt(7, 2_000_000, TREASURY - 1_000_000)]);
    assert_eq!(store.submit_block(&wrong).err().unwrap().code, Code::MilestoneReceiptInvalid);
    // Milestone 30 migrates 2 Mi.
    let m30 = next_milestone(&store, vec![receipt(7, 2_000_000, TREASURY - 2_000_000)]);
    assert!(store.submit_block(&m30).unwrap().stored);
    let m30_id = store.milestone_by_index(30).unwrap().unwrap().milestone_id;
    let migrated = {
        let mut id = [0u8; 34];
        id[..32].copy_from_slice(&m30_id);
        id
    };
    let treasury_after = format!(
        "{{\"milestoneId\":\"0x{}\",\"amount\":\"{}\"}}",
        hex::encode(m30_id),
        TREASURY - 2_000_000
    );
    assert_eq!(store.treasury_json().unwrap(), treasury_after);
    let receipts = json(&store.receipts_json(None).unwrap());
    assert_eq!(receipts["receipts"][0]["milestoneIndex"], 30);
    assert_eq!(receipts["receipts"][0]["receipt"]["migratedAt"], 7);
    assert_eq!(receipts["receipts"][0]["receipt"]["funds"][0]["deposit"], "2000000");
    assert_eq!(json(&store.receipts_json(Some(7)).unwrap()), receipts);
    assert_eq!(store.receipts_json(Some(8)).unwrap(), "{\"receipts\":[]}");
    let (output, metadata) = store.output(&migrated).unwrap().unwrap();
    assert_eq!(ledger_core::codec::decode_output(&output).unwrap().amount(), 2_000_000);
    assert_eq!(json(&metadata)["milestoneIndexBooked"], 30);
    assert!(store.utxo_changes(30).unwrap().unwrap().created.contains(&migrated));
    assert_eq!(store.unspent_total().unwrap() + (TREASURY - 2_000_000) as u128, SUPPLY as u128);
    store.verify_index().unwrap();
    for _ in 31..=56 {
        assert!(store.submit_block(&next_milestone(&store, vec![])).unwrap().stored);
    }
    // A full snapshot before the receipt and a delta after it.
    let out = tempfile::tempdir().unwrap();
    let full_path = out.path().join("full.bin");
    let delta_path = out.path().join("delta.bin");
    store.create_snapshot(&full(21, &full_path)).unwrap();
    store.create_snapshot(&delta(36, &full_path, &delta_path)).unwrap();
    let d = read_delta_snapshot(&std::fs::read(&delta_path).unwrap()).unwrap();
    let with_receipt = &d.milestone_diffs[30 - 22];
    assert_eq!(with_receipt.index(), 30);
    assert_eq!(
        with_receipt.spent_treasury,
        Some(TreasuryOutput { milestone_id: [0; 32], amount: TREASURY })
    );
    // The full snapshot at 21 (ledger at 56) undoes the receipt: its diff carries the spent treasury.
    let f = read_full_snapshot(&std::fs::read(&full_path).unwrap()).unwrap();
    assert_eq!(f.treasury.amount, TREASURY - 2_000_000);
    let joined_dir = tempfile::tempdir().unwrap();
    let at_21 = joiner(joined_dir.path(), &full_path, None).unwrap();
    assert_eq!(at_21.treasury_json().unwrap(), zero_treasury);
    assert!(at_21.output(&migrated).unwrap().is_none());
    drop(at_21);
    // Full + delta: the receipt applied again, kept for /receipts, the treasury moved.
    let joined_dir = tempfile::tempdir().unwrap();
    let at_36 = joiner(joined_dir.path(), &full_path, Some(&delta_path)).unwrap();
    assert_eq!(at_36.treasury_json().unwrap(), treasury_after);
    assert_eq!(json(&at_36.receipts_json(None).unwrap()), receipts);
    assert!(at_36.output(&migrated).unwrap().is_some());
    assert_eq!(at_36.unspent_total().unwrap() + (TREASURY - 2_000_000) as u128, SUPPLY as u128);
    drop(store);
    // And after a restart the follower still has it all.
    let store = Store::open(
        &dir.path().join("ledger"),
        StoreOptions {
            coordinator_enabled: false,
            coordinator_seeds: vec![],
            trusted_public_keys: vec![ledger_core::crypto::public_key(&coordinator_seed())],
            ..dev_options(0)
        },
    )
    .unwrap();
    assert_eq!(store.treasury_json().unwrap(), treasury_after);
    assert_eq!(json(&store.receipts_json(None).unwrap()), receipts);
}
