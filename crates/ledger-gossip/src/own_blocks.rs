//! The node's own blocks (its API's, its INX extensions', its coordinator's), remembered for
//! a while after they were first sent. A block is acknowledged to its client once stored;
//! if the node had no peer at that moment (cut off, every peer restarting), or its peers
//! were all on its side of a partition, nobody else has it. So a peer whose stream opens
//! later is sent the remembered ones that still wait for a milestone (gossip.md §6): an
//! acknowledged block reaches the network as soon as the node has peers again.
//!
//! Bounded twice: by count (half a peer's send queue, so that a new stream is never filled
//! by this alone) and by age (five minutes, Hornet's limit for a healthy latest milestone:
//! older blocks are below max depth in any network that is alive).

use crate::packets::BlockId;
use bytes::Bytes;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How long an own block is offered to peers that come later.
pub const MAX_AGE: Duration = Duration::from_secs(300);

pub struct OwnBlocks {
    recent: VecDeque<Own>,
    capacity: usize,
    max_age: Duration,
}

struct Own {
    id: BlockId,
    frame: Bytes,
    sent: Instant,
}

impl OwnBlocks {
    pub fn new(capacity: usize, max_age: Duration) -> OwnBlocks {
        OwnBlocks { recent: VecDeque::new(), capacity, max_age }
    }

    /// Remember a block's frame; the oldest goes when the count is full.
    pub fn remember(&mut self, id: BlockId, frame: Bytes, now: Instant) {
        if self.capacity == 0 {
            return;
        }
        self.expire(now);
        if self.recent.len() == self.capacity {
            self.recent.pop_front();
        }
        self.recent.push_back(Own { id, frame, sent: now });
    }

    /// The blocks still young enough to offer, oldest first.
    pub fn offer(&mut self, now: Instant) -> Vec<(BlockId, Bytes)> {
        self.expire(now);
        self.recent.iter().map(|own| (own.id, own.frame.clone())).collect()
    }

    fn expire(&mut self, now: Instant) {
        while self.recent.front().is_some_and(|own| now.duration_since(own.sent) > self.max_age) {
            self.recent.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> BlockId {
        BlockId([n; 32])
    }

    fn ids(offer: Vec<(BlockId, Bytes)>) -> Vec<BlockId> {
        offer.into_iter().map(|(id, _)| id).collect()
    }

    #[test]
    fn the_oldest_goes_when_the_count_is_full() {
        let t0 = Instant::now();
        let mut own = OwnBlocks::new(2, MAX_AGE);
        for n in 1..=3 {
            own.remember(id(n), Bytes::from(vec![n]), t0);
        }
        assert_eq!(ids(own.offer(t0)), vec![id(2), id(3)]);
    }

    #[test]
    fn blocks_older_than_the_age_are_not_offered() {
        let t0 = Instant::now();
        let mut own = OwnBlocks::new(10, Duration::from_secs(60));
        own.remember(id(1), Bytes::new(), t0);
        own.remember(id(2), Bytes::new(), t0 + Duration::from_secs(30));
        assert_eq!(ids(own.offer(t0 + Duration::from_secs(61))), vec![id(2)]);
        assert!(own.offer(t0 + Duration::from_secs(91)).is_empty());
    }

    #[test]
    fn a_capacity_of_zero_remembers_nothing() {
        let t0 = Instant::now();
        let mut own = OwnBlocks::new(0, MAX_AGE);
        own.remember(id(1), Bytes::new(), t0);
        assert!(own.offer(t0).is_empty());
    }
}
