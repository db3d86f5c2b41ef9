//! Warp sync (gossip.md §7; Hornet `warpsync.go`): catching up with peers that are ahead,
//! by asking for their milestones a window at a time instead of all at once.
//!
//! The target is the highest solid index any peer's heartbeat reported. Warp sync starts
//! when the target is at least two milestones above the confirmed index (CMI) and asks for
//! the first window, CMI+1 … CMI+`range` (capped at the target). Once CMI enters the
//! current window, the next window is asked for, so that at most two windows are in flight
//! and the store is never flooded with milestones far ahead of what it can confirm. When
//! CMI stops moving for a while (a milestone's cone could not be solidified: a request went
//! unanswered, a held block expired, the store refused something), what is left of the
//! windows is asked for again. Warp sync ends when CMI reaches the target; while it runs,
//! the node is not synced (it does not broadcast, and it is not healthy).
//!
//! This file is the state machine only: pure, with the time passed in, so that it can be
//! tested without peers. `service/warp_sync.rs` feeds it heartbeats and confirmations and
//! turns the windows it returns into milestone requests.

use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    /// CMI has entered the window once it is above this index.
    start: u32,
    /// The last milestone index asked for.
    end: u32,
}

#[derive(Clone, Debug)]
pub struct WarpSync {
    range: u32,
    stall_after: Duration,
    confirmed: u32,
    target: u32,
    window: Option<Window>,
    /// When CMI last moved (or the windows were last asked for again).
    progress_at: Instant,
}

/// What warp sync looks like from outside (node status, health).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpSyncStatus {
    pub running: bool,
    /// The highest solid index a peer reported.
    pub target: u32,
    /// The last milestone index asked for (0 when not running).
    pub requested_up_to: u32,
}

impl WarpSync {
    /// Windows of `range` milestones; the windows are asked for again after `stall_after`
    /// without a new confirmed milestone.
    pub fn new(range: u32, stall_after: Duration, confirmed: u32, now: Instant) -> WarpSync {
        WarpSync {
            range: range.max(1),
            stall_after,
            confirmed,
            target: 0,
            window: None,
            progress_at: now,
        }
    }

    pub fn is_running(&self) -> bool {
        self.window.is_some()
    }

    pub fn status(&self) -> WarpSyncStatus {
        WarpSyncStatus {
            running: self.is_running(),
            target: self.target,
            requested_up_to: self.window.map_or(0, |w| w.end),
        }
    }

    /// A peer's heartbeat reported `solid`: raise the target; start when it is two or more
    /// milestones ahead, or widen a running sync whose windows stopped at the old target.
    /// Returns the milestone indexes to ask for.
    pub fn on_peer_solid(&mut self, solid: u32, now: Instant) -> Option<RangeInclusive<u32>> {
        if solid <= self.target {
            return None;
        }
        self.target = solid;
        if self.window.is_some() {
            return self.advance();
        }
        if self.target.saturating_sub(self.confirmed) < 2 {
            return None;
        }
        let end = self.window_end(self.confirmed);
        self.window = Some(Window { start: self.confirmed, end });
        self.progress_at = now;
        Some(self.confirmed + 1..=end)
    }

    /// The confirmed milestone index changed. Returns the next window to ask for, if CMI
    /// entered the current one; ends warp sync at the target.
    pub fn on_confirmed(&mut self, confirmed: u32, now: Instant) -> Option<RangeInclusive<u32>> {
        if confirmed <= self.confirmed {
            return None;
        }
        self.confirmed = confirmed;
        self.progress_at = now;
        self.window?;
        if confirmed >= self.target {
            // Done. The target is kept: only a peer ahead of it starts the next sync.
            self.window = None;
            return None;
        }
        self.advance()
    }

    /// Called now and then: if CMI has not moved for the stall time while syncing, what is
    /// left of the windows (CMI+1 … the last index asked for), to ask for again.
    pub fn on_tick(&mut self, now: Instant) -> Option<RangeInclusive<u32>> {
        let window = self.window?;
        if now.duration_since(self.progress_at) < self.stall_after {
            return None;
        }
        self.progress_at = now;
        Some(self.confirmed + 1..=window.end)
    }

    /// Ask for the next window once CMI is inside the current one and the target is beyond it.
    fn advance(&mut self) -> Option<RangeInclusive<u32>> {
        let window = self.window.as_mut()?;
        if self.confirmed <= window.start || window.end >= self.target {
            return None;
        }
        let from = window.end.max(self.confirmed) + 1;
        let end = (window.end.saturating_add(self.range)).min(self.target).max(from);
        *window = Window { start: window.end, end };
        Some(from..=end)
    }

