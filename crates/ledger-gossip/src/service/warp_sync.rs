//! Warp sync in the service (gossip.md §7): peers' heartbeats and the node's confirmations
//! go into the `WarpSync` state machine (`crate::warp_sync`); the windows it returns become
//! "keep" milestone requests, routed like any request. A milestone the store already has
//! (held until its cone or its predecessor arrives) is not asked for again: the store asks
//! for the missing blocks of its cone itself. While warp sync runs the node is not synced.
//!
//! Cones only within the windows (issue 23): while warp sync runs, blocks of the cone of a
//! milestone beyond the windows asked for — a milestone broadcast by the network going on,
//! the answer to a stream's first "your latest milestone" — are not asked for yet. They
//! wait here, by milestone, until a window reaches that milestone (or warp sync ends).
//! Asked for at once, each answer's parents were asked for in turn (kept requests), and
//! the walk went down through the whole history from the top while the windows came up
//! from the bottom: the blocks it brought waited in the store's held blocks (at most
//! 20,000, for at most 120 s) until warp sync reached them, and a history longer than that
//! had the oldest forgotten and asked for again (the held blocks' missing parents, every
//! second), beside the windows' own requests, until the windows caught up.

use super::Service;
use crate::packets::BlockId;
use crate::requests::Wanted;
use std::ops::RangeInclusive;
use std::time::Instant;

/// Block ids waiting for the windows at most; beyond, those of the highest milestones are
/// dropped (asked for again by the store's retry of held blocks' parents once synced).
const MAX_DEFERRED: usize = 65_536;

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
        // The cones of applied milestones are stored.
        self.deferred_cones = self.deferred_cones.split_off(&confirmed.saturating_add(1));
        if let Some(window) = self.warp.on_confirmed(confirmed, Instant::now()) {
            self.request_milestone_range(window);
        }
        if !self.warp.is_running() {
            self.release_deferred(u32::MAX);
        }
        self.publish_warp_status();
    }

    /// While warp sync runs, blocks of the cone of milestone `index` beyond its windows wait
    /// (see the file's header): true if `ids` were put aside, false to ask for them now.
    pub(super) fn warp_defer(&mut self, index: u32, ids: &[BlockId]) -> bool {
        if !self.warp.is_running() || index <= self.warp.status().requested_up_to {
            return false;
        }
        self.deferred_cones.entry(index).or_default().extend_from_slice(ids);
        let mut count: usize = self.deferred_cones.values().map(Vec::len).sum();
        while count > MAX_DEFERRED {
            let Some((_, dropped)) = self.deferred_cones.pop_last() else { break };
            count -= dropped.len();
        }
        true
    }

    /// Ask for the blocks put aside for milestones up to `through`, as kept requests.
    fn release_deferred(&mut self, through: u32) {
        let rest = match through.checked_add(1) {
            Some(above) => self.deferred_cones.split_off(&above),
            None => std::collections::BTreeMap::new(),
        };
        let now = Instant::now();
        for (index, ids) in std::mem::replace(&mut self.deferred_cones, rest) {
            for id in ids {
                self.requests.enqueue(Wanted::Block(id), index, true, now);
            }
        }
    }

    /// Periodically: ask again for the windows when confirmation stalled.
    pub(super) fn warp_tick(&mut self) {
        if let Some(window) = self.warp.on_tick(Instant::now()) {
            self.request_milestone_range(window);
        }
    }

    fn request_milestone_range(&mut self, range: RangeInclusive<u32>) {
        let now = Instant::now();
        let through = *range.end();
        for index in range {
            if !self.store.has_milestone(index) {
                self.requests.enqueue(Wanted::Milestone(index), index, true, now);
            }
        }
        self.release_deferred(through);
    }

    fn publish_warp_status(&self) {
        *self.warp_status.lock().unwrap_or_else(|p| p.into_inner()) = self.warp.status();
    }
}
