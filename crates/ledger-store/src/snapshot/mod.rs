//! Hornet snapshots and the store (snapshot.md, D44):
//! * `load` builds a new ledger from a full snapshot and optionally a delta on top (§4, §7);
//! * `export` writes the genesis of a data directory as a full snapshot (§6);
//! * `full` and `delta` write a confirmed state at any target within reach (§8), from one
//!   RocksDB snapshot of the store (`source`), within Hornet's `limits`, with the entry points
//!   of Hornet's rule (`entry_point_rule`, look-back BMD + 5), to a `file` that only appears
//!   under its name once complete;
//!   `offline` does the same for a data directory without a running node.
//!
//! The file format itself is `ledger_core::snapshot`.

pub mod delta;
pub mod export;
mod file;
pub mod full;
pub mod limits;
pub mod load;
pub mod offline;
mod source;

pub use file::temp_path;

use ledger_core::model::Id32;
use ledger_core::Result;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotKind {
    Full,
    Delta,
}

impl SnapshotKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SnapshotKind::Full => "full",
            SnapshotKind::Delta => "delta",
        }
    }
}

/// The solid entry points of a target, looking back so many milestones (the store's
/// `solid_entry_points_for`, or the same rule over a data directory opened offline).
pub type EntryPoints<'a> = &'a dyn Fn(u32, u32) -> Result<Vec<(Id32, u32)>>;

/// What an export needs to know about the node besides its database.
#[derive(Clone, Debug, Default)]
pub struct ExportContext {
    pub genesis_milestone_index: u32,
    /// Nothing at or below it is stored any more.
    pub pruning_index: u32,
    /// The last snapshot written to the snapshot paths (periodic snapshots only move on).
    pub snapshot_index: u32,
    /// The protocol's `belowMaxDepth`: the entry points look BMD + 5 milestones back and
    /// need BMD + 5 confirmed milestones after the target.
    pub below_max_depth: u32,
    /// A full snapshot must be newer than `snapshot_index` (a periodic one).
    pub increasing: bool,
    /// Test hook: a pause after every record (see `file.rs`).
    pub pace: Option<Duration>,
}

impl ExportContext {
    pub fn threshold(&self) -> u32 {
        limits::thresholds(self.below_max_depth)
    }
}

/// A snapshot that was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenSnapshot {
    pub kind: SnapshotKind,
    pub path: PathBuf,
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    pub target_milestone_id: Id32,
    /// The ledger index of the state it was taken from (a full snapshot's outputs).
    pub ledger_milestone_index: u32,
    pub bytes: u64,
    pub outputs: u64,
    pub milestone_diffs: u32,
    pub solid_entry_points: u16,
    /// How long the write took.
    pub micros: u64,
    /// When it was complete (Unix milliseconds).
    pub finished_at_ms: u64,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
