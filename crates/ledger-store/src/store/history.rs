//! The history indexes of the store (`history.rs`, Hornet's `SnapshotInfo`): read by the
//! API, gossip and the snapshot writer; the snapshot index set when a snapshot is written.
//! Pruning moves the entry point and pruning indexes in its own batches (`prune/`).
//!
//! One history task at a time: a pruning run and a snapshot both read the history that the
//! other would change (Hornet refuses a REST prune or snapshot while either runs, and runs
//! the periodic ones one after the other). `begin_history_task` hands out the only token.

use super::{lock, Store};
use crate::history::HistoryIndexes;
use ledger_core::{Error, Result};

/// What reads or rewrites the node's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryTask {
    Pruning,
    Snapshot,
}

/// The token of the running history task; the next may begin once it is dropped.
pub struct HistoryWork<'a> {
    store: &'a Store,
    pub task: HistoryTask,
}

impl Drop for HistoryWork<'_> {
    fn drop(&mut self) {
        *lock(&self.store.history_task) = None;
    }
}

impl Store {
    /// The history indexes as persisted.
    pub fn history_indexes(&self) -> HistoryIndexes {
        lock(&self.state).history
    }

    /// Start a pruning run or a snapshot; None while one of them runs (Hornet's REST
    /// routes answer 503 then).
    pub fn begin_history_task(&self, task: HistoryTask) -> Option<HistoryWork<'_>> {
        let mut running = lock(&self.history_task);
        if running.is_some() {
            return None;
        }
        *running = Some(task);
        Some(HistoryWork { store: self, task })
    }

    /// The history task running now, if any.
    pub fn history_task(&self) -> Option<HistoryTask> {
        *lock(&self.history_task)
    }

    /// Record a snapshot written at `index` (Hornet's `SetSnapshotIndex`): persisted before
    /// it returns. The index must be a confirmed milestone not below the pruning index.
    pub fn set_snapshot_index(&self, index: u32, timestamp: u32) -> Result<()> {
        let mut state = lock(&self.state);
        let confirmed = state.latest.map_or(0, |l| l.index);
        let pruning = state.history.pruning_index;
        if index < pruning || index > confirmed {
            return Err(Error::new(
                "snapshot-index-out-of-range",
                "index",
                format!(
                    "a snapshot index must lie between the pruning index {pruning} and the confirmed milestone {confirmed}, not {index}"
                ),
            ));
        }
        let history = HistoryIndexes {
            snapshot_index: index,
            snapshot_timestamp: timestamp,
            ..state.history
        };
        let mut batch = self.db.batch();
        history.put(&mut batch);
        batch.commit()?;
        state.history = history;
        Ok(())
    }
}
