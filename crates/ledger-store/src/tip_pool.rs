//! The pool tip selection draws from (ledger.md §5): the graph's tip candidates that are
//! healthy at the current confirmed milestone, kept as they change so that selecting tips
//! costs the same with ten tips or fifty thousand.
//!
//! A tip's score depends only on its cone roots and the confirmed milestone index, and
//! both change only when a milestone is applied. So the pool is judged once per milestone
//! (the first selection after it filters the graph's candidates, O(tips)) and between
//! milestones follows the graph: a block attached healthy enters, a parent that gets its
//! first healthy child leaves. Like Hornet's pool of non-lazy tips, it holds only the
//! frontier of the graph, and the graph itself holds at most about `belowMaxDepth`
//! milestones' worth of blocks.

use ledger_core::model::Id32;
use std::collections::HashMap;

#[derive(Default)]
pub struct TipPool {
    /// The members, in no particular order: sampling picks places in this vector.
    ids: Vec<Id32>,
    /// Where each member is in `ids`, so that one leaves in O(1).
    places: HashMap<Id32, usize>,
    /// The confirmed milestone index the members were judged healthy at; None: not judged
    /// since the graph last changed beyond what `add` and `remove` follow.
    judged_at: Option<u32>,
}

impl TipPool {
    pub fn is_judged_at(&self, index: u32) -> bool {
        self.judged_at == Some(index)
    }

    /// Forget the members; the next selection judges the graph's candidates again.
    pub fn invalidate(&mut self) {
        self.judged_at = None;
        self.ids.clear();
        self.places.clear();
    }

    /// The members judged healthy at `index`, replacing any others.
    pub fn refill(&mut self, index: u32, healthy: impl Iterator<Item = Id32>) {
        self.invalidate();
        for id in healthy {
            self.insert(id);
        }
        self.judged_at = Some(index);
    }

    /// A block attached healthy at the judged index (ignored while the pool is not judged:
    /// the next refill sees it among the graph's candidates).
    pub fn add(&mut self, id: Id32) {
        if self.judged_at.is_some() {
            self.insert(id);
        }
    }

    fn insert(&mut self, id: Id32) {
        if let std::collections::hash_map::Entry::Vacant(place) = self.places.entry(id) {
            place.insert(self.ids.len());
            self.ids.push(id);
        }
    }

    pub fn remove(&mut self, id: &Id32) {
        let Some(place) = self.places.remove(id) else { return };
        self.ids.swap_remove(place);
        if let Some(moved) = self.ids.get(place) {
            self.places.insert(*moved, place);
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Up to `n` distinct members, each subset equally likely (`random` gives the
    /// randomness): a partial Fisher–Yates shuffle of the first `n` places, O(n).
    pub fn sample(&mut self, n: usize, mut random: impl FnMut() -> u64) -> Vec<Id32> {
        let len = self.ids.len();
        if len <= n {
            return self.ids.clone();
        }
        for i in 0..n {
            let j = i + (random() % (len - i) as u64) as usize;
            if i != j {
                self.ids.swap(i, j);
                self.places.insert(self.ids[i], i);
                self.places.insert(self.ids[j], j);
            }
        }
        self.ids[..n].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn id(n: u32) -> Id32 {
        let mut id = [0u8; 32];
        id[..4].copy_from_slice(&n.to_le_bytes());
        id
    }

    fn members(pool: &TipPool) -> HashSet<Id32> {
        pool.ids.iter().copied().collect()
    }

    #[test]
    fn members_come_and_go_in_constant_time_and_places_stay_right() {
        let mut pool = TipPool::default();
        pool.add(id(1));
        assert_eq!(pool.len(), 0, "not judged yet: the next refill sees it");
        pool.refill(7, (1..=5).map(id));
        assert!(pool.is_judged_at(7) && !pool.is_judged_at(8));
        pool.remove(&id(2));
        pool.remove(&id(9));
        pool.add(id(6));
        pool.add(id(6));
        assert_eq!(members(&pool), [1, 3, 4, 5, 6].map(id).into_iter().collect());
        for (place, member) in pool.ids.iter().enumerate() {
            assert_eq!(pool.places[member], place);
        }
        pool.invalidate();
        assert_eq!(pool.len(), 0);
        assert!(!pool.is_judged_at(7));
    }

    #[test]
    fn a_sample_is_distinct_members_and_reaches_every_member() {
        let mut pool = TipPool::default();
        pool.refill(1, (0..100).map(id));
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut seen = HashSet::new();
        for _ in 0..200 {
            let sample = pool.sample(8, &mut random);
            let distinct: HashSet<_> = sample.iter().copied().collect();
            assert_eq!(distinct.len(), 8);
            assert!(distinct.iter().all(|m| pool.places.contains_key(m)));
            seen.extend(distinct);
        }
        assert_eq!(seen.len(), 100, "every member gets drawn");
        for (place, member) in pool.ids.iter().enumerate() {
            assert_eq!(pool.places[member], place, "sampling keeps the places right");
        }
        let mut small = TipPool::default();
        small.refill(1, (0..3).map(id));
        assert_eq!(small.sample(8, &mut random).len(), 3);
    }
}
