//! The solid entry points for a target index: Hornet's rule (`pkg/dag/solid_entry_points.go`,
//! `ForEachSolidEntryPoint`), used when pruning to a target (look-back 15, as Hornet
//! hard-codes it) and when writing a snapshot at one (look-back BMD + 5).
//!
//! A block is an entry point of target T when a milestone in T − look-back ..= T confirmed
//! it and at least one of its direct children was referenced by a milestone after T: those
//! are the blocks below T that the history above T still builds on. Each keeps the index of
//! the milestone that confirmed it (not T), which is the cone root index a block approving
//! it gets (ledger.md §5). Children whose metadata is gone (pruned) or that were never
//! referenced do not count.
//!
//! Hornet finds the blocks a milestone confirmed by walking its past cone through blocks
//! referenced at that index or later; here they are read from `milestone_blocks` (prefix m,
//! referenced), which holds exactly those blocks.
//!
//! With the look-back at least `belowMaxDepth`, no block referenced earlier can have a
//! child referenced after T: a child approving a block referenced at i is below max depth
//! once the confirmed index exceeds i + `belowMaxDepth`.

use crate::columns::{BLOCK_META, CHILDREN, MILESTONES};
use crate::db::Db;
use crate::milestone_blocks::{self, Settled};
use crate::records::{array_at, BlockMeta};
use ledger_core::model::Id32;
use ledger_core::{Code, Error, Result};
use std::collections::HashMap;

/// The entry points of `target`, looking back over milestones `first ..= target` where
/// `first` = max(target − `look_back`, `first_index`), ascending by block id. Every
/// milestone of that range must be stored with its blocks (the caller checks the pruning
/// index); a missing one is an error, as in Hornet ("milestone (%d) not found").
pub fn entry_points_for(
    db: &Db,
    target: u32,
    look_back: u32,
    first_index: u32,
) -> Result<Vec<(Id32, u32)>> {
    let first = target.saturating_sub(look_back).max(first_index);
    // Children's referencing index (0: not referenced or not stored), read once each.
    let mut referenced_by: HashMap<Id32, u32> = HashMap::new();
    let mut found: Vec<(Id32, u32)> = Vec::new();
    for m in first..=target {
        if !db.exists(MILESTONES, &crate::columns::index_key(m))? {
            return Err(Error::new(
                Code::HistoryMissing,
                "",
                format!("milestone {m} not found: the entry points of {target} need milestones {first} to {target}"),
            ));
        }
        let mut confirmed = Vec::new();
        milestone_blocks::for_each(db, m, |id, how| {
            if how == Settled::Referenced {
                confirmed.push(id);
            }
            Ok(true)
        })?;
        for id in confirmed {
            if has_child_referenced_after(db, &id, target, &mut referenced_by)? {
                found.push((id, m));
            }
        }
    }
    found.sort_unstable();
    Ok(found)
}

fn has_child_referenced_after(
    db: &Db,
    id: &Id32,
    target: u32,
    referenced_by: &mut HashMap<Id32, u32>,
) -> Result<bool> {
    let mut children = Vec::new();
    db.scan(CHILDREN, id, |key, _| {
        children.push(array_at::<32>(key, 32)); // parent id ‖ child id
        Ok(true)
    })?;
    for child in children {
        let index = match referenced_by.get(&child) {
            Some(index) => *index,
            None => {
                let index = match db.get(BLOCK_META, &child)? {
                    Some(meta) => BlockMeta::from_bytes(&meta)?.referenced_by,
                    None => 0,
                };
                referenced_by.insert(child, index);
                index
            }
        };
        if index > target {
            return Ok(true);
        }
    }
    Ok(false)
}
