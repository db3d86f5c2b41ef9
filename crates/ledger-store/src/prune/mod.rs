//! Pruning (docs/configuration.md#pruning): history below a target milestone index leaves the
//! database, as Hornet 2.0.1 prunes it (`pkg/pruning/pruning.go`), in bounded steps that
//! hold the store's lock for a few milliseconds each and leave a consistent database after a
//! crash at any moment.
//!
//! A run to target T (Hornet's `pruneDatabase`):
//! 1. checks, in Hornet's order: T is capped at the newest index pruning may reach
//!    (`target::max_target`), the pruning index must be below T, and the entry point index
//!    at most T − 6 (`ADDITIONAL_PRUNING_THRESHOLD` + 1);
//! 2. computes the solid entry points of T (look-back 15, `entry_point_rule.rs`) and adds
//!    them to the stored set in one batch that also moves the entry point index to T
//!    (`steps::install_entry_points`): from then on a block approving one of them is known
//!    whether or not its bytes are still stored;
//! 3. deletes milestone by milestone, from the pruning index itself (what a stopped run
//!    left of it) up to T, each milestone in steps of at most `MAX_STEP_DELETES` deletions
//!    (`steps::prune_milestone`): its blocks (bytes, metadata, the child links under their
//!    parents, their transaction-index entries), the outputs it spent with their spent
//!    records, its diff, its milestone. The first step of milestone m moves the pruning
//!    index to m in its own batch, so that everything above the pruning index is always
//!    readable;
//! 4. drops the entry points older than T − 15 (`steps::replace_entry_points`): what
//!    remains is exactly T's set (see there);
//! 5. compacts what was deleted (`compact.rs`), so that the files on disk shrink.
//!
//! A run stopped anywhere (an abort, a crash) leaves `entry point index > pruning index`, or
//! within its last milestone that milestone's record or the older entry points
//! (`pruning_left_over`); the next run, or the worker when the node starts
//! (`finish_unfinished_pruning`), finishes it without recomputing the entry points.

mod compact;
mod config;
mod size;
mod steps;
mod target;
mod worker;

pub use config::{PruningConfig, SizeRule};
pub use size::directory_size;
pub use target::PruneTarget;
pub(crate) use worker::Pruning;
pub use worker::PruningStatus;

use crate::columns::{self, MILESTONES};
use crate::store::{HistoryTask, Store};
use ledger_core::{Code, Error, Result};
use std::time::Instant;

/// Hornet's `AdditionalPruningThreshold`: a run needs `entry point index + 5 + 1 ≤ target`.
pub const ADDITIONAL_PRUNING_THRESHOLD: u32 = 5;

/// The look-back of the entry point rule when pruning: 15, hard-coded in Hornet 2.0.1
/// (`pruning.go`, with a TODO to take the snapshot manager's threshold instead).
pub const ENTRY_POINT_LOOK_BACK: u32 = 15;

/// Deletions per batch: a step's write (and the store lock it holds) stays in the low
/// milliseconds however many blocks a milestone took with it.
pub const MAX_STEP_DELETES: usize = 4096;

/// What a pruning run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PruneReport {
    /// The pruning index before and after the run.
    pub from: u32,
    pub to: u32,
    pub blocks: u64,
    /// Spent outputs deleted with their spent records.
    pub outputs: u64,
    /// Batches written (each under the store lock).
    pub steps: u64,
    /// The longest the store lock was held for one step, in microseconds.
    pub longest_step_micros: u64,
    /// The whole run (entry points, deletions, compaction), in microseconds.
    pub micros: u64,
    pub compaction_micros: u64,
    /// Unix seconds when the run ended.
    pub finished_at: u64,
}

impl PruneReport {
    pub fn milestones(&self) -> u32 {
        self.to - self.from
    }
}

pub(crate) fn aborted() -> Error {
    Error::new(Code::PruningAborted, "", "pruning was aborted")
}

impl Store {
    /// Prune the history to `target` (`PruneTarget`: an index, a depth below the confirmed
    /// milestone, or a database size), as Hornet's `PruneDatabaseBy*`: the run happens on the
    /// calling thread and returns the new pruning index (the target after the cap).
    /// `abort` is asked between steps; when it says stop, the run ends with
    /// `pruning-aborted`, leaving a consistent database that the next run finishes.
    /// While another pruning run or a snapshot is in progress: `history-task-running`.
    pub fn prune(&self, target: PruneTarget, abort: &dyn Fn() -> bool) -> Result<PruneReport> {
        let Some(_work) = self.begin_history_task(HistoryTask::Pruning) else {
            return Err(busy());
        };
        let index = self.target_index(target)?;
        self.prune_to(index, abort)
    }

