//! What the node asked its peers for and has not received yet (gossip.md §6.1; Hornet
//! `rqueue.go`, `requester.go`): blocks by id and milestones by index.
//!
//! A request moves queued → pending (sent) → processing (its answer is being stored) →
//! gone. Queued requests go out lowest milestone index first, because older cones unblock
//! confirmation. Every retry interval pending requests are queued again; those older than
//! the discard age are given up unless marked "keep" (milestone parents, cone walks,
//! warp-sync ranges). Asking again for something already asked only upgrades "keep".

use crate::packets::BlockId;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wanted {
    Block(BlockId),
    Milestone(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub wanted: Wanted,
    /// The milestone whose cone this belongs to: priority, and which peers can answer.
    pub milestone_index: u32,
    pub keep: bool,
    pub enqueued_at: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Queued,
    Pending,
    Processing,
}

#[derive(Default)]
pub struct RequestQueue {
    requests: HashMap<Wanted, (Request, Stage)>,
    /// Queued requests by (milestone index, arrival); entries whose request moved on or
    /// changed are skipped when popped.
    heap: BinaryHeap<Reverse<(u32, u64, Wanted)>>,
    order: u64,
}

impl RequestQueue {
    pub fn new() -> RequestQueue {
        RequestQueue::default()
    }

    /// Ask for `wanted`. Returns false if it was already asked for (then only `keep` and the
    /// milestone index of a kept request are taken over, as in Hornet).
    pub fn enqueue(
        &mut self,
        wanted: Wanted,
        milestone_index: u32,
        keep: bool,
        now: Instant,
    ) -> bool {
        if let Some((existing, _)) = self.requests.get_mut(&wanted) {
            if keep && !existing.keep {
                existing.keep = true;
                existing.milestone_index = milestone_index;
                existing.enqueued_at = now;
            }
            return false;
        }
        let request = Request { wanted, milestone_index, keep, enqueued_at: now };
        self.requests.insert(wanted, (request, Stage::Queued));
        self.push(request);
        true
    }

    fn push(&mut self, request: Request) {
        self.order += 1;
        self.heap.push(Reverse((request.milestone_index, self.order, request.wanted)));
    }

    /// Whether anything may be waiting to be sent (cheap; stale heap entries count).
    pub fn has_queued(&self) -> bool {
        !self.heap.is_empty()
    }

    /// The queued request to send next; it becomes pending.
    pub fn next(&mut self) -> Option<Request> {
        while let Some(Reverse((_, _, wanted))) = self.heap.pop() {
            if let Some((request, stage @ Stage::Queued)) = self.requests.get_mut(&wanted) {
                *stage = Stage::Pending;
                return Some(*request);
            }
        }
        None
    }

    /// An answer arrived: the request (if there was one) moves to processing.
    pub fn received(&mut self, wanted: Wanted) -> Option<Request> {
        let (request, stage) = self.requests.get_mut(&wanted)?;
        *stage = Stage::Processing;
        Some(*request)
    }

    /// The answer was stored (or refused): the request is done.
    pub fn processed(&mut self, wanted: Wanted) -> Option<Request> {
        self.requests.remove(&wanted).map(|(request, _)| request)
    }

    /// Queue pending requests again; give up those older than `discard_after` unless kept.
    /// Returns how many were queued again.
    pub fn retry_pending(&mut self, now: Instant, discard_after: Duration) -> usize {
        let mut again = Vec::new();
        self.requests.retain(|_, (request, stage)| {
            if *stage != Stage::Pending {
                return true;
            }
            if !request.keep && now.duration_since(request.enqueued_at) >= discard_after {
                return false;
            }
            *stage = Stage::Queued;
            again.push(*request);
            true
        });
        again.sort_by_key(|r| r.milestone_index);
        let n = again.len();
        for request in again {
            self.push(request);
        }
        n
    }

    /// Give up milestone requests up to `index`: the node has confirmed them (gossip.md
    /// §6.1: milestone indexes already stored are not requested).
    pub fn forget_milestones_through(&mut self, index: u32) {
        self.requests.retain(|wanted, _| !matches!(wanted, Wanted::Milestone(i) if *i <= index));
    }

    /// Whether `wanted` is asked for and not yet answered.
    #[cfg(test)]
    pub fn contains(&self, wanted: &Wanted) -> bool {
        self.requests.get(wanted).is_some_and(|(_, stage)| *stage != Stage::Processing)
    }

    /// (queued, pending, processing)
    #[cfg(test)]
    pub fn sizes(&self) -> (usize, usize, usize) {
        let mut sizes = (0, 0, 0);
        for (_, stage) in self.requests.values() {
            match stage {
                Stage::Queued => sizes.0 += 1,
                Stage::Pending => sizes.1 += 1,
                Stage::Processing => sizes.2 += 1,
            }
        }
        sizes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(n: u8) -> Wanted {
        Wanted::Block(BlockId([n; 32]))
    }

    #[test]
    fn lowest_milestone_index_goes_first() {
        let now = Instant::now();
        let mut q = RequestQueue::new();
        assert!(q.enqueue(block(1), 9, false, now));
        assert!(q.enqueue(Wanted::Milestone(4), 4, true, now));
        assert!(q.enqueue(block(2), 6, false, now));
        assert!(!q.enqueue(block(2), 1, false, now), "already asked");
        let order: Vec<Wanted> = std::iter::from_fn(|| q.next()).map(|r| r.wanted).collect();
        assert_eq!(order, [Wanted::Milestone(4), block(2), block(1)]);
        assert_eq!(q.sizes(), (0, 3, 0));
    }

    #[test]
    fn answers_move_requests_out() {
        let now = Instant::now();
        let mut q = RequestQueue::new();
        q.enqueue(block(1), 3, false, now);
        assert_eq!(q.next().unwrap().wanted, block(1));
        assert_eq!(q.received(block(1)).unwrap().milestone_index, 3);
        assert!(!q.contains(&block(1)));
        assert_eq!(q.sizes(), (0, 0, 1));
        assert!(q.processed(block(1)).is_some());
        assert_eq!(q.sizes(), (0, 0, 0));
        assert!(q.received(block(7)).is_none(), "never asked");
        // An answer that overtakes the sending: the queued request is done as well.
        q.enqueue(block(2), 3, false, now);
        assert!(q.received(block(2)).is_some());
        assert!(q.next().is_none());
    }

    #[test]
    fn retries_and_discards() {
        let t0 = Instant::now();
        let mut q = RequestQueue::new();
        q.enqueue(block(1), 5, false, t0);
        q.enqueue(block(2), 5, true, t0);
        q.enqueue(block(3), 5, false, t0);
        while q.next().is_some() {}
        // A later request upgrades an existing one to "keep".
        assert!(!q.enqueue(block(3), 2, true, t0 + Duration::from_secs(10)));

        assert_eq!(q.retry_pending(t0 + Duration::from_secs(5), Duration::from_secs(15)), 3);
        assert_eq!(q.next().unwrap().wanted, block(3), "upgraded to milestone 2");
        while q.next().is_some() {}
        assert_eq!(q.retry_pending(t0 + Duration::from_secs(16), Duration::from_secs(15)), 2);
        let left: Vec<Wanted> = std::iter::from_fn(|| q.next()).map(|r| r.wanted).collect();
        assert_eq!(left, [block(3), block(2)]);
    }

    #[test]
    fn confirmed_milestones_are_no_longer_asked_for() {
        let now = Instant::now();
        let mut q = RequestQueue::new();
        for index in 1..=4 {
            q.enqueue(Wanted::Milestone(index), index, true, now);
        }
        q.enqueue(block(1), 2, true, now);
        assert_eq!(q.next().unwrap().wanted, Wanted::Milestone(1));
        q.forget_milestones_through(2);
        let left: Vec<Wanted> = std::iter::from_fn(|| q.next()).map(|r| r.wanted).collect();
        assert_eq!(left, [block(1), Wanted::Milestone(3), Wanted::Milestone(4)]);
        assert_eq!(
            q.retry_pending(now, Duration::from_secs(15)),
            3,
            "milestone 1 is gone from the pending ones too"
        );
    }
}
