//! Which index a pruning run aims at (Hornet's `PruneDatabaseByDepth`,
//! `PruneDatabaseByTargetIndex`, `PruneDatabaseBySize` and `calcTargetIndexBySize`), and
//! how far pruning may reach at most (`getMinimumTangleHistory`, the snapshot manager's
//! `MinimumMilestoneIndex`).

use super::{no_pruning_needed, not_enough_history};
use crate::store::Store;
use ledger_core::{Code, Error, Result};

/// Hornet's `SolidEntryPointCheckAdditionalThresholdPast`: the history kept below the
/// confirmed milestone is at least `belowMaxDepth` + 5 milestones.
pub const ADDITIONAL_THRESHOLD_PAST: u32 = 5;

/// What a pruning run is asked to reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PruneTarget {
    /// Everything up to this milestone index.
    Index(u32),
    /// Everything but the last `depth` confirmed milestones.
    Depth(u32),
    /// As many of the oldest milestones as bring the data directory to `bytes` less
    /// `threshold_percentage` % (Hornet takes the configured `pruning.size` percentage,
    /// whether or not pruning by size is enabled).
    Size { bytes: u64, threshold_percentage: f64 },
}

impl Store {
    /// The index a target names (before the cap of `max_pruning_target`).
    pub(crate) fn target_index(&self, target: PruneTarget) -> Result<u32> {
        match target {
            PruneTarget::Index(index) => Ok(index),
            PruneTarget::Depth(depth) => {
                let confirmed = self.confirmed_index();
                if confirmed <= depth {
                    return Err(not_enough_history(""));
                }
                Ok(confirmed - depth)
            }
            PruneTarget::Size { bytes, threshold_percentage } => {
                self.target_index_by_size(bytes, threshold_percentage)
            }
        }
    }

    /// The newest index pruning may reach (Hornet's minimum tangle history): the confirmed
    /// milestone less `belowMaxDepth` + 5; with snapshots on, the snapshot index less the
    /// snapshot depth and `belowMaxDepth` + 5, so that the next delta snapshot still finds
    /// its diffs. A higher target is lowered to it without a word, as in Hornet.
    pub(crate) fn max_pruning_target(&self) -> u32 {
        let past = self.protocol().below_max_depth as u32 + ADDITIONAL_THRESHOLD_PAST;
        match self.pruning.config().snapshot_depth {
            None => self.confirmed_index().saturating_sub(past),
            Some(depth) => self.history_indexes().snapshot_index.saturating_sub(depth + past),
        }
    }

    /// Hornet's `calcTargetIndexBySize`: when the data directory is at least `bytes`, the
    /// index that keeps the share of the pruned range's milestones which the size less
    /// `threshold_percentage` % is of the current size (history size taken as linear in
    /// milestones).
    pub(crate) fn target_index_by_size(
        &self,
        bytes: u64,
        threshold_percentage: f64,
    ) -> Result<u32> {
        if bytes == 0 {
            return Err(no_pruning_needed_by_size());
        }
        let current = super::directory_size(self.path()).map_err(|e| {
            Error::new(Code::StorageFailure, "", format!("cannot measure the database size: {e}"))
        })?;
        if current < bytes {
            return Err(no_pruning_needed_by_size());
        }
        let confirmed = self.confirmed_index();
        let range = confirmed.saturating_sub(self.history_indexes().pruning_index);
        let pruned_size = bytes as f64 * ((100.0 - threshold_percentage) / 100.0);
        let keep = (range as f64 * (pruned_size / current as f64)).ceil() as u32;
        Ok(confirmed.saturating_sub(keep))
    }

    fn confirmed_index(&self) -> u32 {
        self.status().latest_milestone.map_or(0, |(index, _, _)| index)
    }
}

/// Hornet's `ErrNoPruningNeeded` as `calcTargetIndexBySize` returns it, unwrapped.
fn no_pruning_needed_by_size() -> Error {
    let mut e = no_pruning_needed(0, 0);
    e.detail = "no pruning needed".into();
    e
}
