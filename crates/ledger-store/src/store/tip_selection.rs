//! Tip selection (ledger.md §5, D21) for new blocks and the coordinator's parents (§6 step 1).
//! The candidates are the graph's tips: blocks that were healthy when attached and that no
//! such block approves yet (`graph.rs`); each is checked again against the current index.

use super::{lock, not_ready, Latest, State, Store};
use crate::graph::Pending;
use crate::storage_error;
use crate::tips::{self, TipScore};
use ledger_core::model::Id32;
use ledger_core::validate::{MAX_PARENTS, MIN_PARENTS};
use ledger_core::Result;

impl Store {
    /// 2..8 parents for a new block (ledger.md §5): up to 8 healthy tips, filled from the
    /// milestones and entry points, sorted. With more than 8 healthy tips, 8 of them at
    /// random (as Hornet's tip selector does): clients that ask at the same moment then
    /// approve different tips, where "the newest 8" would give all of them the same ones
    /// and leave the rest to go lazy. The draw is from the tip pool (`tip_pool.rs`), so it
    /// costs the same however many tips are waiting.
    pub fn select_tips(&self) -> Result<Vec<Id32>> {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        let Some(latest) = state.latest else { return Err(not_ready()) };
        let rng = &mut state.tip_rng;
        let healthy = state
            .graph
            .tip_pool(latest.index, |p| self.is_healthy(p, latest.index))
            .sample(MAX_PARENTS, || rng.next());
        drop(guard);
        self.fill_and_sort(healthy, latest.index)
    }

    /// Tips for a client that accepts semi-lazy ones (INX `RequestTips` with
    /// `allow_semiLazy`, as Hornet's selector): up to 8 of the tip candidates that are
    /// semi-lazy at the confirmed index, sorted, when more than two are; otherwise
    /// `select_tips`.
    pub fn select_tips_semi_lazy(&self) -> Result<Vec<Id32>> {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        let Some(latest) = state.latest else { return Err(not_ready()) };
        let mut semi_lazy: Vec<Id32> = state
            .graph
            .oldest_tips()
            .filter(|(_, p)| {
                tips::score(p.roots, latest.index, &self.thresholds) == TipScore::SemiLazy
            })
            .map(|(id, _)| *id)
            .collect();
        if semi_lazy.len() <= 2 {
            drop(guard);
            return self.select_tips();
        }
        // A partial Fisher–Yates shuffle picks 8 at random, as `select_tips` does.
        let n = semi_lazy.len();
        for i in 0..MAX_PARENTS.min(n) {
            let j = i + (state.tip_rng.next() % (n - i) as u64) as usize;
            semi_lazy.swap(i, j);
        }
        semi_lazy.truncate(MAX_PARENTS);
        semi_lazy.sort();
        Ok(semi_lazy)
    }

    /// How many tip candidates are healthy (non-lazy) and semi-lazy at the confirmed index
    /// (Hornet's two tip pools, INX `ListenToTipsMetrics`). O(tips).
    pub fn tip_counts(&self) -> (usize, usize) {
        let state = lock(&self.state);
        let Some(latest) = state.latest else { return (0, 0) };
        let (mut healthy, mut semi_lazy) = (0, 0);
        for (_, p) in state.graph.oldest_tips() {
            match tips::score(p.roots, latest.index, &self.thresholds) {
                TipScore::Healthy => healthy += 1,
                TipScore::SemiLazy => semi_lazy += 1,
                TipScore::Lazy | TipScore::BelowMaxDepth => {}
            }
        }
        (healthy, semi_lazy)
    }

    /// The tip selection of `select_tips` as the API answers it: `{"tips":[…]}`, written
    /// here so that the caller gets one string rather than eight to serialize again.
    pub fn select_tips_json(&self) -> Result<String> {
        let tips = self.select_tips()?;
        let mut text = String::with_capacity(10 + tips.len() * 69);
        text.push_str("{\"tips\":[");
        for (k, id) in tips.iter().enumerate() {
            if k > 0 {
                text.push(',');
            }
            text.push_str("\"0x");
            text.push_str(&hex::encode(id));
            text.push('"');
        }
        text.push_str("]}");
        Ok(text)
    }

