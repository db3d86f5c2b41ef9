//! The history indexes of the store (`history.rs`, Hornet's `SnapshotInfo`): read by the
//! API, gossip and the snapshot writer; the snapshot index set when a snapshot is written.
//! Pruning moves the entry point and pruning indexes in its own batches (`prune/`).
//!
//! One history task at a time: a pruning run and a snapshot both read the history that the
//! other would change (Hornet refuses a REST prune or snapshot while either runs, and runs
//! the periodic ones one after the other). `begin_history_task` hands out the only token.

use super::{lock, Store};
use crate::columns::{state_key, STATE};
use crate::db::Batch;
use crate::entry_point_rule;
use crate::entry_points::SolidEntryPoints;
use crate::history::HistoryIndexes;
use ledger_core::model::Id32;
use ledger_core::{Code, Error, Result};
use std::sync::Arc;
use std::time::Instant;

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

    /// The solid entry points of `target` by Hornet's rule (`entry_point_rule.rs`): blocks
    /// confirmed by milestones `target − look_back ..= target` with a direct child
    /// referenced after `target`, each with its confirming index, ascending by id. Pruning
    /// looks back 15 milestones (as Hornet), a snapshot `belowMaxDepth` + 5. The target must
    /// be confirmed, and the milestones looked at must not be pruned.
    pub fn solid_entry_points_for(&self, target: u32, look_back: u32) -> Result<Vec<(Id32, u32)>> {
        let (confirmed, pruning) = {
            let state = lock(&self.state);
            (state.latest.map_or(0, |l| l.index), state.history.pruning_index)
        };
        if target > confirmed {
            return Err(Error::new(
                Code::TargetNotConfirmed,
                "index",
                format!("the entry points of milestone {target} need it confirmed; the confirmed milestone is {confirmed}"),
            ));
        }
        let first_index = self.origin.first_milestone_index();
        let first = target.saturating_sub(look_back).max(first_index);
        if first <= pruning {
            return Err(Error::new(
                Code::HistoryMissing,
                "index",
                format!("the entry points of milestone {target} need milestones {first} to {target}; the history is pruned up to {pruning}"),
            ));
        }
        entry_point_rule::entry_points_for(&self.db, target, look_back, first_index)
    }

    /// Record a snapshot written at `index` (Hornet's `SetSnapshotIndex`): persisted before
    /// it returns. The index must be a confirmed milestone not below the pruning index.
    pub fn set_snapshot_index(&self, index: u32, timestamp: u32) -> Result<()> {
        let mut state = lock(&self.state);
        let confirmed = state.latest.map_or(0, |l| l.index);
        let pruning = state.history.pruning_index;
        if index < pruning || index > confirmed {
            return Err(Error::new(
                Code::SnapshotIndexOutOfRange,
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

    /// The solid entry points as they are now (a pruning run replaces the set).
    pub(crate) fn entry_points(&self) -> Arc<SolidEntryPoints> {
        self.entry_points.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Write one step of a pruning run under the state lock (`prune/steps.rs`): the batch,
    /// the history indexes as `change` leaves them (persisted when it changes them; the
    /// pruning index only ever rises), the block count less `deleted`; then memory: the
    /// indexes, the count, the entry points when given, and the published status. Returns
    /// the microseconds the lock was held.
    pub(crate) fn commit_history_step(
        &self,
        mut batch: Batch<'_>,
        deleted: u64,
        change: impl FnOnce(&mut HistoryIndexes),
        entry_points: Option<SolidEntryPoints>,
    ) -> Result<u64> {
        let mut state = lock(&self.state);
        let locked = Instant::now();
        let mut history = state.history;
        change(&mut history);
        history.pruning_index = history.pruning_index.max(state.history.pruning_index);
        if history != state.history {
            history.put(&mut batch);
        }
        let count = state.block_count.saturating_sub(deleted);
        if deleted > 0 {
            batch.put(STATE, state_key::BLOCK_COUNT, &count.to_le_bytes());
        }
        batch.commit()?;
        state.history = history;
        state.block_count = count;
        if let Some(points) = entry_points {
            *self.entry_points.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(points);
        }
        self.publish_status(&state);
        Ok(locked.elapsed().as_micros() as u64)
    }
}
