//! Snapshots of the running store (snapshot.md §8): full or delta, at a target within
//! reach, as the store's one history task (`history.rs`: never beside a pruning run). The
//! write reads one RocksDB snapshot and takes none of the store's locks, so milestones go on
//! committing while it runs (Hornet blocks confirmation for a full snapshot; PR #1764 lifted
//! that for deltas only).
//!
//! A snapshot written to the node's snapshot paths (`record`: periodic snapshots, Hornet's
//! `writeToDatabase`) moves the snapshot index, and a new full snapshot removes the delta
//! that continued the old one. The last write's figures are kept for `/metrics`.

use super::history::HistoryTask;
use super::{lock, Store};
use crate::snapshot::delta::write_delta;
use crate::snapshot::full::write_full;
use crate::snapshot::{ExportContext, SnapshotKind, WrittenSnapshot};
use ledger_core::{Code, Error, Result};
use std::path::PathBuf;
use std::time::Duration;

/// What to write.
#[derive(Clone, Debug)]
pub struct SnapshotRequest {
    pub kind: SnapshotKind,
    pub target: u32,
    /// The full snapshot to write, or the one a delta continues.
    pub full_path: PathBuf,
    /// The delta snapshot to write or extend (a delta), or to remove after a recorded full.
    pub delta_path: Option<PathBuf>,
    /// Written to the node's snapshot paths: the snapshot index moves to the target.
    pub record: bool,
    /// Test hook: a pause after every record.
    pub pace: Option<Duration>,
}

impl Store {
    /// The last snapshot this store wrote since it was opened.
    pub fn last_snapshot(&self) -> Option<WrittenSnapshot> {
        lock(&self.last_snapshot).clone()
    }

    /// Write a snapshot (refused with `history-task-running` while a snapshot or a pruning
    /// run is in progress, with Hornet's words).
    pub fn create_snapshot(&self, request: &SnapshotRequest) -> Result<WrittenSnapshot> {
        let Some(_work) = self.begin_history_task(HistoryTask::Snapshot) else {
            return Err(crate::prune::busy());
        };
        let history = self.history_indexes();
        let context = ExportContext {
            genesis_milestone_index: self.origin.genesis_milestone_index,
            pruning_index: history.pruning_index,
            snapshot_index: history.snapshot_index,
            below_max_depth: self.protocol.below_max_depth as u32,
            increasing: request.record,
            pace: request.pace,
        };
        let entry_points = |target, look_back| self.solid_entry_points_for(target, look_back);
        let written = match request.kind {
            SnapshotKind::Full => {
                write_full(&self.db, &context, request.target, &request.full_path, &entry_points)?
            }
            SnapshotKind::Delta => {
                let delta = request.delta_path.as_ref().ok_or_else(|| {
                    Error::new(
                        Code::SnapshotPathMissing,
                        "deltaPath",
                        "a delta snapshot needs a path",
                    )
                })?;
                write_delta(
                    &self.db,
                    &context,
                    request.target,
                    &request.full_path,
                    delta,
                    &entry_points,
                )?
            }
        };
        if request.record {
            if request.kind == SnapshotKind::Full {
                // The old delta continued the old full snapshot: it fits no more.
                if let Some(delta) = &request.delta_path {
                    match std::fs::remove_file(delta) {
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) => {
                            return Err(Error::new(
                                Code::SnapshotWriteFailed,
                                "deltaPath",
                                format!("deleting delta snapshot file failed: {e}"),
                            ))
                        }
                    }
                }
            }
            self.set_snapshot_index(request.target, written.target_milestone_timestamp)?;
        }
        *lock(&self.last_snapshot) = Some(written.clone());
        Ok(written)
    }
}
