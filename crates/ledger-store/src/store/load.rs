//! Start-up: memory rebuilt from disk.

use super::tip_selection::TipRng;
use super::{now_ms, parents_of, referenced_index, Latest, State};
use crate::columns::{self, state_key, BLOCKS, BLOCK_META, MILESTONES, STATE, UNREFERENCED};
use crate::db::Db;
use crate::entry_points::SolidEntryPoints;
use crate::graph::{ConeRoots, Graph};
use crate::history::HistoryIndexes;
use crate::origin::Origin;
use crate::records::{array_at, u32_at, u64_at, BlockMeta, MilestoneRecord};
use crate::storage_error;
use crate::tips::{self, TipScore, TipThresholds};
use ledger_core::Result;

/// Rebuild memory from disk: counters, the latest applied milestone, the history indexes
/// (recorded from the origin in a data directory of an older build), and the pending graph
/// in arrival order (parents before children) with fresh cone roots. Blocks found below
/// max depth earlier are not in the `unreferenced` family any more, so they stay on disk.
pub(super) fn load_state(
    db: &Db,
    thresholds: &TipThresholds,
    origin: &Origin,
    entry_points: &SolidEntryPoints,
) -> Result<State> {
    let ledger_index = match db.get(STATE, state_key::LEDGER_INDEX)? {
        Some(value) => u32_at(&exact(value, 4, "ledger index")?, 0),
        None => 0,
    };
    let target = origin.target_milestone_index;
    // Milestones above the ledger index may be stored already (a snapshot's diffs): the
    // latest applied one is the one at the ledger index, or the snapshot's target.
    let latest = if ledger_index > target {
        let value = db.get(MILESTONES, &columns::index_key(ledger_index))?.ok_or_else(|| {
            storage_error(format!("the milestone at the ledger index {ledger_index} is not stored"))
        })?;
        let r = MilestoneRecord::from_bytes(&value)?;
        Some(Latest {
            index: r.index,
            milestone_id: r.milestone_id,
            block_id: r.block_id,
            timestamp: r.timestamp,
        })
    } else if ledger_index < target {
        return Err(storage_error(format!(
            "ledger index {ledger_index} is below the snapshot's target {target}"
        )));
    } else if target > 0 {
        Some(Latest {
            index: target,
            milestone_id: origin.target_milestone_id,
            block_id: [0; 32],
            timestamp: origin.target_milestone_timestamp,
        })
    } else {
        None // a genesis without milestone 1 yet
    };
    let history = HistoryIndexes::load(db, origin)?;
    if history.entry_point_index > ledger_index {
        return Err(storage_error(format!(
            "the entry point index {} is above the ledger index {ledger_index}",
            history.entry_point_index
        )));
    }
    let mut graph = Graph::default();
    let mut pending = Vec::new();
    db.scan(UNREFERENCED, &[], |key, _| {
        if key.len() != 40 {
            return Err(storage_error(format!("unreferenced key of {} bytes", key.len())));
        }
        pending.push(array_at::<32>(key, 8));
        Ok(true)
    })?;
    for id in pending {
        let bytes = db.get(BLOCKS, &id)?.ok_or_else(|| {
            storage_error(format!("pending block 0x{} is not stored", hex::encode(id)))
        })?;
        let meta = db.get(BLOCK_META, &id)?.ok_or_else(|| {
            storage_error(format!("pending block 0x{} has no metadata", hex::encode(id)))
        })?;
        let meta = BlockMeta::from_bytes(&meta)?;
        graph.insert(
            id,
            parents_of(&bytes)?,
            meta.seq,
            meta.arrival_ms,
            meta.milestone_index,
            ConeRoots::at(0),
            false,
        );
    }
    let cmi = ledger_index;
    graph.compute_all_roots(
        |p| referenced_index(db, entry_points, p),
        |roots| tips::score(roots, cmi, thresholds) == TipScore::Healthy,
    )?;
    let read_u64 = |key: &[u8], what: &str| -> Result<u64> {
        match db.get(STATE, key)? {
            Some(value) => Ok(u64_at(&exact(value, 8, what)?, 0)),
            None => Ok(0),
        }
    };
    Ok(State {
        graph,
        next_seq: read_u64(state_key::NEXT_SEQ, "next arrival number")?,
        block_count: read_u64(state_key::BLOCK_COUNT, "block count")?,
        latest,
        referenced_total: 0,
        blocks_below_max_depth: 0,
        interval_start: None,
        last_interval: None,
        tip_rng: TipRng::seeded(now_ms()),
        checkpoint: None,
        history,
    })
}

/// A `state` value must have exactly its size: anything else is corruption, never 0.
fn exact(value: Vec<u8>, len: usize, what: &str) -> Result<Vec<u8>> {
    if value.len() != len {
        return Err(storage_error(format!(
            "the stored {what} is a value of {} bytes, not {len}",
            value.len()
        )));
    }
    Ok(value)
}
