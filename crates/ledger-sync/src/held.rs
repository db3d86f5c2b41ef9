//! Blocks held until their parents arrive (D46, gossip.md §6.1): a store whose intake
//! needs every parent known (the node's, D13) keeps gossiped blocks with missing parents
//! here, asks peers for the parents, and submits each block once its last missing parent
//! is stored. Bounded in count, bytes and age: a peer cannot fill memory with orphans, and
//! a block whose parents never come is forgotten. The maps give their memory back once a
//! flood has gone (issue 24: they kept the capacity of the largest flood for good).
//!
//! Pure bookkeeping, no I/O: `intake.rs` decides what is missing and what arrived. Held
//! blocks are unvalidated bytes (checked as far as they can be without their parents,
//! `SyncStore::check_without_parents`); the store validates them when they are submitted.

use ledger_gossip::BlockId;
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// A held block released because nothing it waited for is missing any more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Released {
    pub id: BlockId,
    pub bytes: Vec<u8>,
}

struct Held {
    bytes: Vec<u8>,
    missing: HashSet<BlockId>,
}

pub struct HeldBlocks {
    blocks: HashMap<BlockId, Held>,
    /// Missing parent → the held blocks waiting for it.
    waiting: HashMap<BlockId, Vec<BlockId>>,
    /// Arrival order, for expiry and for evicting the oldest when full.
    arrivals: VecDeque<(Instant, BlockId)>,
    capacity: usize,
    /// Bytes of held blocks at most, and now.
    max_bytes: usize,
    bytes: usize,
    /// The most bytes held since `reset_peak`.
    peak_bytes: usize,
    max_age: Duration,
}

/// Maps shrink when they use less than a quarter of their capacity, and not below this.
const SHRINK_FLOOR: usize = 1024;