    /// The coordinator's parents (ledger.md §6 step 1): the previous milestone's block, its
    /// last checkpoint if it issued any since, the newest healthy tip, and the oldest
    /// healthy tips up to 8 parents, then the oldest semi-lazy ones. The oldest, so that
    /// nothing is left behind to go lazy; the newest, so that a block attached after a
    /// burst (when more than 7 tips are waiting) is still referenced by the next milestone:
    /// it is that tip, or in the cone of a newer block that selected it.
    pub(super) fn coordinator_parents(&self, state: &State, latest: &Latest) -> Result<Vec<Id32>> {
        let healthy = |(id, p): &(&Id32, &Pending)| {
            **id != latest.block_id && self.is_healthy(p, latest.index)
        };
        let mut chosen = vec![latest.block_id];
        // The coordinator's last checkpoint, which approves the tips beyond these 7.
        chosen.extend(
            state
                .checkpoint
                .iter()
                .filter_map(|c| state.graph.get(c).map(|p| (c, p)))
                .filter(healthy)
                .map(|(id, _)| *id),
        );
        if let Some((newest, _)) = state.graph.newest_tips().find(healthy) {
            if !chosen.contains(newest) {
                chosen.push(*newest);
            }
        }
        // Then, while places are left, tips that were healthy when attached and went
        // semi-lazy waiting: a block attached while a milestone was being issued, on a tip
        // its client selected one milestone earlier at the edge of health. No client
        // selects such a tip any more, so only the coordinator can still reference it.
        let semi_lazy = |(id, p): &(&Id32, &Pending)| {
            **id != latest.block_id
                && tips::score(p.roots, latest.index, &self.thresholds) == TipScore::SemiLazy
        };
        let graph = &state.graph;
        for (id, _) in
            graph.oldest_tips().filter(healthy).chain(graph.oldest_tips().filter(semi_lazy))
        {
            if chosen.len() == MAX_PARENTS {
                break;
            }
            if !chosen.contains(id) {
                chosen.push(*id);
            }
        }
        self.fill_and_sort(chosen, latest.index)
    }

    pub(super) fn is_healthy(&self, block: &Pending, confirmed_index: u32) -> bool {
        tips::score(block.roots, confirmed_index, &self.thresholds) == TipScore::Healthy
    }

    /// §5 steps 2 and 3 (D21, revised): while fewer than two, add milestone blocks, the
    /// latest first, then solid entry points (ascending; at genesis `0x00…00`, reached only
    /// before milestone 2). Milestones at or below the pruning index (a snapshot's target,
    /// or pruned) have no block here.
    /// Never the other parents of a milestone block: on an idle node those are old blocks,
    /// and a block approving one would be below max depth the moment it is attached.
    fn fill_and_sort(&self, mut chosen: Vec<Id32>, latest_index: u32) -> Result<Vec<Id32>> {
        let mut index = latest_index;
        let pruning_index = self.status().pruning_index;
        while chosen.len() < MIN_PARENTS && index > pruning_index {
            let record = self
                .milestone_by_index(index)?
                .ok_or_else(|| storage_error(format!("milestone {index} is missing")))?;
            if !chosen.contains(&record.block_id) {
                chosen.push(record.block_id);
            }
            index -= 1;
        }
        for entry_point in self.entry_points().sorted() {
            if chosen.len() >= MIN_PARENTS {
                break;
            }
            if !chosen.contains(entry_point) {
                chosen.push(*entry_point);
            }
        }
        chosen.sort();
        Ok(chosen)
    }
}

/// A small pseudo-random generator (xorshift64*) for sampling tips: unpredictable enough to
/// spread concurrent clients over the pool, and no dependency for it.
pub(super) struct TipRng(u64);

impl TipRng {
    pub(super) fn seeded(seed: u64) -> TipRng {
        TipRng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
