//! The unreferenced part of the block graph, kept in memory (and mirrored in the
//! `unreferenced` column family so that it can be rebuilt after a restart).
//!
//! Every stored block is either referenced by a milestone (its metadata says which) or
//! here. White flag walks only this part; tip selection reads its childless blocks; and the
//! cone root indexes of ledger.md §5 are kept per block, so that a tip's score is a lookup
//! rather than a walk of its past cone.

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
        ConeRoots { youngest: self.youngest.max(other.youngest), oldest: self.oldest.min(other.oldest) }
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
}

#[derive(Default)]
pub struct Graph {
    pending: HashMap<Id32, Pending>,
    /// Every pending block by arrival.
    by_seq: BTreeMap<u64, Id32>,
    /// Pending blocks without children, by arrival: the candidates for tips.
    childless: BTreeMap<u64, Id32>,
}

impl Graph {
    pub fn get(&self, id: &Id32) -> Option<&Pending> {
        self.pending.get(id)
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }

    pub fn insert(&mut self, id: Id32, parents: Vec<Id32>, seq: u64, arrival_ms: u64, milestone_index: u32, roots: ConeRoots) {
        for p in &parents {
            if let Some(parent) = self.pending.get_mut(p) {
                if parent.children.is_empty() {
                    self.childless.remove(&parent.seq);
                }
                parent.children.push(id);
            }
        }
        self.by_seq.insert(seq, id);
        self.childless.insert(seq, id);
        self.pending.insert(id, Pending { parents, seq, arrival_ms, milestone_index, children: Vec::new(), roots });
    }

    /// Forget the blocks milestone `index` has just referenced, and update the cone roots
    /// of what stays pending. Only descendants of the referenced blocks can change (their
    /// walks now stop there, at `index`), so only those are visited, parents before
    /// children. `referenced` answers for other blocks that are not pending.
    pub fn remove_referenced(&mut self, ids: &[Id32], index: u32, mut referenced: impl FnMut(&Id32) -> Result<u32>) -> Result<()> {
        let just_referenced: HashSet<Id32> = ids.iter().copied().collect();
        let mut referenced = |p: &Id32| if just_referenced.contains(p) { Ok(index) } else { referenced(p) };
        let mut affected: BTreeMap<u64, Id32> = BTreeMap::new();
        for id in ids {
            if let Some(p) = self.pending.remove(id) {
                self.by_seq.remove(&p.seq);
                self.childless.remove(&p.seq);
                for child in p.children {
                    if let Some(c) = self.pending.get(&child) {
                        affected.insert(c.seq, child);
                    }
                }
            }
        }
        while let Some((_, id)) = affected.pop_first() {
            let Some(block) = self.pending.get(&id) else { continue };
            let roots = cone_roots(&block.parents, |p| self.pending.get(p).map(|x| x.roots), &mut referenced)?;
            if roots != block.roots {
                for child in &block.children {
                    affected.insert(self.pending[child].seq, *child);
                }
                self.pending.get_mut(&id).expect("pending").roots = roots;
            }
        }
        Ok(())
    }

    /// Compute every pending block's cone roots (after loading the graph from disk), in
    /// arrival order so that parents come before their children. Many blocks share
    /// parents, so the answers of `referenced` (a storage read) are remembered.
    pub fn compute_all_roots(&mut self, mut referenced: impl FnMut(&Id32) -> Result<u32>) -> Result<()> {
        let mut known: HashMap<Id32, u32> = HashMap::new();
        let mut remembered = |p: &Id32| -> Result<u32> {
            if let Some(index) = known.get(p) {
                return Ok(*index);
            }
            let index = referenced(p)?;
            known.insert(*p, index);
            Ok(index)
        };
        let order: Vec<Id32> = self.by_seq.values().copied().collect();
        for id in order {
            let roots = cone_roots(&self.pending[&id].parents, |p| self.pending.get(p).map(|x| x.roots), &mut remembered)?;
            self.pending.get_mut(&id).expect("pending").roots = roots;
        }
        Ok(())
    }

