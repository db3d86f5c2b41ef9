//! The pruning configuration (Hornet's `pruning.*`, docs/configuration.md), as the node
//! gives it to the worker: already parsed and checked.

use std::time::Duration;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PruningConfig {
    /// `pruning.milestones`: when enabled, keep this many milestones below the confirmed
    /// one (`maxMilestonesToKeep`, more than 0).
    pub max_milestones_to_keep: Option<u32>,
    /// `pruning.size`: when enabled, its rule.
    pub size: Option<SizeRule>,
    /// `pruning.pruneReceipts`: this node stores no receipts (no migration), so it changes
    /// nothing; kept for Hornet's configuration.
    pub prune_receipts: bool,
    /// The snapshot depth while snapshots are enabled: pruning then stays below the
    /// snapshot index less it (and `belowMaxDepth` + 5). None: snapshots off.
    pub snapshot_depth: Option<u32>,
}

/// `pruning.size`: prune when the data directory reaches `target_bytes`, down to
/// `threshold_percentage` % below it, at most once per `cooldown`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizeRule {
    pub target_bytes: u64,
    pub threshold_percentage: f64,
    pub cooldown: Duration,
}

impl PruningConfig {
    pub fn enabled(&self) -> bool {
        self.max_milestones_to_keep.is_some() || self.size.is_some()
    }
}
