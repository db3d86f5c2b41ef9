//! `integrity::check_directory` (ledger-node tool db-health): a ledger with a transfer and
//! three milestones is healthy; each kind of damage, made by deleting one key with RocksDB
//! itself, is found and named.

mod common;

use common::*;
use ledger_core::ids;
use ledger_store::integrity::{check_directory, HealthReport};
use ledger_store::{Store, StoreOptions};
use std::path::Path;

/// Milestone 1, a transfer splitting the genesis output in two, milestone 2, a tagged block,
/// milestone 3. Returns the transfer's block id and transaction id.
fn history(dir: &Path) -> ([u8; 32], [u8; 32]) {
    let store = open_dev(dir, 0);
    store.issue_milestone(None).unwrap();
    let genesis = [([0u8; 34], genesis_output())];
    let tx = transfer(
        &genesis_seed(),
        &genesis,
        vec![basic_output(SUPPLY / 2, [1; 32]), basic_output(SUPPLY / 2, [2; 32])],
    );
    let block = tx_block(&store, &tx);
    store.submit_block(&block).unwrap();
    store.issue_milestone(None).unwrap();
    let tagged = block_bytes(&store, None);
    store.submit_block(&tagged).unwrap();
    store.issue_milestone(None).unwrap();
    (ids::block_id(&block), ids::transaction_id(&tx))
}

/// Delete one key of a column family with RocksDB itself, as a damaged disk might.
fn delete(dir: &Path, family: &str, key: &[u8]) {
    let options = rocksdb::Options::default();
    let families = rocksdb::DB::list_cf(&options, dir).unwrap();
    let db = rocksdb::DB::open_cf(&options, dir, &families).unwrap();
    db.delete_cf(db.cf_handle(family).unwrap(), key).unwrap();
}

fn damaged(report: &HealthReport, text: &str) -> bool {
    report.problems.iter().any(|p| p.contains(text))
}

#[test]
fn a_ledger_written_by_the_node_is_healthy() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());
    let report = check_directory(dir.path()).unwrap();
    assert_eq!(report.problems, Vec::<String>::new());
    assert_eq!(report.milestones, 3);
    assert_eq!(report.unspent_outputs, 2);
    assert!(report.indexer_checked);
    assert!(report.blocks >= 5, "{} blocks", report.blocks);
}

/// A node run with `--no-indexer` after its indexer was on leaves the index behind the
/// ledger: not damage (the index is never served, and rebuilt when switched on again).
#[test]
fn an_indexer_left_behind_by_a_run_without_it_is_not_damage() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());
    {
        let store =
            Store::open(dir.path(), StoreOptions { indexer_enabled: false, ..dev_options(0) })
                .unwrap();
        let tagged = block_bytes(&store, None);
        store.submit_block(&tagged).unwrap();
        store.issue_milestone(None).unwrap();
    }
    let report = check_directory(dir.path()).unwrap();
    assert_eq!(report.problems, Vec::<String>::new());
    assert!(!report.indexer_checked);
}

#[test]
fn a_block_without_its_bytes_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let (block, _) = history(dir.path());
    delete(dir.path(), "blocks", &block);
    let report = check_directory(dir.path()).unwrap();
    assert!(damaged(&report, &format!("block 0x{} has metadata but no bytes", hex::encode(block))));
}

#[test]
fn a_referenced_block_that_approves_a_missing_block_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let (block, _) = history(dir.path());
    delete(dir.path(), "block_meta", &block);
    let report = check_directory(dir.path()).unwrap();
    assert!(
        damaged(&report, &format!("approves 0x{}, which is neither stored", hex::encode(block))),
        "{:?}",
        report.problems
    );
}

#[test]
fn an_unspent_output_without_its_record_breaks_the_supply() {
    let dir = tempfile::tempdir().unwrap();
    let (_, tx) = history(dir.path());
    let output = ids::output_id(&tx, 1);
    delete(dir.path(), "outputs", &output);
    let report = check_directory(dir.path()).unwrap();
    assert!(damaged(&report, "the unspent outputs cannot be added up"), "{:?}", report.problems);
    assert!(damaged(&report, &format!("unspent output 0x{} has no record", hex::encode(output))));
}

#[test]
fn an_indexer_entry_missing_is_found() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());
    let options = rocksdb::Options::default();
    let families = rocksdb::DB::list_cf(&options, dir.path()).unwrap();
    let db = rocksdb::DB::open_cf(&options, dir.path(), &families).unwrap();
    let outputs = db.cf_handle("indexer_outputs").unwrap();
    let (key, _) = db.iterator_cf(outputs, rocksdb::IteratorMode::Start).next().unwrap().unwrap();
    db.delete_cf(outputs, &key).unwrap();
    drop(db);
    let report = check_directory(dir.path()).unwrap();
    assert!(damaged(&report, "the indexer differs from the ledger"), "{:?}", report.problems);
}

#[test]
fn a_milestone_missing_in_the_middle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());
    delete(dir.path(), "milestones", &2u32.to_be_bytes());
    let report = check_directory(dir.path()).unwrap();
    assert!(damaged(&report, "milestones 2 to 2 are missing"), "{:?}", report.problems);
    assert_eq!(report.milestones, 2);
}

#[test]
fn a_directory_without_a_ledger_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = check_directory(dir.path()).unwrap_err();
    assert_eq!(err.code, ledger_core::Code::NoLedger);
}

/// Leave the marker of a run that never closed the directory, as kill -9 leaves it.
fn crashed(dir: &Path) {
    let options = rocksdb::Options::default();
    let families = rocksdb::DB::list_cf(&options, dir).unwrap();
    let db = rocksdb::DB::open_cf(&options, dir, &families).unwrap();
    db.put_cf(db.cf_handle("state").unwrap(), b"open", [1]).unwrap();
}

#[test]
fn a_clean_close_leaves_nothing_to_check_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());
    let store = open_dev(dir.path(), 0);
    assert_eq!(store.start_check(), None);
}

#[test]
fn after_a_run_that_did_not_close_the_ledger_is_checked_at_start() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());
    crashed(dir.path());
    let store = open_dev(dir.path(), 0);
    let check = store.start_check().expect("checked");
    assert_eq!((check.unspent_outputs, check.milestones), (2, 3));
    drop(store);
    // Closed again: the next start checks nothing.
    assert_eq!(open_dev(dir.path(), 0).start_check(), None);
}

#[test]
fn a_damaged_ledger_found_at_start_stops_the_node_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());
    delete(dir.path(), "milestones", &2u32.to_be_bytes());
    crashed(dir.path());
    let Err(err) = ledger_store::Store::open(dir.path(), dev_options(0)) else {
        panic!("a damaged ledger was opened");
    };
    assert_eq!(err.code, ledger_core::Code::DatabaseDamaged);
    assert!(err.detail.contains("milestones 2 to 2 are missing"), "{}", err.detail);
    assert!(err.detail.contains("ledger-node tool db-health"), "{}", err.detail);
    assert!(!err.detail.contains('\n'));
    // Refused, it stays marked: the next start checks again.
    assert_eq!(
        ledger_store::Store::open(dir.path(), dev_options(0)).err().map(|e| e.code),
        Some(ledger_core::Code::DatabaseDamaged)
    );
}