    /// Childless pending blocks, newest arrival first.
    pub fn newest_childless(&self) -> impl Iterator<Item = (&Id32, &Pending)> {
        self.childless.values().rev().map(|id| (id, &self.pending[id]))
    }

    /// Childless pending blocks, oldest arrival first.
    pub fn oldest_childless(&self) -> impl Iterator<Item = (&Id32, &Pending)> {
        self.childless.values().map(|id| (id, &self.pending[id]))
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

    #[test]
    fn children_leave_the_childless_set_and_roots_merge() {
        let mut g = Graph::default();
        // Parents 1 and 2 are referenced by milestones 3 and 5.
        let referenced = |p: &Id32| Ok(if p[0] == 1 { 3 } else { 5 });
        let r = cone_roots(&[id(1), id(2)], |p| g.get(p).map(|x| x.roots), &mut { referenced }).unwrap();
        assert_eq!(r, ConeRoots { youngest: 5, oldest: 3 });
        g.insert(id(10), vec![id(1), id(2)], 0, 0, 0, r);
        let r2 = cone_roots(&[id(10), id(2)], |p| g.get(p).map(|x| x.roots), &mut { referenced }).unwrap();
        assert_eq!(r2, ConeRoots { youngest: 5, oldest: 3 });
        g.insert(id(11), vec![id(2), id(10)], 1, 0, 0, r2);
        let tips: Vec<_> = g.newest_childless().map(|(i, _)| *i).collect();
        assert_eq!(tips, vec![id(11)]);
        // A milestone 6 references block 10: 11 now stops there.
        g.remove_referenced(&[id(10)], 6, |_: &Id32| Ok(5)).unwrap();
        assert_eq!(g.get(&id(11)).unwrap().roots, ConeRoots { youngest: 6, oldest: 5 });
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn incremental_roots_equal_a_full_recomputation() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..50 {
            let n = 60;
            let id = |k: usize| -> Id32 { let mut b = [0u8; 32]; b[..8].copy_from_slice(&(k as u64 + 1).to_le_bytes()); b };
            // Blocks 0..n, each with 1–3 earlier parents or the entry point (referenced at 0).
            let parents: Vec<Vec<Id32>> = (0..n)
                .map(|k| (0..rng.gen_range(1..=3)).map(|_| if k == 0 || rng.gen_bool(0.1) { [0; 32] } else { id(rng.gen_range(0..k)) }).collect())
                .collect();
            let mut g = Graph::default();
            for k in 0..n {
                g.insert(id(k), parents[k].clone(), k as u64, 0, 0, ConeRoots::at(0));
            }
            g.compute_all_roots(|_| Ok(0)).unwrap();
            // A milestone 3 references the past cone of a random block (ancestors first).
            let mut cone = vec![];
            let mut stack = vec![id(rng.gen_range(0..n))];
            while let Some(b) = stack.pop() {
                if b != [0; 32] && !cone.contains(&b) {
                    cone.push(b);
                    stack.extend(parents[u64::from_le_bytes(b[..8].try_into().unwrap()) as usize - 1].clone());
                }
            }
            let in_cone = |p: &Id32| cone.contains(p);
            g.remove_referenced(&cone, 3, |_| Ok(0)).unwrap();
            let mut fresh = Graph::default();
            for k in 0..n {
                if !in_cone(&id(k)) {
                    fresh.insert(id(k), parents[k].clone(), k as u64, 0, 0, ConeRoots::at(0));
                }
            }
            fresh.compute_all_roots(|p| Ok(if in_cone(p) { 3 } else { 0 })).unwrap();
            for k in 0..n {
                if let Some(block) = fresh.get(&id(k)) {
                    assert_eq!(g.get(&id(k)).unwrap().roots, block.roots);
                }
            }
        }
    }
}
