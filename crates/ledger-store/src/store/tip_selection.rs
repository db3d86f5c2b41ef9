//! Tip selection (ledger.md §5, D21) for new blocks and the coordinator's parents (§6 step 1).

use super::{lock, not_ready, Latest, State, Store};
use crate::tips::{self, TipScore};
use crate::{storage_error, SOLID_ENTRY_POINTS};
use ledger_core::model::Id32;
use ledger_core::validate::{MAX_PARENTS, MIN_PARENTS};
use ledger_core::Result;

impl Store {
    /// 2..8 parents for a new block (ledger.md §5): the newest healthy tips, filled from
    /// the milestones and entry points, sorted.
    pub fn select_tips(&self) -> Result<Vec<Id32>> {
        let state = lock(&self.state);
        let Some(latest) = state.latest else { return Err(not_ready()) };
        let mut chosen: Vec<Id32> = Vec::with_capacity(MAX_PARENTS);
        for (id, p) in state.graph.newest_childless() {
            if chosen.len() == MAX_PARENTS {
                break;
            }
            if tips::score(p.roots, latest.index, &self.thresholds) == TipScore::Healthy {
                chosen.push(*id);
            }
        }
        drop(state);
        self.fill_and_sort(chosen, latest.index)
    }

    /// The coordinator's parents (ledger.md §6 step 1): the previous milestone's block and
    /// up to 7 of the oldest healthy tips, so that nothing is left behind to go lazy.
    pub(super) fn coordinator_parents(&self, state: &State, latest: &Latest) -> Result<Vec<Id32>> {
        let mut chosen = vec![latest.block_id];
        for (id, p) in state.graph.oldest_childless() {
            if chosen.len() == MAX_PARENTS {
                break;
            }
            if *id != latest.block_id && tips::score(p.roots, latest.index, &self.thresholds) == TipScore::Healthy {
                chosen.push(*id);
            }
        }
        self.fill_and_sort(chosen, latest.index)
    }

    /// §5 steps 2 and 3 (D21, revised): while fewer than two, add milestone blocks, the
    /// latest first, then the entry point `0x00…00` (only reached before milestone 2).
    /// Never the other parents of a milestone block: on an idle node those are old blocks,
    /// and a block approving one would be below max depth the moment it is attached.
    fn fill_and_sort(&self, mut chosen: Vec<Id32>, latest_index: u32) -> Result<Vec<Id32>> {
        let mut index = latest_index;
        while chosen.len() < MIN_PARENTS && index > 0 {
            let record = self.milestone_by_index(index)?.ok_or_else(|| storage_error(format!("milestone {index} is missing")))?;
            if !chosen.contains(&record.block_id) {
                chosen.push(record.block_id);
            }
            index -= 1;
        }
        if chosen.len() < MIN_PARENTS && !chosen.contains(&SOLID_ENTRY_POINTS[0]) {
            chosen.push(SOLID_ENTRY_POINTS[0]);
        }
        chosen.sort();
        Ok(chosen)
    }
}
