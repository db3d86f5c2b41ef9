//! The history indexes (Hornet's `SnapshotInfo`): written with a new ledger, read at open,
//! the source of `Status::pruning_index`; the snapshot index persisted when set.

mod common;

use common::*;
use ledger_core::Code;
use ledger_store::HistoryIndexes;

#[test]
fn a_genesis_ledger_starts_with_every_index_at_zero_and_keeps_a_set_snapshot_index() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    assert_eq!(store.history_indexes(), HistoryIndexes::default());
    for _ in 0..4 {
        store.issue_milestone(None).unwrap();
    }
    // Milestones do not move the history; a snapshot index must be a confirmed milestone.
    assert_eq!(store.history_indexes(), HistoryIndexes::default());
    let err = store.set_snapshot_index(5, 1_700_000_000).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::SnapshotIndexOutOfRange, "index"));
    store.set_snapshot_index(3, 1_700_000_003).unwrap();
    drop(store);

    let store = open_dev(dir.path(), 0);
    let history = store.history_indexes();
    assert_eq!(
        history,
        HistoryIndexes {
            snapshot_index: 3,
            snapshot_timestamp: 1_700_000_003,
            ..HistoryIndexes::default()
        }
    );
    assert_eq!(store.status().pruning_index, history.pruning_index);
}

#[test]
fn one_history_task_runs_at_a_time() {
    use ledger_store::HistoryTask;
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    let pruning = store.begin_history_task(HistoryTask::Pruning).unwrap();
    assert_eq!(store.history_task(), Some(HistoryTask::Pruning));
    assert!(store.begin_history_task(HistoryTask::Snapshot).is_none());
    drop(pruning);
    assert_eq!(store.history_task(), None);
    let snapshot = store.begin_history_task(HistoryTask::Snapshot).unwrap();
    assert_eq!(snapshot.task, HistoryTask::Snapshot);
}
