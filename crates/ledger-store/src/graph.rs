//! The unreferenced part of the block graph, kept in memory (and mirrored in the
//! `unreferenced` column family so that it can be rebuilt after a restart).
//!
//! Every stored block is referenced by a milestone (its metadata says which), below max
//! depth (no milestone can reference it any more; its metadata says so), or here. Blocks
//! below max depth leave at the milestone that puts them there, so the graph holds at
//! most about `belowMaxDepth` milestones' worth of blocks, however long the node runs.
//! White flag walks only this part; tip selection reads its tip candidates; and the cone
//! root indexes of ledger.md §5 are kept per block, so that a tip's score is a lookup
//! rather than a walk of its past cone.
//!
//! Once below max depth, always: a block is there when its oldest cone root is too old,
//! and that root can only move if a pending block on the path to it gets referenced; but
//! such a block is itself below max depth and so is everything approving it, so no
//! healthy tip, and no milestone, ever reaches it.

use crate::events::TipChanges;
use crate::tip_pool::TipPool;
use ledger_core::model::Id32;
use ledger_core::Result;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The youngest and oldest cone root index of a block (ledger.md §5): the largest and the
/// smallest milestone index among the referenced blocks and entry points where a walk of
/// its past cone stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConeRoots {
    pub youngest: u32,
    pub oldest: u32,
}

impl ConeRoots {
    /// A stop of the walk: a referenced block (its milestone) or an entry point (0).
    pub fn at(index: u32) -> Self {
        ConeRoots { youngest: index, oldest: index }
    }

    fn merge(self, other: ConeRoots) -> ConeRoots {
        ConeRoots {
            youngest: self.youngest.max(other.youngest),
            oldest: self.oldest.min(other.oldest),
        }
    }
}

pub struct Pending {
    pub parents: Vec<Id32>,
    /// Arrival order and time (Unix milliseconds).
    pub seq: u64,
    pub arrival_ms: u64,
    /// The index of the milestone the block carries, 0 for other blocks.
    pub milestone_index: u32,
    /// The stored blocks that name it as a parent (all of them pending too).
    pub children: Vec<Id32>,
    pub roots: ConeRoots,
    /// Healthy when it was attached (ledger.md §5). Only such a block can become a tip, and
    /// only such a child takes its parents out of the tip pool: a lazy block approving a
    /// fresh tip must not bury it, or lazy spam would leave honest blocks unreferenced
    /// (Hornet's tip selector, `AddTip`, has the same rule).
    pub healthy_at_attach: bool,
    /// How many of `children` were healthy when they were attached.
    healthy_children: u32,
}

/// New cone roots of pending blocks after a milestone references some of their ancestors.
pub type RootUpdates = HashMap<Id32, ConeRoots>;

#[derive(Default)]
pub struct Graph {
    pending: HashMap<Id32, Pending>,
    /// Every pending block by arrival.
    by_seq: BTreeMap<u64, Id32>,
    /// The tip candidates by arrival: pending blocks that were healthy when attached and
    /// that no such block approves yet.
    tips: BTreeMap<u64, Id32>,
    /// Those of `tips` healthy at the confirmed index, for tip selection (`tip_pool.rs`):
    /// kept in step with `tips` between milestones, judged again after one.
    pool: TipPool,
    /// What entered and left `tips` since `record_tip_changes(true)`, for the event feed;
    /// None while nobody records.
    tip_changes: Option<TipChanges>,
}

