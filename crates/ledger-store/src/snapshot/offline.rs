//! `ledger-node snapshot create` (snapshot.md §8): a full or delta snapshot of a data
//! directory's ledger at a target within reach, without a running node. The ledger is opened
//! read-only (no lock: a node may run on it, and the export sees it as it was when opened),
//! which is also a consistent view at a milestone boundary.

use super::delta::write_delta;
use super::full::write_full;
use super::{ExportContext, SnapshotKind, WrittenSnapshot};
use crate::columns::{state_key, STATE};
use crate::db::Db;
use crate::entry_point_rule;
use crate::genesis::protocol_from_json;
use crate::history::HistoryIndexes;
use crate::origin::Origin;
use crate::storage_error;
use ledger_core::{Code, Error, Result};
use std::path::Path;
use std::time::Duration;

/// Write a snapshot of the ledger in `ledger_dir`: a full one to `full_path`, or a delta to
/// `delta_path` continuing the full snapshot at `full_path`.
pub fn create_from_directory(
    ledger_dir: &Path,
    kind: SnapshotKind,
    target: u32,
    full_path: &Path,
    delta_path: Option<&Path>,
    pace: Option<Duration>,
) -> Result<WrittenSnapshot> {
    let db = Db::open_ledger_read_only(ledger_dir)?;
    let origin = match db.get(STATE, state_key::ORIGIN)? {
        Some(b) => Origin::from_bytes(&b)?,
        None => Origin::built_in(crate::origin::GenesisStyle::Ledger),
    };
    let protocol_text = db
        .get(STATE, state_key::PROTOCOL)?
        .ok_or_else(|| storage_error("the ledger has no protocol parameters"))?;
    let protocol = protocol_from_json(&String::from_utf8_lossy(&protocol_text))?;
    // Read-only: an older directory without the record has the origin's indexes.
    let history = match db.get(STATE, state_key::HISTORY_INDEXES)? {
        Some(b) => HistoryIndexes::from_bytes(&b)?,
        None => HistoryIndexes::initial(&origin),
    };
    let context = ExportContext {
        genesis_milestone_index: origin.genesis_milestone_index,
        pruning_index: history.pruning_index,
        snapshot_index: history.snapshot_index,
        below_max_depth: protocol.below_max_depth as u32,
        increasing: false,
        pace,
    };
    let first_index = origin.first_milestone_index();
    let entry_points = |target: u32, look_back: u32| {
        let first = target.saturating_sub(look_back).max(first_index);
        if first <= history.pruning_index {
            return Err(Error::new(
                Code::HistoryMissing,
                "index",
                format!("the entry points of milestone {target} need milestones {first} to {target}; the history is pruned up to {}", history.pruning_index),
            ));
        }
        entry_point_rule::entry_points_for(&db, target, look_back, first_index)
    };
    match kind {
        SnapshotKind::Full => write_full(&db, &context, target, full_path, &entry_points),
        SnapshotKind::Delta => {
            let delta = delta_path.ok_or_else(|| {
                Error::new(Code::SnapshotPathMissing, "deltaPath", "a delta snapshot needs a path")
            })?;
            let context = ExportContext { increasing: true, ..context };
            write_delta(&db, &context, target, full_path, delta, &entry_points)
        }
    }
}
