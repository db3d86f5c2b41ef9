//! Milestones whose parents are stored, waiting to be applied: ahead of their predecessor,
//! or next and handed to the applier thread (`applier.rs`), or the one it applies now. By
//! index, in order, and by block id, so that a block approving a waiting milestone is held
//! for it instead of being answered with a request for a block the node already has.
//! Pure bookkeeping, no I/O.

use ledger_gossip::BlockId;
use std::collections::{BTreeMap, HashSet};

#[derive(Default)]
pub(crate) struct MilestoneQueue {
    by_index: BTreeMap<u32, (BlockId, Vec<u8>)>,
    ids: HashSet<BlockId>,
    /// Taken by the applier and not yet applied (or refused): still "on its way".
    applying: Option<(u32, BlockId)>,
}

impl MilestoneQueue {
    /// Milestones waiting, the one being applied not counted.
    pub fn len(&self) -> usize {
        self.by_index.len()
    }

    /// Nothing waits and nothing is being applied.
    pub fn is_idle(&self) -> bool {
        self.by_index.is_empty() && self.applying.is_none()
    }

    /// Whether the milestone at `index` waits here or is being applied.
    pub fn has_index(&self, index: u32) -> bool {
        self.by_index.contains_key(&index) || self.applying.is_some_and(|(i, _)| i == index)
    }

    /// Whether the block `id` is a milestone waiting here or being applied.
    pub fn has_block(&self, id: &BlockId) -> bool {
        self.ids.contains(id) || self.applying.is_some_and(|(_, a)| a == *id)
    }

    /// Keep the milestone at `index` (a later copy at the same index replaces nothing).
    pub fn insert(&mut self, index: u32, id: BlockId, bytes: Vec<u8>) {
        if self.by_index.contains_key(&index) {
            return;
        }
        self.ids.insert(id);
        self.by_index.insert(index, (id, bytes));
    }

    /// Take the milestone at `index` out of the queue.
    pub fn remove(&mut self, index: u32) -> Option<(BlockId, Vec<u8>)> {
        let (id, bytes) = self.by_index.remove(&index)?;
        self.ids.remove(&id);
        Some((id, bytes))
    }

    /// Take the milestone at `index` for the applier: it counts as waiting until `applied`.
    pub fn take_for_applying(&mut self, index: u32) -> Option<(BlockId, Vec<u8>)> {
        let (id, bytes) = self.remove(index)?;
        self.applying = Some((index, id));
        Some((id, bytes))
    }

    /// The applier is done with the milestone it took.
    pub fn applied(&mut self) {
        self.applying = None;
    }

    /// Forget the milestones at or below `confirmed`: they are of no use any more.
    pub fn drop_through(&mut self, confirmed: u32) {
        let kept = self.by_index.split_off(&(confirmed.saturating_add(1)));
        for (id, _) in std::mem::replace(&mut self.by_index, kept).into_values() {
            self.ids.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_milestone_is_found_by_index_and_by_id_until_it_is_applied() {
        let mut queue = MilestoneQueue::default();
        queue.insert(5, BlockId([5; 32]), vec![5]);
        queue.insert(5, BlockId([6; 32]), vec![6]);
        queue.insert(7, BlockId([7; 32]), vec![7]);
        assert_eq!(queue.len(), 2);
        assert!(queue.has_block(&BlockId([5; 32])) && !queue.has_block(&BlockId([6; 32])));

        assert_eq!(queue.take_for_applying(5), Some((BlockId([5; 32]), vec![5])));
        assert_eq!(queue.len(), 1);
        assert!(queue.has_index(5) && queue.has_block(&BlockId([5; 32])), "being applied");
        queue.applied();
        assert!(!queue.has_index(5) && !queue.has_block(&BlockId([5; 32])));
        assert_eq!(queue.take_for_applying(6), None);
    }

    #[test]
    fn milestones_at_or_below_the_confirmed_index_are_dropped() {
        let mut queue = MilestoneQueue::default();
        for index in [3, 4, 9] {
            queue.insert(index, BlockId([index as u8; 32]), vec![]);
        }
        queue.drop_through(4);
        assert_eq!(queue.len(), 1);
        assert!(!queue.has_block(&BlockId([3; 32])) && !queue.has_index(4));
        assert!(queue.has_index(9) && queue.has_block(&BlockId([9; 32])));
        queue.drop_through(u32::MAX);
        assert_eq!(queue.len(), 0);
    }
}