impl HeldBlocks {
    pub fn new(capacity: usize, max_bytes: usize, max_age: Duration) -> HeldBlocks {
        HeldBlocks {
            blocks: HashMap::new(),
            waiting: HashMap::new(),
            arrivals: VecDeque::new(),
            capacity: capacity.max(1),
            max_bytes,
            bytes: 0,
            peak_bytes: 0,
            max_age,
        }
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Bytes of the held blocks.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// How far the held bytes fell below their peak since `reset_peak`: after a flood, what
    /// the intake may give back to the system (`sync_store.rs`).
    pub fn fallen_from_peak(&self) -> usize {
        self.peak_bytes - self.bytes
    }

    pub fn reset_peak(&mut self) {
        self.peak_bytes = self.bytes;
    }

    /// Entries the maps have room for (what they cost while empty).
    pub fn map_capacity(&self) -> usize {
        self.blocks.capacity() + self.waiting.capacity() + self.arrivals.capacity()
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    pub fn contains(&self, id: &BlockId) -> bool {
        self.blocks.contains_key(id)
    }

    /// Hold `id` until every block of `missing` has arrived. A block already held keeps
    /// its first copy. When full (in count or bytes), the oldest held blocks are forgotten
    /// to make room. Returns false if the block was held already.
    pub fn hold(
        &mut self,
        id: BlockId,
        bytes: Vec<u8>,
        missing: Vec<BlockId>,
        now: Instant,
    ) -> bool {
        if self.blocks.contains_key(&id) {
            return false;
        }
        self.expire(now);
        while self.blocks.len() >= self.capacity
            || (!self.blocks.is_empty() && self.bytes + bytes.len() > self.max_bytes)
        {
            let Some((_, oldest)) = self.arrivals.pop_front() else { break };
            self.forget(&oldest);
        }
        for parent in &missing {
            self.waiting.entry(*parent).or_default().push(id);
        }
        self.bytes += bytes.len();
        self.peak_bytes = self.peak_bytes.max(self.bytes);
        self.blocks.insert(id, Held { bytes, missing: missing.into_iter().collect() });
        self.arrivals.push_back((now, id));
        true
    }

    /// `id` is stored now: the held blocks that waited only for it, in the order they were
    /// held (a block is released at most once).
    pub fn arrived(&mut self, id: &BlockId) -> Vec<Released> {
        let Some(children) = self.waiting.remove(id) else { return Vec::new() };
        let mut released = Vec::new();
        for child in children {
            let Some(held) = self.blocks.get_mut(&child) else { continue };
            held.missing.remove(id);
            if held.missing.is_empty() {
                let held = self.blocks.remove(&child).expect("present above");
                self.bytes -= held.bytes.len();
                released.push(Released { id: child, bytes: held.bytes });
            }
        }
        self.shrink();
        released
    }

    /// The parents still missing for held blocks, to ask peers for them again. A parent
    /// that is itself held is here already, waiting for its own parents (which are in
    /// the list): asking for it again would only bring a copy (issue 23: a quarter of
    /// warp sync's answers were copies).
    pub fn missing(&self) -> Vec<BlockId> {
        self.waiting.keys().filter(|parent| !self.blocks.contains_key(parent)).copied().collect()
    }

    /// Forget blocks held for longer than the maximum age. Returns how many went.
    pub fn expire(&mut self, now: Instant) -> usize {
        let mut gone = 0;
        while let Some(&(since, id)) = self.arrivals.front() {
            if now.duration_since(since) < self.max_age {
                break;
            }
            self.arrivals.pop_front();
            if self.forget(&id) {
                gone += 1;
            }
        }
        // Entries of blocks released meanwhile are skipped above; keep the queue from
        // growing with them when nothing expires.
        if self.arrivals.len() > 2 * self.blocks.len() + 64 {
            let blocks = &self.blocks;
            self.arrivals.retain(|(_, id)| blocks.contains_key(id));
        }
        self.shrink();
        gone
    }

    /// Give back the maps' room when they use little of it: a flood of orphans grows them to
    /// the cap, and a `HashMap` never shrinks by itself.
    fn shrink(&mut self) {
        fn small(len: usize, capacity: usize) -> bool {
            capacity > SHRINK_FLOOR && len < capacity / 4
        }
        if small(self.blocks.len(), self.blocks.capacity()) {
            self.blocks.shrink_to(self.blocks.len() * 2);
        }
        if small(self.waiting.len(), self.waiting.capacity()) {
            self.waiting.shrink_to(self.waiting.len() * 2);
        }
        if small(self.arrivals.len(), self.arrivals.capacity()) {
            self.arrivals.shrink_to(self.arrivals.len() * 2);
        }
    }

    fn forget(&mut self, id: &BlockId) -> bool {
        let Some(held) = self.blocks.remove(id) else { return false };
        self.bytes -= held.bytes.len();
        for parent in held.missing {
            if let Some(list) = self.waiting.get_mut(&parent) {
                list.retain(|c| c != id);
                if list.is_empty() {
                    self.waiting.remove(&parent);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> BlockId {
        BlockId([n; 32])
    }

    #[test]
    fn released_when_the_last_missing_parent_arrives() {
        let now = Instant::now();
        let mut held = HeldBlocks::new(10, usize::MAX, Duration::from_secs(60));
        assert!(held.hold(id(3), vec![3], vec![id(1), id(2)], now));
        assert!(!held.hold(id(3), vec![33], vec![id(1)], now), "the first copy is kept");
        assert!(held.hold(id(4), vec![4], vec![id(3)], now));
        let mut missing = held.missing();
        missing.sort();
        assert_eq!(missing, vec![id(1), id(2)], "3 is held: not asked for");

        assert_eq!(held.arrived(&id(1)), vec![]);
        assert_eq!(held.arrived(&id(2)), vec![Released { id: id(3), bytes: vec![3] }]);
        assert!(!held.contains(&id(3)));
        // The released block, once stored, releases its own held child.
        assert_eq!(held.arrived(&id(3)), vec![Released { id: id(4), bytes: vec![4] }]);
        assert!(held.is_empty());
        assert!(held.missing().is_empty());
        assert_eq!(held.arrived(&id(3)), vec![], "released once");
    }

    #[test]
    fn a_held_parent_is_not_asked_for_again() {
        let now = Instant::now();
        let mut held = HeldBlocks::new(10, usize::MAX, Duration::from_secs(60));
        // c waits for b, which is held for a: only a is missing from the node.
        held.hold(id(2), vec![2], vec![id(1)], now);
        held.hold(id(3), vec![3], vec![id(2)], now);
        assert_eq!(held.missing(), vec![id(1)]);
        // a arrives: b is released, and c with it once b is stored.
        assert_eq!(held.arrived(&id(1)), vec![Released { id: id(2), bytes: vec![2] }]);
        assert_eq!(held.arrived(&id(2)), vec![Released { id: id(3), bytes: vec![3] }]);
        assert!(held.missing().is_empty() && held.is_empty());
        // A held parent that was forgotten is missing again.
        let mut small = HeldBlocks::new(1, usize::MAX, Duration::from_secs(60));
        small.hold(id(2), vec![2], vec![id(1)], now);
        small.hold(id(3), vec![3], vec![id(2)], now);
        assert_eq!(small.missing(), vec![id(2)]);
    }

    #[test]
    fn several_children_of_one_parent_in_holding_order() {
        let now = Instant::now();
        let mut held = HeldBlocks::new(10, usize::MAX, Duration::from_secs(60));
        held.hold(id(5), vec![5], vec![id(1)], now);
        held.hold(id(6), vec![6], vec![id(1), id(2)], now);
        held.hold(id(7), vec![7], vec![id(1)], now);
        let released: Vec<BlockId> = held.arrived(&id(1)).into_iter().map(|r| r.id).collect();
        assert_eq!(released, vec![id(5), id(7)]);
        assert_eq!(held.len(), 1);
    }

    #[test]
    fn bounded_in_count_oldest_forgotten() {
        let now = Instant::now();
        let mut held = HeldBlocks::new(2, usize::MAX, Duration::from_secs(60));
        held.hold(id(10), vec![10], vec![id(1)], now);
        held.hold(id(11), vec![11], vec![id(2)], now);
        held.hold(id(12), vec![12], vec![id(3)], now);
        assert_eq!(held.len(), 2);
        assert!(!held.contains(&id(10)));
        assert_eq!(held.arrived(&id(1)), vec![], "its waiting entry went with it");
        let mut missing = held.missing();
        missing.sort();
        assert_eq!(missing, vec![id(2), id(3)]);
    }

    #[test]
    fn bounded_in_age() {
        let start = Instant::now();
        let mut held = HeldBlocks::new(10, usize::MAX, Duration::from_secs(60));
        held.hold(id(10), vec![10], vec![id(1)], start);
        held.hold(id(11), vec![11], vec![id(2)], start + Duration::from_secs(30));
        assert_eq!(held.expire(start + Duration::from_secs(59)), 0);
        assert_eq!(held.expire(start + Duration::from_secs(61)), 1);
        assert!(!held.contains(&id(10)) && held.contains(&id(11)));
        assert_eq!(held.missing(), vec![id(2)]);
    }

    #[test]
    fn bounded_in_bytes_oldest_forgotten() {
        let now = Instant::now();
        let mut held = HeldBlocks::new(100, 250, Duration::from_secs(60));
        held.hold(id(10), vec![10; 100], vec![id(1)], now);
        held.hold(id(11), vec![11; 100], vec![id(2)], now);
        assert_eq!(held.bytes(), 200);
        held.hold(id(12), vec![12; 100], vec![id(3)], now);
        assert_eq!((held.len(), held.bytes()), (2, 200));
        assert!(!held.contains(&id(10)) && held.contains(&id(12)));
        // A block larger than the whole bound is held alone.
        held.hold(id(13), vec![13; 300], vec![id(4)], now);
        assert_eq!((held.len(), held.bytes()), (1, 300));
        assert_eq!(held.fallen_from_peak(), 0);
        assert_eq!(held.arrived(&id(4)).len(), 1);
        assert_eq!((held.len(), held.bytes(), held.fallen_from_peak()), (0, 0, 300));
        held.reset_peak();
        assert_eq!(held.fallen_from_peak(), 0);
    }

    #[test]
    fn the_maps_give_their_room_back_after_a_flood() {
        let start = Instant::now();
        let mut held = HeldBlocks::new(20_000, usize::MAX, Duration::from_secs(60));
        for n in 0..20_000u32 {
            let mut child = [0u8; 32];
            child[..4].copy_from_slice(&n.to_le_bytes());
            let mut parent = child;
            parent[31] = 1;
            held.hold(BlockId(child), vec![0; 64], vec![BlockId(parent)], start);
        }
        assert!(held.map_capacity() >= 60_000);
        assert_eq!(held.expire(start + Duration::from_secs(61)), 20_000);
        assert!(held.is_empty());
        assert!(held.map_capacity() <= 3 * SHRINK_FLOOR, "{}", held.map_capacity());
    }
}
