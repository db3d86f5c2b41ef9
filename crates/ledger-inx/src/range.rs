//! The start/end rules of the ranged streams (ListenToConfirmedMilestones,
//! ListenToLedgerUpdates, ListenToTreasuryUpdates), as Hornet's `rangesend.go` has them:
//!
//! * start 0: nothing from the past, live from now on; start > 0 up to the current index:
//!   the stored milestones from start first (InvalidArgument when start is at or below the
//!   pruning index); start beyond the current index: nothing until start comes.
//! * end 0: no end; otherwise the stream ends OK once `end` was sent (at once when the
//!   stored part already reached it, or when a live index passes it).
//! * live: an index below start is ignored; a gap after the last one sent is read from
//!   storage first.
//!
//! One addition: the stream subscribes before it reads what is stored, so a live index the
//! stored part already sent is skipped — no gap and no duplicate between the two.

use tonic::Status;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    start: u32,
    end: u32,
    last_sent: u32,
}

/// What to do for one live index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Read these indexes from storage and send them first.
    pub catch_up: Option<(u32, u32)>,
    /// Send the live index.
    pub send: bool,
    /// The range is complete after this step: end the stream (OK).
    pub done: bool,
}

impl Range {
    pub fn new(start: u32, end: u32) -> Range {
        Range { start, end, last_sent: 0 }
    }

    fn requested(&self) -> bool {
        self.start > 0
    }

    fn bounded(&self) -> bool {
        self.end > 0
    }

    /// The stored indexes to send before going live, given the index the node is at now and
    /// its pruning index; None when there are none.
    pub fn history(&self, current: u32, pruning: u32) -> Result<Option<(u32, u32)>, Status> {
        if !self.requested() || self.start > current {
            return Ok(None);
        }
        if self.start <= pruning {
            return Err(Status::invalid_argument(format!(
                "given startMilestoneIndex {} is older than the current pruningIndex {pruning}",
                self.start
            )));
        }
        let to = if !self.bounded() || self.end > current { current } else { self.end };
        Ok(Some((self.start, to)))
    }

    /// Everything up to `index` was sent (the stored part, or Hornet's treasury start).
    pub fn sent_up_to(&mut self, index: u32) {
        self.last_sent = index;
    }

    /// The range was complete before anything live: end the stream now.
    pub fn complete(&self) -> bool {
        self.bounded() && self.last_sent >= self.end
    }

    pub fn live(&mut self, index: u32) -> Step {
        let skip = Step { catch_up: None, send: false, done: false };
        if self.requested() && index < self.start {
            return skip;
        }
        if self.last_sent > 0 && index <= self.last_sent {
            return skip;
        }
        let mut catch_up = None;
        if self.requested() && index.saturating_sub(1) > self.last_sent {
            let from = self.start.max(self.last_sent + 1);
            let mut to = index - 1;
            if self.bounded() && to > self.end {
                to = self.end;
            }
            if from <= to {
                catch_up = Some((from, to));
            }
            self.last_sent = to;
        }
        if self.bounded() && index > self.end {
            return Step { catch_up, send: false, done: true };
        }
        self.last_sent = index;
        Step { catch_up, send: true, done: self.bounded() && index >= self.end }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(catch_up: Option<(u32, u32)>, done: bool) -> Step {
        Step { catch_up, send: true, done }
    }

    const SKIP: Step = Step { catch_up: None, send: false, done: false };

    #[test]
    fn no_start_is_live_from_now_on() {
        let mut r = Range::new(0, 0);
        assert_eq!(r.history(20, 5).unwrap(), None);
        assert!(!r.complete());
        assert_eq!(r.live(21), send(None, false));
        assert_eq!(r.live(22), send(None, false));
    }

    #[test]
    fn no_start_with_an_end_stops_at_the_first_index_reaching_it() {
        let mut r = Range::new(0, 22);
        assert_eq!(r.live(21), send(None, false));
        assert_eq!(r.live(22), send(None, true));
        let mut late = Range::new(0, 10);
        assert_eq!(late.live(21), Step { catch_up: None, send: false, done: true });
    }

    #[test]
    fn a_start_in_the_past_reads_storage_then_goes_live_without_duplicates() {
        let mut r = Range::new(5, 0);
        assert_eq!(r.history(20, 0).unwrap(), Some((5, 20)));
        r.sent_up_to(20);
        // Events the subscription queued while storage was read.
        assert_eq!(r.live(19), SKIP);
        assert_eq!(r.live(20), SKIP);
        assert_eq!(r.live(21), send(None, false));
        // A gap is read from storage first.
        assert_eq!(r.live(24), send(Some((22, 23)), false));
    }

    #[test]
    fn a_bounded_range_in_the_past_is_complete_before_anything_live() {
        let r = Range::new(5, 8);
        assert_eq!(r.history(20, 0).unwrap(), Some((5, 8)));
        let mut r = r;
        r.sent_up_to(8);
        assert!(r.complete());
        // The end beyond the current index: storage to the current one, then live.
        let mut r = Range::new(5, 25);
        assert_eq!(r.history(20, 0).unwrap(), Some((5, 20)));
        r.sent_up_to(20);
        assert!(!r.complete());
        assert_eq!(r.live(23), send(Some((21, 22)), false));
        assert_eq!(r.live(27), Step { catch_up: Some((24, 25)), send: false, done: true });
    }

    #[test]
    fn a_start_in_the_future_waits_for_it() {
        let mut r = Range::new(30, 0);
        assert_eq!(r.history(20, 0).unwrap(), None);
        assert_eq!(r.live(21), SKIP);
        assert_eq!(r.live(29), SKIP);
        assert_eq!(r.live(30), send(None, false));
        assert_eq!(r.live(31), send(None, false));
    }

    #[test]
    fn a_start_at_or_below_the_pruning_index_is_refused() {
        let err = Range::new(10, 0).history(20, 10).unwrap_err();
        assert_eq!(err.code(), tonic::Code::InvalidArgument);
        assert!(err.message().contains("older than the current pruningIndex 10"));
        // Beyond the current index the pruning index does not matter.
        assert_eq!(Range::new(30, 0).history(20, 25).unwrap(), None);
    }

    #[test]
    fn a_reversed_range_ends_at_once() {
        // Hornet: end < start sends the stored start..end (nothing) and ends.
        let mut r = Range::new(10, 5);
        assert_eq!(r.history(20, 0).unwrap(), Some((10, 5)));
        r.sent_up_to(5);
        assert!(r.complete());
    }
}
