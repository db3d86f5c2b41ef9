//! Start-up: memory rebuilt from disk.

use super::{parents_of, referenced_index, Latest, State};
use crate::columns::{state_key, BLOCKS, BLOCK_META, MILESTONES, STATE, UNREFERENCED};
use crate::db::Db;
use crate::graph::{ConeRoots, Graph};
use crate::records::{u32_at, u64_at, BlockMeta, MilestoneRecord};
use crate::storage_error;
use ledger_core::Result;

/// Rebuild memory from disk: counters, the latest milestone, and the pending graph in
/// arrival order (parents before children) with fresh cone roots.
pub(super) fn load_state(db: &Db) -> Result<State> {
    let read_u64 = |key: &[u8]| -> Result<u64> { Ok(db.get(STATE, key)?.filter(|b| b.len() == 8).map_or(0, |b| u64_at(&b, 0))) };
    let ledger_index = db.get(STATE, state_key::LEDGER_INDEX)?.filter(|b| b.len() == 4).map_or(0, |b| u32_at(&b, 0));
    let latest = match db.last(MILESTONES)? {
        None => None,
        Some((_, value)) => {
            let r = MilestoneRecord::from_bytes(&value)?;
            Some(Latest { index: r.index, milestone_id: r.milestone_id, block_id: r.block_id, timestamp: r.timestamp })
        }
    };
    if latest.map_or(0, |l| l.index) != ledger_index {
        return Err(storage_error(format!("ledger index {ledger_index} disagrees with the latest stored milestone")));
    }
    let mut graph = Graph::default();
    let mut pending = Vec::new();
    db.scan(UNREFERENCED, &[], |key, _| {
        pending.push(<[u8; 32]>::try_from(&key[8..40]).map_err(storage_error)?);
        Ok(true)
    })?;
    for id in pending {
        let bytes = db.get(BLOCKS, &id)?.ok_or_else(|| storage_error(format!("pending block 0x{} is not stored", hex::encode(id))))?;
        let meta = BlockMeta::from_bytes(&db.get(BLOCK_META, &id)?.unwrap_or_default())?;
        graph.insert(id, parents_of(&bytes)?, meta.seq, meta.arrival_ms, meta.milestone_index, ConeRoots::at(0));
    }
    graph.compute_all_roots(|p| referenced_index(db, p))?;
    let new_blocks = graph.len() as u64;
    Ok(State {
        graph,
        next_seq: read_u64(state_key::NEXT_SEQ)?,
        block_count: read_u64(state_key::BLOCK_COUNT)?,
        latest,
        new_blocks_since_last_milestone: new_blocks,
        referenced_by_last_milestone: 0,
    })
}
