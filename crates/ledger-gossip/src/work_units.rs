//! Deduplication of received blocks before validation (gossip.md §6 step 1; Hornet
//! `work_unit.go`): one work unit per distinct block, keyed by its id — the BLAKE2b-256 of
//! the received bytes, so equal bytes and only equal bytes share a unit. The unit remembers
//! every peer that sent the bytes, whether the node had asked for them, and the store's
//! verdict: validation runs once, an invalid block punishes all its senders, and a
//! broadcast skips them. A unit is forgotten `ttl` after its verdict; one still waiting
//! for the store never is.

use crate::packets::BlockId;
use libp2p::PeerId;
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// In the store's intake.
    Pending,
    /// Stored now, or already stored: the bytes are a valid block.
    Valid,
    /// Valid but not kept.
    Ignored,
    /// Broke a protocol rule.
    Invalid(String),
}

#[derive(Debug)]
pub struct WorkUnit {
    /// Every peer that sent these bytes, first sender first.
    pub senders: Vec<PeerId>,
    /// The node asked for this block (by id, or as the answer to a milestone request).
    pub requested: bool,
    pub verdict: Verdict,
}

impl WorkUnit {
    /// Record a sender; false if it had sent the bytes before.
    pub fn add_sender(&mut self, peer: PeerId) -> bool {
        if self.senders.contains(&peer) {
            return false;
        }
        self.senders.push(peer);
        true
    }
}

/// The maps shrink when they use less than a quarter of their room, not below this.
const SHRINK_FLOOR: usize = 1024;

pub struct WorkUnits {
    units: HashMap<BlockId, WorkUnit>,
    /// Units with a verdict, by the time they may be forgotten.
    expiry: VecDeque<(Instant, BlockId)>,
    ttl: Duration,
}

impl WorkUnits {
    pub fn new(ttl: Duration) -> WorkUnits {
        WorkUnits { units: HashMap::new(), expiry: VecDeque::new(), ttl }
    }

    /// The unit of these bytes, and whether it was created now (first time they arrive).
    pub fn receive(&mut self, id: BlockId, from: PeerId, requested: bool) -> (&mut WorkUnit, bool) {
        let mut created = false;
        let unit = self.units.entry(id).or_insert_with(|| {
            created = true;
            WorkUnit { senders: Vec::with_capacity(2), requested: false, verdict: Verdict::Pending }
        });
        unit.add_sender(from);
        unit.requested |= requested;
        (unit, created)
    }

    pub fn get(&self, id: &BlockId) -> Option<&WorkUnit> {
        self.units.get(id)
    }

    pub fn get_mut(&mut self, id: &BlockId) -> Option<&mut WorkUnit> {
        self.units.get_mut(id)
    }

    /// Record the store's verdict; the unit will be forgotten `ttl` after `now`. A verdict
    /// that says nothing about the bytes (the store failed) forgets the unit at once, so
    /// the next copy is tried again.
    pub fn decide(
        &mut self,
        id: BlockId,
        verdict: Option<Verdict>,
        now: Instant,
    ) -> Option<WorkUnit> {
        match verdict {
            None => self.units.remove(&id),
            Some(verdict) => {
                let unit = self.units.get_mut(&id)?;
                unit.verdict = verdict;
                self.expiry.push_back((now + self.ttl, id));
                None
            }
        }
    }

    /// Forget units whose time is up.
    pub fn expire(&mut self, now: Instant) {
        while let Some(&(at, id)) = self.expiry.front() {
            if at > now {
                break;
            }
            self.expiry.pop_front();
            if self.units.get(&id).is_some_and(|u| u.verdict != Verdict::Pending) {
                self.units.remove(&id);
            }
        }
        // A flood (issue 24: 90,000 invalid blocks a second) grows the map to what 5 s of
        // it hold; give the room back once it is mostly empty (a HashMap never shrinks).
        if self.units.capacity() > SHRINK_FLOOR && self.units.len() < self.units.capacity() / 4 {
            self.units.shrink_to(self.units.len() * 2);
        }
        if self.expiry.capacity() > SHRINK_FLOOR && self.expiry.len() < self.expiry.capacity() / 4 {
            self.expiry.shrink_to(self.expiry.len() * 2);
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.units.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_unit_per_block_with_all_its_senders() {
        let t0 = Instant::now();
        let (a, b) = (PeerId::random(), PeerId::random());
        let id = BlockId([1; 32]);
        let mut units = WorkUnits::new(Duration::from_secs(5));
        assert!(units.receive(id, a, false).1);
        let (unit, created) = units.receive(id, b, true);
        assert!(!created);
        assert_eq!(unit.senders, [a, b]);
        assert!(unit.requested);
        assert!(!units.receive(id, a, false).0.add_sender(a), "a sender counts once");

        // Pending units outlive their ttl; decided ones do not.
        units.expire(t0 + Duration::from_secs(60));
        assert_eq!(units.len(), 1);
        units.decide(id, Some(Verdict::Invalid("bad".into())), t0);
        units.expire(t0 + Duration::from_secs(4));
        assert_eq!(units.get(&id).unwrap().verdict, Verdict::Invalid("bad".into()));
        units.expire(t0 + Duration::from_secs(5));
        assert!(units.is_empty());
    }

    #[test]
    fn a_failed_intake_forgets_the_unit() {
        let mut units = WorkUnits::new(Duration::from_secs(5));
        let id = BlockId([2; 32]);
        units.receive(id, PeerId::random(), false);
        assert!(units.decide(id, None, Instant::now()).is_some());
        assert!(units.is_empty());
    }

    #[test]
    fn the_map_gives_its_room_back_after_a_flood() {
        let t0 = Instant::now();
        let mut units = WorkUnits::new(Duration::from_secs(5));
        let peer = PeerId::random();
        for n in 0..20_000u32 {
            let mut id = [0u8; 32];
            id[..4].copy_from_slice(&n.to_le_bytes());
            units.receive(BlockId(id), peer, false);
            units.decide(BlockId(id), Some(Verdict::Invalid("bad".into())), t0);
        }
        assert!(units.units.capacity() >= 20_000);
        units.expire(t0 + Duration::from_secs(5));
        assert!(units.is_empty());
        assert!(units.units.capacity() <= SHRINK_FLOOR, "{}", units.units.capacity());
        assert!(units.expiry.capacity() <= SHRINK_FLOOR, "{}", units.expiry.capacity());
    }
}