impl Graph {
    pub fn get(&self, id: &Id32) -> Option<&Pending> {
        self.pending.get(id)
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Start (true) or stop recording what enters and leaves the tip candidates; either
    /// way, what was recorded so far is dropped.
    pub fn record_tip_changes(&mut self, on: bool) {
        self.tip_changes = on.then(TipChanges::default);
    }

    /// What was recorded since the last call (empty when not recording). A block that
    /// entered and left (or left and came back) in that time is in neither list: it is
    /// where it was before.
    pub fn take_tip_changes(&mut self) -> TipChanges {
        let mut changes = self.tip_changes.as_mut().map(std::mem::take).unwrap_or_default();
        let added: HashSet<Id32> = changes.added.iter().copied().collect();
        let both: HashSet<Id32> =
            changes.removed.iter().filter(|id| added.contains(*id)).copied().collect();
        if !both.is_empty() {
            changes.added.retain(|id| !both.contains(id));
            changes.removed.retain(|id| !both.contains(id));
        }
        changes
    }

    fn tip_added(&mut self, seq: u64, id: Id32) {
        if self.tips.insert(seq, id).is_none() {
            if let Some(changes) = self.tip_changes.as_mut() {
                changes.added.push(id);
            }
        }
    }

    fn tip_removed(&mut self, seq: u64) {
        if let Some(id) = self.tips.remove(&seq) {
            if let Some(changes) = self.tip_changes.as_mut() {
                changes.removed.push(id);
            }
        }
    }

    // Each argument is one of the block's facts, computed by the intake before the lock.
    #[allow(clippy::too_many_arguments)]
    pub fn insert(
        &mut self,
        id: Id32,
        parents: Vec<Id32>,
        seq: u64,
        arrival_ms: u64,
        milestone_index: u32,
        roots: ConeRoots,
        healthy_at_attach: bool,
    ) {
        for p in &parents {
            if let Some(parent) = self.pending.get_mut(p) {
                let mut untipped = None;
                if healthy_at_attach {
                    if parent.healthy_children == 0 {
                        untipped = Some(parent.seq);
                    }
                    parent.healthy_children += 1;
                }
                parent.children.push(id);
                if let Some(parent_seq) = untipped {
                    self.tip_removed(parent_seq);
                    self.pool.remove(p);
                }
            }
        }
        self.by_seq.insert(seq, id);
        if healthy_at_attach {
            // Healthy at the confirmed index it was attached at, the one the pool is judged
            // at: a milestone (which changes that index) invalidates the pool.
            self.tip_added(seq, id);
            self.pool.add(id);
        }
        let block = Pending {
            parents,
            seq,
            arrival_ms,
            milestone_index,
            children: Vec::new(),
            roots,
            healthy_at_attach,
            healthy_children: 0,
        };
        self.pending.insert(id, block);
    }

    /// The cone roots that change when a milestone at `index` references `referenced` (a
    /// past cone: every pending parent of one of them is in it too), computed without
    /// changing the graph, so that the milestone's batch can be written first. Only
    /// descendants of the referenced blocks can change (their walks now stop there, at
    /// `index`), so only those are visited, parents before children. `stop` answers for
    /// other blocks that are not pending.
    pub fn roots_after(
        &self,
        referenced: &HashSet<Id32>,
        index: u32,
        mut stop: impl FnMut(&Id32) -> Result<u32>,
    ) -> Result<RootUpdates> {
        let mut stop = |p: &Id32| if referenced.contains(p) { Ok(index) } else { stop(p) };
        let mut updates = RootUpdates::new();
        let mut affected: BTreeMap<u64, Id32> = BTreeMap::new();
        let add_children = |block: &Pending, affected: &mut BTreeMap<u64, Id32>| {
            for child in &block.children {
                if let Some(c) = self.pending.get(child).filter(|_| !referenced.contains(child)) {
                    affected.insert(c.seq, *child);
                }
            }
        };
        for id in referenced {
            if let Some(block) = self.pending.get(id) {
                add_children(block, &mut affected);
            }
        }
        while let Some((_, id)) = affected.pop_first() {
            let Some(block) = self.pending.get(&id) else { continue };
            let known = |p: &Id32| match referenced.contains(p) {
                true => None,
                false => updates.get(p).copied().or_else(|| self.pending.get(p).map(|x| x.roots)),
            };
            let roots = cone_roots(&block.parents, known, &mut stop)?;
            if roots != block.roots {
                updates.insert(id, roots);
                add_children(block, &mut affected);
            }
        }
        Ok(updates)
    }

    /// The pending blocks, other than `referenced`, whose roots (after `updates`) make
    /// `below` true: the ones no milestone can ever reference.
    pub fn below_max_depth(
        &self,
        referenced: &HashSet<Id32>,
        updates: &RootUpdates,
        below: impl Fn(ConeRoots) -> bool,
    ) -> Vec<Id32> {
        self.pending
            .iter()
            .filter(|(id, block)| {
                !referenced.contains(*id) && below(updates.get(*id).copied().unwrap_or(block.roots))
            })
            .map(|(id, _)| *id)
            .collect()
    }

    /// Forget the blocks a milestone has just referenced and take the new roots of what
    /// stays pending (from `roots_after`).
    pub fn remove_referenced(&mut self, ids: &[Id32], updates: RootUpdates) {
        self.pool.invalidate();
        for id in ids {
            if let Some(block) = self.pending.remove(id) {
                self.by_seq.remove(&block.seq);
                self.tip_removed(block.seq);
            }
        }
        for (id, roots) in updates {
            if let Some(block) = self.pending.get_mut(&id) {
                block.roots = roots;
            }
        }
    }

    /// Forget blocks below max depth. Their descendants are below max depth too, so
    /// `ids` holds them as well; a parent that stays pending and loses its last healthy
    /// child becomes a tip candidate again.
    pub fn remove_below_max_depth(&mut self, ids: &[Id32]) {
        self.pool.invalidate();
        for id in ids {
            let Some(block) = self.pending.remove(id) else { continue };
            self.by_seq.remove(&block.seq);
            self.tip_removed(block.seq);
            for p in &block.parents {
                let Some(parent) = self.pending.get_mut(p) else { continue };
                parent.children.retain(|c| c != id);
                if block.healthy_at_attach {
                    parent.healthy_children = parent.healthy_children.saturating_sub(1);
                    if parent.healthy_children == 0 && parent.healthy_at_attach {
                        let seq = parent.seq;
                        self.tip_added(seq, *p);
                    }
                }
            }
        }
    }

    /// After loading the graph from disk: compute every pending block's cone roots, in
    /// arrival order so that parents come before their children, and judge each block's
    /// health against the current milestone (its health at attach time is not kept).
    /// Many blocks share parents, so the answers of `stop` (a storage read) are remembered.
    pub fn compute_all_roots(
        &mut self,
        mut stop: impl FnMut(&Id32) -> Result<u32>,
        healthy: impl Fn(ConeRoots) -> bool,
    ) -> Result<()> {
        let mut known: HashMap<Id32, u32> = HashMap::new();
        let mut remembered = |p: &Id32| -> Result<u32> {
            if let Some(index) = known.get(p) {
                return Ok(*index);
            }
            let index = stop(p)?;
            known.insert(*p, index);
            Ok(index)
        };
        let order: Vec<Id32> = self.by_seq.values().copied().collect();
        for id in &order {
            let Some(parents) = self.pending.get(id).map(|b| b.parents.clone()) else { continue };
            let roots =
                cone_roots(&parents, |p| self.pending.get(p).map(|x| x.roots), &mut remembered)?;
            if let Some(block) = self.pending.get_mut(id) {
                block.roots = roots;
                block.healthy_at_attach = healthy(roots);
                block.healthy_children = 0;
            }
        }
        self.tips.clear();
        self.pool.invalidate();
        for id in &order {
            let Some(block) = self.pending.get(id) else { continue };
            let (seq, healthy_block, parents) =
                (block.seq, block.healthy_at_attach, block.parents.clone());
            if !healthy_block {
                continue;
            }
            self.tips.insert(seq, *id);
            for p in &parents {
                if let Some(parent) = self.pending.get_mut(p) {
                    parent.healthy_children += 1;
                    self.tips.remove(&parent.seq);
                }
            }
        }
        Ok(())
    }

    /// The tip candidates healthy at the confirmed index `index` (`healthy` judges one),
    /// judged once per index and then kept in step with the graph.
    pub fn tip_pool(&mut self, index: u32, healthy: impl Fn(&Pending) -> bool) -> &mut TipPool {
        if !self.pool.is_judged_at(index) {
            let pending = &self.pending;
            let members =
                self.tips.values().filter(|id| pending.get(*id).is_some_and(&healthy)).copied();
            self.pool.refill(index, members);
        }
        &mut self.pool
    }

    /// Tip candidates, newest arrival first.
    pub fn newest_tips(&self) -> impl Iterator<Item = (&Id32, &Pending)> {
        self.tips.values().rev().filter_map(|id| self.pending.get(id).map(|p| (id, p)))
    }

    /// Tip candidates, oldest arrival first.
    pub fn oldest_tips(&self) -> impl Iterator<Item = (&Id32, &Pending)> {
        self.tips.values().filter_map(|id| self.pending.get(id).map(|p| (id, p)))
    }
}

/// The cone roots of a block with these parents: a parent that `pending` knows passes on
/// its own roots, any other is a stop of the walk at the milestone `referenced` names.
pub fn cone_roots(
    parents: &[Id32],
    pending: impl Fn(&Id32) -> Option<ConeRoots>,
    referenced: &mut impl FnMut(&Id32) -> Result<u32>,
) -> Result<ConeRoots> {
    let mut roots: Option<ConeRoots> = None;
    for p in parents {
        let r = match pending(p) {
            Some(r) => r,
            None => ConeRoots::at(referenced(p)?),
        };
        roots = Some(roots.map_or(r, |acc| acc.merge(r)));
    }
    Ok(roots.unwrap_or(ConeRoots::at(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> Id32 {
        [n; 32]
    }

    fn referenced_now(
        g: &mut Graph,
        ids: &[Id32],
        index: u32,
        stop: impl FnMut(&Id32) -> Result<u32>,
    ) {
        let set: HashSet<Id32> = ids.iter().copied().collect();
        let updates = g.roots_after(&set, index, stop).unwrap();
        g.remove_referenced(ids, updates);
    }

    #[test]
    fn children_leave_the_tip_set_and_roots_merge() {
        let mut g = Graph::default();
        // Parents 1 and 2 are referenced by milestones 3 and 5.
        let referenced = |p: &Id32| Ok(if p[0] == 1 { 3 } else { 5 });
        let r = cone_roots(&[id(1), id(2)], |p| g.get(p).map(|x| x.roots), &mut { referenced })
            .unwrap();
        assert_eq!(r, ConeRoots { youngest: 5, oldest: 3 });
        g.insert(id(10), vec![id(1), id(2)], 0, 0, 0, r, true);
        let r2 = cone_roots(&[id(10), id(2)], |p| g.get(p).map(|x| x.roots), &mut { referenced })
            .unwrap();
        assert_eq!(r2, ConeRoots { youngest: 5, oldest: 3 });
        g.insert(id(11), vec![id(2), id(10)], 1, 0, 0, r2, true);
        let tips: Vec<_> = g.newest_tips().map(|(i, _)| *i).collect();
        assert_eq!(tips, vec![id(11)]);
        // A milestone 6 references block 10: 11 now stops there.
        referenced_now(&mut g, &[id(10)], 6, |_: &Id32| Ok(5));
        assert_eq!(g.get(&id(11)).unwrap().roots, ConeRoots { youngest: 6, oldest: 5 });
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn a_lazy_child_leaves_its_parent_a_tip() {
        let mut g = Graph::default();
        g.insert(id(10), vec![id(1), id(2)], 0, 0, 0, ConeRoots::at(5), true);
        // 11 approves 10 but was lazy when attached (another parent is old).
        g.insert(id(11), vec![id(10), id(3)], 1, 0, 0, ConeRoots { youngest: 5, oldest: 1 }, false);
        let tips: Vec<_> = g.oldest_tips().map(|(i, _)| *i).collect();
        assert_eq!(tips, vec![id(10)]);
        // A healthy child takes its place; pruning that child brings 10 back.
        g.insert(id(12), vec![id(10), id(1)], 2, 0, 0, ConeRoots::at(5), true);
        assert_eq!(g.newest_tips().map(|(i, _)| *i).collect::<Vec<_>>(), vec![id(12)]);
        g.remove_below_max_depth(&[id(12), id(11)]);
        assert_eq!(g.newest_tips().map(|(i, _)| *i).collect::<Vec<_>>(), vec![id(10)]);
        assert!(g.get(&id(10)).unwrap().children.is_empty());
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn tip_changes_are_recorded_as_net_changes() {
        let mut g = Graph::default();
        g.insert(id(10), vec![id(1)], 0, 0, 0, ConeRoots::at(5), true);
        assert!(g.take_tip_changes().is_empty(), "nothing is recorded until asked");
        g.record_tip_changes(true);
        // 11 approves 10: 11 enters, 10 leaves. A lazy 12 enters nothing.
        g.insert(id(11), vec![id(10)], 1, 0, 0, ConeRoots::at(5), true);
        g.insert(id(12), vec![id(11)], 2, 0, 0, ConeRoots { youngest: 5, oldest: 1 }, false);
        let changes = g.take_tip_changes();
        assert_eq!(changes.added, vec![id(11)]);
        assert_eq!(changes.removed, vec![id(10)]);
        // 13 approves 11 (11 leaves) and a milestone references 10, 11 and 13: 13 entered
        // and left within the same recording, so it is in neither list.
        g.insert(id(13), vec![id(11)], 3, 0, 0, ConeRoots::at(5), true);
        referenced_now(&mut g, &[id(10), id(11), id(13)], 6, |_: &Id32| Ok(5));
        let changes = g.take_tip_changes();
        assert!(changes.added.is_empty(), "{changes:?}");
        assert_eq!(changes.removed, vec![id(11)]);
        g.record_tip_changes(false);
        g.insert(id(14), vec![id(12)], 4, 0, 0, ConeRoots::at(6), true);
        assert!(g.take_tip_changes().is_empty());
    }

    #[test]
    fn below_max_depth_sees_the_roots_after_the_milestone() {
        let mut g = Graph::default();
        // Block n is referenced at milestone n. 10 hangs on 1; 11 on 10 and 9; 12 on 4.
        g.insert(id(10), vec![id(1)], 0, 0, 0, ConeRoots::at(1), true);
        g.insert(id(11), vec![id(10), id(9)], 1, 0, 0, ConeRoots { youngest: 9, oldest: 1 }, true);
        g.insert(id(12), vec![id(4)], 2, 0, 0, ConeRoots::at(4), true);
        // Milestone 20 references 10: 11 then stops at 20 and 9, so of the blocks left
        // only 12 is below a limit of "oldest < 9".
        let referenced: HashSet<Id32> = [id(10)].into();
        let updates = g.roots_after(&referenced, 20, |p| Ok(p[0] as u32)).unwrap();
        assert_eq!(updates.get(&id(11)), Some(&ConeRoots { youngest: 20, oldest: 9 }));
        let below = g.below_max_depth(&referenced, &updates, |r| r.oldest < 9);
        assert_eq!(below, vec![id(12)]);
    }

    #[test]
    fn incremental_roots_equal_a_full_recomputation() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..50 {
            let n = 60;
            let id = |k: usize| -> Id32 {
                let mut b = [0u8; 32];
                b[..8].copy_from_slice(&(k as u64 + 1).to_le_bytes());
                b
            };
            // Blocks 0..n, each with 1–3 earlier parents or the entry point (referenced at 0).
            let parents: Vec<Vec<Id32>> = (0..n)
                .map(|k| {
                    (0..rng.gen_range(1..=3))
                        .map(|_| {
                            if k == 0 || rng.gen_bool(0.1) {
                                [0; 32]
                            } else {
                                id(rng.gen_range(0..k))
                            }
                        })
                        .collect()
                })
                .collect();
            let mut g = Graph::default();
            for (k, parents) in parents.iter().enumerate() {
                g.insert(id(k), parents.clone(), k as u64, 0, 0, ConeRoots::at(0), true);
            }
            g.compute_all_roots(|_| Ok(0), |_| true).unwrap();
            // A milestone 3 references the past cone of a random block (ancestors first).
            let mut cone = vec![];
            let mut stack = vec![id(rng.gen_range(0..n))];
            while let Some(b) = stack.pop() {
                if b != [0; 32] && !cone.contains(&b) {
                    cone.push(b);
                    stack.extend(
                        parents[u64::from_le_bytes(b[..8].try_into().unwrap()) as usize - 1]
                            .clone(),
                    );
                }
            }
            let in_cone = |p: &Id32| cone.contains(p);
            referenced_now(&mut g, &cone, 3, |_| Ok(0));
            let mut fresh = Graph::default();
            for (k, parents) in parents.iter().enumerate() {
                if !in_cone(&id(k)) {
                    fresh.insert(id(k), parents.clone(), k as u64, 0, 0, ConeRoots::at(0), true);
                }
            }
            fresh.compute_all_roots(|p| Ok(if in_cone(p) { 3 } else { 0 }), |_| true).unwrap();
            for k in 0..n {
                if let Some(block) = fresh.get(&id(k)) {
                    assert_eq!(g.get(&id(k)).unwrap().roots, block.roots);
                }
            }
        }
    }
}
