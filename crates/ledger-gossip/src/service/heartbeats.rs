//! Heartbeats (gossip.md §5; Hornet `components/gossip`): every check interval, peers not
//! sent one for `heartbeat_resend` get one, and every stream is judged — no heartbeat within
//! the grace period after it started, or none for `heartbeat_expiry`, or (unknown peers
//! only) a solid index below our pruning index makes the peer unhealthy: a known peer's
//! connection is closed (and redialled later), any other peer is dropped.

use super::Service;
use crate::events::DropReason;
use crate::packets::{to_frame, Heartbeat};
use crate::peers::{Relation, Stream};
use bytes::Bytes;
use libp2p::PeerId;
use std::time::Instant;

impl Service {
    /// The node's heartbeat as of now.
    pub(super) fn heartbeat(&self) -> Heartbeat {
        let sync = self.sync;
        Heartbeat::new(
            sync.confirmed,
            sync.pruned,
            sync.latest,
            self.peers.connected_count(),
            self.peers.synced_count(sync.confirmed),
        )
    }

    /// Send the current heartbeat to every stream `filter` selects.
    pub(super) fn send_heartbeats(&mut self, filter: impl Fn(&Stream) -> bool) {
        let frame = Bytes::from(to_frame(&self.heartbeat()));
        let now = Instant::now();
        for (_, stream) in self.peers.streams_mut() {
            if filter(stream) {
                stream.session.send(frame.clone());
                stream.heartbeat_sent = now;
            }
        }
    }

    pub(super) fn on_heartbeat_tick(&mut self) {
        let now = Instant::now();
        let timers = self.config.timers;
        self.send_heartbeats(|s| now.duration_since(s.heartbeat_sent) >= timers.heartbeat_resend);

        let pruned = self.sync.pruned;
        let unhealthy: Vec<(PeerId, DropReason)> = self
            .peers
            .map
            .iter()
            .filter_map(|(id, peer)| {
                let stream = peer.stream.as_ref()?;
                let reason = match (stream.heartbeat, stream.heartbeat_received) {
                    (None, _) if now.duration_since(stream.started) > timers.heartbeat_grace => {
                        DropReason::NoHeartbeat
                    }
                    (None, _) => return None,
                    (_, Some(at)) if now.duration_since(at) > timers.heartbeat_expiry => {
                        DropReason::HeartbeatExpired
                    }
                    (Some(h), _)
                        if peer.relation != Relation::Known && h.solid_milestone_index < pruned =>
                    {
                        DropReason::BelowPruningIndex
                    }
                    _ => return None,
                };
                Some((*id, reason))
            })
            .collect();
        for (id, reason) in unhealthy {
            self.drop_peer(id, reason, false);
        }

        self.offer_own_blocks_due(now);
        self.trim_connections(now);
        self.work_units.expire(now);
    }

    /// Every stream whose own blocks are due gets them, once, and only while this node is
    /// synced (else its own blocks wait in `deferred_local`). Called at each heartbeat and
    /// at each heartbeat check: a stream too young at its peer's heartbeat is served by a
    /// later check (the peer may not send another heartbeat for a while).
    pub(super) fn offer_own_blocks_due(&mut self, now: Instant) {
        if !self.is_synced() {
            return;
        }
        let (confirmed, after) = (self.sync.confirmed, self.config.timers.own_blocks_offer_after);
        let mut due = Vec::new();
        for (_, stream) in self.peers.streams_mut() {
            if stream.own_blocks_due(confirmed, now, after) {
                stream.own_blocks_offered = true;
                due.push(stream.session.outbox.clone());
            }
        }
        for outbox in due {
            self.offer_own_blocks(outbox);
        }
    }
}
