//! The unreferenced part of the block graph, kept in memory (and mirrored in the
//! `unreferenced` column family so that it can be rebuilt after a restart).
//!
//! Every stored block is either referenced by a milestone (its metadata says which) or
//! here. White flag walks only this part; tip selection reads its childless blocks; and the
//! cone root indexes of ledger.md §5 are kept per block, so that a tip's score is a lookup
//! rather than a walk of its past cone.

use ledger_core::model::Id32;
use ledger_core::Result;
use std::collections::{BTreeMap, HashMap};

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
    /// How many stored blocks name it as a parent (all of them unreferenced too).
    pub children: u32,
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

    /// The cone roots a new block with these parents has. `referenced` answers for a
    /// parent that is not pending: the milestone index that referenced it (0 for entry
    /// points).
    pub fn roots_of(&self, parents: &[Id32], mut referenced: impl FnMut(&Id32) -> Result<u32>) -> Result<ConeRoots> {
        merged_roots(&self.pending, parents, &mut referenced)
    }

    pub fn insert(&mut self, id: Id32, parents: Vec<Id32>, seq: u64, arrival_ms: u64, milestone_index: u32, roots: ConeRoots) {
        for p in &parents {
            if let Some(parent) = self.pending.get_mut(p) {
                parent.children += 1;
                if parent.children == 1 {
                    self.childless.remove(&parent.seq);
                }
            }
        }
        self.by_seq.insert(seq, id);
        self.childless.insert(seq, id);
        self.pending.insert(id, Pending { parents, seq, arrival_ms, milestone_index, children: 0, roots });
    }

    /// Forget blocks a milestone has just referenced.
    pub fn remove(&mut self, ids: &[Id32]) {
        for id in ids {
            if let Some(p) = self.pending.remove(id) {
                self.by_seq.remove(&p.seq);
                self.childless.remove(&p.seq);
            }
        }
    }

    /// Recompute every pending block's cone roots after a milestone, in arrival order so
    /// that parents come before their children. Many blocks share parents, so the answers
    /// of `referenced` (a storage read) are remembered for the pass.
    pub fn recompute_roots(&mut self, mut referenced: impl FnMut(&Id32) -> Result<u32>) -> Result<()> {
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
            let roots = merged_roots(&self.pending, &self.pending[&id].parents, &mut remembered)?;
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

fn merged_roots(pending: &HashMap<Id32, Pending>, parents: &[Id32], referenced: &mut impl FnMut(&Id32) -> Result<u32>) -> Result<ConeRoots> {
    let mut roots: Option<ConeRoots> = None;
    for p in parents {
        let r = match pending.get(p) {
            Some(parent) => parent.roots,
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
        let r = g.roots_of(&[id(1), id(2)], referenced).unwrap();
        assert_eq!(r, ConeRoots { youngest: 5, oldest: 3 });
        g.insert(id(10), vec![id(1), id(2)], 0, 0, 0, r);
        let r2 = g.roots_of(&[id(10), id(2)], referenced).unwrap();
        assert_eq!(r2, ConeRoots { youngest: 5, oldest: 3 });
        g.insert(id(11), vec![id(2), id(10)], 1, 0, 0, r2);
        let tips: Vec<_> = g.newest_childless().map(|(i, _)| *i).collect();
        assert_eq!(tips, vec![id(11)]);
        // A milestone 6 references block 10: 11 now stops there.
        g.remove(&[id(10)]);
        g.recompute_roots(|p: &Id32| Ok(if p[0] == 10 { 6 } else { 5 })).unwrap();
        assert_eq!(g.get(&id(11)).unwrap().roots, ConeRoots { youngest: 6, oldest: 5 });
        assert_eq!(g.len(), 1);
    }
}