    fn window_end(&self, from: u32) -> u32 {
        from.saturating_add(self.range).min(self.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STALL: Duration = Duration::from_secs(10);

    fn sync_at(confirmed: u32) -> (WarpSync, Instant) {
        let now = Instant::now();
        (WarpSync::new(150, STALL, confirmed, now), now)
    }

    #[test]
    fn starts_only_two_or_more_behind() {
        let (mut w, now) = sync_at(10);
        assert_eq!(w.on_peer_solid(10, now), None);
        assert_eq!(
            w.on_peer_solid(11, now),
            None,
            "one behind: the next milestone comes by broadcast"
        );
        assert!(!w.is_running());
        assert_eq!(w.on_peer_solid(12, now), Some(11..=12));
        assert!(w.is_running());
        assert_eq!(w.status(), WarpSyncStatus { running: true, target: 12, requested_up_to: 12 });
        assert_eq!(w.on_confirmed(11, now), None);
        assert_eq!(w.on_confirmed(12, now), None);
        assert!(!w.is_running(), "stops at the target");
        assert_eq!(w.on_peer_solid(13, now), None, "one ahead of the new CMI");
    }

    #[test]
    fn asks_a_window_at_a_time() {
        let (mut w, now) = sync_at(0);
        assert_eq!(w.on_peer_solid(400, now), Some(1..=150));
        assert_eq!(w.on_peer_solid(380, now), None, "a lower target changes nothing");
        // CMI enters the first window: the second one is asked for, not more.
        assert_eq!(w.on_confirmed(1, now), Some(151..=300));
        for cmi in 2..=150 {
            assert_eq!(w.on_confirmed(cmi, now), None, "cmi {cmi}");
        }
        assert_eq!(w.on_confirmed(151, now), Some(301..=400));
        assert_eq!(w.status().requested_up_to, 400);
        assert_eq!(w.on_confirmed(399, now), None);
        assert!(w.is_running());
        assert_eq!(w.on_confirmed(400, now), None);
        assert!(!w.is_running());
    }

    #[test]
    fn a_higher_target_widens_a_sync_that_reached_its_old_one() {
        let (mut w, now) = sync_at(0);
        assert_eq!(w.on_peer_solid(100, now), Some(1..=100));
        assert_eq!(w.on_confirmed(50, now), None, "the window already reaches the target");
        assert_eq!(w.on_peer_solid(500, now), Some(101..=250));
        assert_eq!(w.on_confirmed(60, now), None, "CMI is not in the new window yet");
        assert_eq!(w.on_confirmed(101, now), Some(251..=400));
    }

    #[test]
    fn a_jump_past_the_window_asks_only_for_what_is_above_cmi() {
        let (mut w, now) = sync_at(0);
        assert_eq!(w.on_peer_solid(1000, now), Some(1..=150));
        // Milestones also arrive by broadcast; CMI may overtake the windows.
        assert_eq!(w.on_confirmed(200, now), Some(201..=300));
        assert_eq!(w.on_confirmed(320, now), Some(321..=450));
    }

    #[test]
    fn asks_again_when_cmi_stalls() {
        let (mut w, t0) = sync_at(5);
        assert_eq!(w.on_tick(t0 + STALL * 2), None, "not running");
        assert_eq!(w.on_peer_solid(300, t0), Some(6..=155));
        assert_eq!(w.on_confirmed(6, t0), Some(156..=300));
        assert_eq!(w.on_confirmed(40, t0 + Duration::from_secs(5)), None);
        assert_eq!(w.on_tick(t0 + Duration::from_secs(14)), None, "moved 9 s ago");
        assert_eq!(w.on_tick(t0 + Duration::from_secs(15)), Some(41..=300));
        assert_eq!(w.on_tick(t0 + Duration::from_secs(16)), None, "asked again just now");
        assert_eq!(w.on_tick(t0 + Duration::from_secs(25)), Some(41..=300));
    }

    #[test]
    fn a_small_range_still_moves_forward() {
        let now = Instant::now();
        let mut w = WarpSync::new(0, STALL, 0, now);
        assert_eq!(w.on_peer_solid(3, now), Some(1..=1));
        assert_eq!(w.on_confirmed(1, now), Some(2..=2));
        assert_eq!(w.on_confirmed(2, now), Some(3..=3));
        assert_eq!(w.on_confirmed(3, now), None);
        assert!(!w.is_running());
    }
}
