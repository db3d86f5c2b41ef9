//! The data directory itself: its schema version (refused when this build cannot read it),
//! `state` values of the wrong size (corruption, never a quiet 0), the counters of the
//! last milestone interval, and RocksDB's own files kept bounded.

mod common;

use common::*;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::MilestoneInterval;
use std::path::Path;

/// Change one `state` value of a closed store, as another program (or a disk fault) could.
fn set_state(dir: &Path, key: &[u8], value: Option<&[u8]>) {
    // Every column family the directory has (RocksDB refuses to open with fewer).
    let names = rocksdb::DB::list_cf(&rocksdb::Options::default(), dir).unwrap();
    let db = rocksdb::DB::open_cf(&rocksdb::Options::default(), dir, names).unwrap();
    let cf = db.cf_handle("state").unwrap();
    match value {
        Some(v) => db.put_cf(cf, key, v).unwrap(),
        None => db.delete_cf(cf, key).unwrap(),
    }
}

fn get_state(dir: &Path, key: &[u8]) -> Option<Vec<u8>> {
    let names = ["state"];
    let db = rocksdb::DB::open_cf_for_read_only(&rocksdb::Options::default(), dir, names, false)
        .unwrap();
    db.get_cf(db.cf_handle("state").unwrap(), key).unwrap()
}

#[test]
fn a_new_data_directory_gets_the_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    drop(open_dev(dir.path(), 0));
    // Version 5: with the indexer's column families, the origin and the entry points, the
    // milestone blocks and the history indexes, the receipts.
    assert_eq!(get_state(dir.path(), b"schema_version"), Some(5u32.to_le_bytes().to_vec()));
}

#[test]
fn a_newer_schema_version_is_refused_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    drop(open_dev(dir.path(), 0));
    set_state(dir.path(), b"schema_version", Some(&7u32.to_le_bytes()));
    let err = ledger_store::Store::open(dir.path(), dev_options(0)).err().unwrap();
    assert_eq!(err.code, Code::StorageVersionUnsupported);
    assert!(
        err.detail.contains("version 7") && err.detail.contains("reads version 5"),
        "{}",
        err.detail
    );
}

#[test]
fn a_data_directory_without_a_version_is_read_and_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let store = open_dev(dir.path(), 0);
        store.issue_milestone(None).unwrap();
        store.submit_block(&block_bytes(&store, None)).unwrap().block_id
    };
    set_state(dir.path(), b"schema_version", None);
    let store = open_dev(dir.path(), 0);
    assert!(store.block_metadata_json(&id).unwrap().is_some());
    drop(store);
    assert_eq!(get_state(dir.path(), b"schema_version"), Some(5u32.to_le_bytes().to_vec()));
}

#[test]
fn state_values_of_the_wrong_size_are_corruption() {
    for key in [&b"ledger_index"[..], b"next_seq", b"block_count", b"schema_version"] {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open_dev(dir.path(), 0);
            store.issue_milestone(None).unwrap();
        }
        set_state(dir.path(), key, Some(&[1, 2, 3]));
        let err = ledger_store::Store::open(dir.path(), dev_options(0)).err().unwrap();
        assert_eq!(err.code, Code::StorageFailure, "{}", String::from_utf8_lossy(key));
        assert!(err.detail.contains("3 bytes"), "{}", err.detail);
    }
}

#[test]
fn the_last_interval_counts_new_and_referenced_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(Some(1_700_000_000)).unwrap();
    assert_eq!(store.status().last_interval, None, "no interval before the second milestone");
    store.issue_milestone(Some(1_700_000_002)).unwrap();
    assert_eq!(
        store.status().last_interval,
        Some(MilestoneInterval { index: 2, new_blocks: 1, referenced_blocks: 1, seconds: 2 })
    );
    for i in 0..10 {
        let payload = Payload::TaggedData(TaggedData { tag: vec![], data: vec![i] });
        store.submit_block(&block_bytes(&store, Some(payload))).unwrap();
    }
    store.issue_milestone(Some(1_700_000_007)).unwrap();
    // 10 blocks and milestone 3's own; milestone 2's block and the 10 referenced.
    assert_eq!(
        store.status().last_interval,
        Some(MilestoneInterval { index: 3, new_blocks: 11, referenced_blocks: 11, seconds: 5 })
    );
    // Restarted: the first milestone only starts counting again.
    drop(store);
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(Some(1_700_000_008)).unwrap();
    assert_eq!(store.status().last_interval, None);
    store.issue_milestone(Some(1_700_000_009)).unwrap();
    assert_eq!(store.status().last_interval.unwrap().index, 5);
}

#[test]
fn reopening_keeps_at_most_two_rocksdb_info_logs() {
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..5 {
        let store = open_dev(dir.path(), 0);
        store.issue_milestone(None).unwrap();
    }
    // Every open starts a new `LOG` and renames the last one `LOG.old.<time>`.
    let logs: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("LOG"))
        .collect();
    assert!(!logs.is_empty() && logs.len() <= 2, "{logs:?}");
}

#[test]
fn a_closed_store_leaves_its_writes_in_table_files_and_no_write_ahead_log() {
    let dir = tempfile::tempdir().unwrap();
    let milestone = {
        let store = open_dev(dir.path(), 0);
        store.issue_milestone(None).unwrap()
    };
    let wal_bytes: u64 = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".log"))
        .map(|entry| entry.metadata().unwrap().len())
        .sum();
    assert_eq!(wal_bytes, 0, "write-ahead log left after a clean close");
    // What was written is in the table files: the milestone is there after reopening.
    let store = open_dev(dir.path(), 0);
    assert_eq!(store.status().latest_milestone.map(|(index, _, _)| index), Some(milestone.index));
}
