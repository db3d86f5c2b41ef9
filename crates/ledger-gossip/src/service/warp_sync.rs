//! Warp sync in the service (gossip.md §7): peers' heartbeats and the node's confirmations
//! go into the `WarpSync` state machine (`crate::warp_sync`); the windows it returns become
//! "keep" milestone requests, routed like any request. A milestone the store already has
//! (held until its cone or its predecessor arrives) is not asked for again: the store asks
//! for the missing blocks of its cone itself. While warp sync runs the node is not synced.

use super::Service;
use crate::requests::Wanted;
use std::ops::RangeInclusive;
use std::time::Instant;

impl Service {
    /// Synced in Hornet's sense (within two milestones of the latest) and not warp-syncing:
    /// only then are received blocks broadcast and unrequested blocks' parents asked for.
    pub(super) fn is_synced(&self) -> bool {
        self.sync.is_synced() && !self.warp.is_running()
    }

    /// A peer's heartbeat said it has confirmed up to `solid`.
    pub(super) fn warp_peer_solid(&mut self, solid: u32) {
        if !self.config.warp_sync {
            return;
        }
        if let Some(window) = self.warp.on_peer_solid(solid, Instant::now()) {
            self.request_milestone_range(window);
        }
        self.publish_warp_status();
    }

    /// The node's confirmed milestone index moved to `confirmed`.
    pub(super) fn warp_confirmed(&mut self, confirmed: u32) {
        self.requests.forget_milestones_through(confirmed);
        if let Some(window) = self.warp.on_confirmed(confirmed, Instant::now()) {
            self.request_milestone_range(window);
        }
        self.publish_warp_status();
    }

    /// Periodically: ask again for the windows when confirmation stalled.
    pub(super) fn warp_tick(&mut self) {
        if let Some(window) = self.warp.on_tick(Instant::now()) {
            self.request_milestone_range(window);
        }
    }

    fn request_milestone_range(&mut self, range: RangeInclusive<u32>) {
        let now = Instant::now();
        for index in range {
            if !self.store.has_milestone(index) {
                self.requests.enqueue(Wanted::Milestone(index), index, true, now);
            }
        }
    }

    fn publish_warp_status(&self) {
        *self.warp_status.lock().unwrap_or_else(|p| p.into_inner()) = self.warp.status();
    }
}