    /// A run to a target index, with the history task already held (Hornet's
    /// `pruneDatabase`).
    pub(crate) fn prune_to(&self, requested: u32, abort: &dyn Fn() -> bool) -> Result<PruneReport> {
        let started = Instant::now();
        if abort() {
            return Err(aborted());
        }
        let mut report = PruneReport::default();
        if self.pruning_left_over()? {
            // A run a crash or an abort stopped: finished first, with its own entry points.
            report.from = self.history_indexes().pruning_index;
            self.delete_up_to(self.history_indexes().entry_point_index, abort, &mut report)?;
        }
        let target = requested.min(self.max_pruning_target());
        let history = self.history_indexes();
        if history.pruning_index >= target {
            return Err(no_pruning_needed(history.pruning_index, target));
        }
        let minimum = history.entry_point_index + ADDITIONAL_PRUNING_THRESHOLD + 1;
        if minimum > target {
            return Err(not_enough_history(format!(
                "minimum index: {minimum}, target index: {target}"
            )));
        }
        // Hornet reads milestones T − 15 ..= T for the entry points and fails on the first
        // one that is gone (pruned, or before the first milestone).
        let first = target.saturating_sub(ENTRY_POINT_LOOK_BACK);
        if first <= history.pruning_index || first < self.origin().first_milestone_index() {
            return Err(Error::new(
                Code::HistoryMissing,
                "",
                format!("milestone ({first}) not found: critical error"),
            ));
        }
        let entry_points = self.solid_entry_points_for(target, ENTRY_POINT_LOOK_BACK)?;
        if report.steps == 0 {
            report.from = history.pruning_index;
        }
        let micros = self.install_entry_points(&entry_points, target)?;
        report.steps += 1;
        report.longest_step_micros = report.longest_step_micros.max(micros);
        self.delete_up_to(target, abort, &mut report)?;
        self.finish_report(report, started)
    }

    /// Finish a run that a crash or an abort stopped (`entry point index > pruning index`):
    /// its entry points are stored already, so only the deletions and the last step remain.
    /// Nothing to do otherwise. Holds the history task for its duration.
    pub fn finish_unfinished_pruning(
        &self,
        abort: &dyn Fn() -> bool,
    ) -> Result<Option<PruneReport>> {
        let Some(_work) = self.begin_history_task(HistoryTask::Pruning) else {
            return Err(busy());
        };
        if !self.pruning_left_over()? {
            return Ok(None);
        }
        let history = self.history_indexes();
        let started = Instant::now();
        let mut report = PruneReport { from: history.pruning_index, ..PruneReport::default() };
        self.delete_up_to(history.entry_point_index, abort, &mut report)?;
        self.finish_report(report, started).map(Some)
    }

    /// Whether a run stopped before its end: before its last milestone (the entry point
    /// index is above the pruning index), or within it (its milestone record, or entry
    /// points older than the run's set, are still there).
    fn pruning_left_over(&self) -> Result<bool> {
        let history = self.history_indexes();
        if history.pruning_unfinished() {
            return Ok(true);
        }
        let pruning = history.pruning_index;
        if pruning == self.origin().target_milestone_index {
            return Ok(false); // never pruned
        }
        let oldest = pruning.saturating_sub(ENTRY_POINT_LOOK_BACK);
        Ok(self.entry_points().iter().any(|(_, index)| index < oldest)
            || self.db().exists(MILESTONES, &columns::index_key(pruning))?)
    }

    /// Steps 3 and 4 of a run: every milestone from the pruning index to `target`, then the
    /// entry points older than `target` − 15.
    fn delete_up_to(
        &self,
        target: u32,
        abort: &dyn Fn() -> bool,
        report: &mut PruneReport,
    ) -> Result<()> {
        let from = self.history_indexes().pruning_index;
        for m in from..=target {
            self.prune_milestone(m, abort, report)?;
        }
        let micros = self.replace_entry_points(target)?;
        report.steps += 1;
        report.longest_step_micros = report.longest_step_micros.max(micros);
        report.to = target;
        Ok(())
    }

    fn finish_report(&self, mut report: PruneReport, started: Instant) -> Result<PruneReport> {
        report.compaction_micros = self.compact_pruned(report.to, report.blocks, report.outputs);
        report.micros = started.elapsed().as_micros() as u64;
        report.finished_at = crate::store::unix_seconds();
        self.record_prune_run(report);
        Ok(report)
    }
}

pub(crate) fn busy() -> Error {
    Error::new(
        Code::HistoryTaskRunning,
        "",
        "node is already creating a snapshot or pruning is running",
    )
}

pub(crate) fn no_pruning_needed(pruning_index: u32, target: u32) -> Error {
    Error::new(
        Code::NoPruningNeeded,
        "",
        format!("pruning index: {pruning_index}, target index: {target}: no pruning needed"),
    )
}

pub(crate) fn not_enough_history(detail: impl Into<String>) -> Error {
    let detail: String = detail.into();
    Error::new(
        Code::NotEnoughHistory,
        "",
        if detail.is_empty() {
            "not enough history".to_string()
        } else {
            format!("{detail}: not enough history")
        },
    )
}
