//! How fast one peer's stream is read (gossip.md §10): token buckets of messages, and of
//! milestone requests among them. Every message a peer sends costs the node work — a
//! lookup for a request, a verdict for a block, a state update for a heartbeat — and
//! nothing in the protocol bounds how many a peer sends; a peer that sent half a million
//! milestone requests a second had the node answering nothing else. Past its budget a
//! stream is simply not read for a while, so TCP slows the peer down and nothing it sent is
//! lost. An honest peer stays far below it: a node gossiping 5,000 blocks a second, or
//! serving a warp sync at 7,000, sends one message a block.

use std::time::{Duration, Instant};

/// Messages a second a stream is read at, once its burst is spent.
pub const MESSAGES_PER_SECOND: f64 = 20_000.0;
/// Messages a stream may send at once above the rate (a new stream starts with them).
pub const MESSAGE_BURST: f64 = 20_000.0;
/// Milestone requests a second a stream is read at, and their burst: each costs a store
/// lookup and a block sent back (at 2,000 a second, 0.83 of the honest rate was left in
/// `bench:hostile`), and a node syncing honestly asks for at most the milestones it gets
/// through in a second (540–600 in `bench:sync`'s warp sync, whose milestones hold about
/// eleven blocks; a real network's hold hundreds), in windows of 150.
pub const MILESTONE_REQUESTS_PER_SECOND: f64 = 1_000.0;
pub const MILESTONE_REQUEST_BURST: f64 = 1_000.0;
/// Blocks from an unknown peer's IP address that the node had to hold without their
/// parents, unasked, a second, and their burst (D53). Honest peers forward blocks once they
/// are solid, so the node has their parents or gets them on the same stream; a peer sending
/// valid blocks on made-up parents costs the node a check, a place among the held blocks
/// and requests for each parent. Past the budget the peer's stream is not read for a while.
pub const ORPHANS_PER_SECOND: f64 = 50.0;
pub const ORPHAN_BURST: f64 = 500.0;
/// The reader pauses once it owes at least this much time: shorter sleeps would be rounded
/// up by the timer (to a millisecond) and slow an honest burst more than the budget says.
pub const MIN_PAUSE: Duration = Duration::from_millis(2);

#[derive(Debug)]
pub struct Budget {
    tokens: f64,
    per_second: f64,
    burst: f64,
    last: Instant,
}

impl Budget {
    pub fn new(per_second: f64, burst: f64, now: Instant) -> Budget {
        Budget { tokens: burst, per_second, burst, last: now }
    }

    /// The budget of a gossip stream's messages.
    pub fn for_messages(now: Instant) -> Budget {
        Budget::new(MESSAGES_PER_SECOND, MESSAGE_BURST, now)
    }

    /// The budget of a gossip stream's milestone requests (besides the messages').
    pub fn for_milestone_requests(now: Instant) -> Budget {
        Budget::new(MILESTONE_REQUESTS_PER_SECOND, MILESTONE_REQUEST_BURST, now)
    }

    /// Take one token at `now` if there is one: whether it was there. Unlike `spend`, a
    /// refusal costs nothing, so a caller asking again and again is not pushed into debt.
    pub fn try_take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }

    /// Whether the bucket is full again at `now` (nothing of the burst is spent).
    pub fn is_full(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * self.per_second >= self.burst
    }

    /// Spend `messages` read at `now`: how long to pause before reading more (zero while
    /// the stream is within its budget or owes less than `MIN_PAUSE`). After the pause the
    /// debt is paid by the time that passed.
    pub fn spend(&mut self, messages: usize, now: Instant) -> Duration {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst) - messages as f64;
        if self.tokens >= 0.0 {
            return Duration::ZERO;
        }
        let owed = Duration::from_secs_f64(-self.tokens / self.per_second);
        if owed < MIN_PAUSE {
            Duration::ZERO
        } else {
            owed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_stream_within_its_rate_never_pauses() {
        let start = Instant::now();
        let mut budget = Budget::new(1_000.0, 100.0, start);
        // 1,000 messages a second in tens, for ten seconds.
        for i in 1..=1_000u32 {
            assert_eq!(budget.spend(10, start + 10 * MS * i), Duration::ZERO, "at {i}");
        }
    }

    #[test]
    fn try_take_refuses_past_the_burst_without_going_into_debt() {
        let start = Instant::now();
        let mut bucket = Budget::new(10.0, 3.0, start);
        assert!((0..3).all(|_| bucket.try_take(start)), "the burst");
        assert!(!bucket.is_full(start));
        // Asked a thousand times at once: every refusal is free.
        assert!((0..1_000).all(|_| !bucket.try_take(start)));
        // A tenth of a second later one token is back, and only one.
        assert!(bucket.try_take(start + 100 * MS));
        assert!(!bucket.try_take(start + 100 * MS));
        assert!(bucket.is_full(start + 400 * MS));
    }

    #[test]
    fn the_burst_is_free_then_the_rate_holds() {
        let start = Instant::now();
        let mut budget = Budget::new(1_000.0, 100.0, start);
        assert_eq!(budget.spend(100, start), Duration::ZERO, "the burst");
        assert_eq!(budget.spend(1, start), Duration::ZERO, "one over: owes 1 ms, below MIN_PAUSE");
        assert_eq!(budget.spend(9, start), 10 * MS, "ten over the burst: 10 ms at 1,000/s");
        // After the pause it owes nothing: the next message is read at once.
        assert_eq!(budget.spend(1, start + 11 * MS), Duration::ZERO);
    }

    #[test]
    fn a_flood_is_held_to_the_rate() {
        let start = Instant::now();
        let mut budget = Budget::new(1_000.0, 100.0, start);
        // A reader that reads 500 messages whenever it may, pausing as told.
        let mut now = start;
        let mut read = 0u32;
        while now < start + Duration::from_secs(10) {
            read += 500;
            now += budget.spend(500, now).max(MS);
        }
        let rate = f64::from(read) / 10.0;
        assert!((1_000.0..1_100.0).contains(&rate), "{rate} messages a second");
    }

    #[test]
    fn an_idle_stream_earns_no_more_than_its_burst() {
        let start = Instant::now();
        let mut budget = Budget::new(1_000.0, 100.0, start);
        assert_eq!(budget.spend(100, start + Duration::from_secs(3600)), Duration::ZERO);
        assert_eq!(budget.spend(10, start + Duration::from_secs(3600)), 10 * MS);
    }
}
