//! Gossip streams (gossip.md §3; Hornet `service.go`): one per peer.
//!
//! * The dialer opens the stream; a stream from a known peer is always taken, from an
//!   unknown peer while fewer than `unknown_peers_limit` unknown peers hold one — otherwise
//!   it is reset and the peer disconnected.
//! * A second stream with the same peer: Hornet keeps the first. When both sides dialled at
//!   once, each has opened a stream and each would keep its own, losing both; so when the
//!   two streams were opened by different sides, both nodes keep the one opened by the peer
//!   with the smaller peer id. Against a Hornet this never does worse than Hornet's rule.
//! * Once taken, the node sends a heartbeat, then asks for the peer's latest milestone; at
//!   the peer's first heartbeat that shows it following, it offers its own recent blocks
//!   that still wait for a milestone (`own_blocks`, `messages.rs`).
//! * Any end of the stream closes the connection; known peers are redialled later.

use super::Service;
use crate::behaviour::StreamEvent;
use crate::events::GossipEvent;
use crate::packets::{to_frame, MilestoneRequest};
use crate::peers::{Relation, Stream};
use crate::session::{CloseReason, Session};
use bytes::Bytes;
use libp2p::swarm::{self, ConnectionId};
use libp2p::PeerId;
use std::time::Instant;

impl Service {
    pub(super) fn on_stream_event(&mut self, event: StreamEvent) {
        match event {
            StreamEvent::Inbound { peer, connection, stream } => {
                self.offer_stream(peer, connection, stream, false)
            }
            StreamEvent::Outbound { peer, connection, stream } => {
                if let Some(p) = self.peers.get_mut(&peer).filter(|p| p.opening == Some(connection))
                {
                    p.opening = None;
                }
                self.offer_stream(peer, connection, stream, true)
            }
            StreamEvent::OutboundFailed { peer, connection, reason } => {
                if let Some(p) = self.peers.get_mut(&peer).filter(|p| p.opening == Some(connection))
                {
                    p.opening = None;
                }
                self.emit(GossipEvent::StreamRefused {
                    peer,
                    reason: format!("could not open a gossip stream: {reason}"),
                });
                self.swarm.close_connection(connection);
            }
        }
    }

    fn offer_stream(
        &mut self,
        id: PeerId,
        connection: ConnectionId,
        stream: swarm::Stream,
        outbound: bool,
    ) {
        let unknown_streams = self.peers.unknown_streams();
        // A stream from a peer dropped meanwhile is simply dropped (and thereby reset).
        let Some(peer) = self.peers.get_mut(&id) else { return };
        if let Some(current) = &peer.stream {
            let we_open_the_kept_one = self.local < id;
            let keep_new = current.outbound != outbound && outbound == we_open_the_kept_one;
            if !keep_new {
                self.emit(GossipEvent::StreamRefused {
                    peer: id,
                    reason: "a gossip stream with this peer exists".into(),
                });
                return;
            }
            peer.stream = None;
            self.emit(GossipEvent::StreamClosed { peer: id, reason: CloseReason::Replaced });
        } else if peer.relation == Relation::Unknown
            && unknown_streams >= self.config.unknown_peers_limit
        {
            self.emit(GossipEvent::StreamRefused {
                peer: id,
                reason: "no slot left for unknown peers".into(),
            });
            let _ = self.swarm.disconnect_peer_id(id);
            return;
        }
        self.start_stream(id, connection, stream, outbound);
    }

    fn start_stream(
        &mut self,
        id: PeerId,
        connection: ConnectionId,
        stream: swarm::Stream,
        outbound: bool,
    ) {
        self.next_session += 1;
        let session = Session::spawn(
            id,
            self.next_session,
            stream,
            &self.config.timers,
            self.peers.get(&id).is_some_and(|p| p.relation == Relation::Unknown),
            self.sessions_tx.clone(),
            self.node_metrics.clone(),
        );
        // Heartbeat first, then "send me your latest milestone" (gossip.md §3).
        session.send(Bytes::from(to_frame(&self.heartbeat())));
        session.send(Bytes::from(to_frame(&MilestoneRequest::Latest)));
        let now = Instant::now();
        let Some(peer) = self.peers.get_mut(&id) else { return };
        peer.stream = Some(Stream {
            session,
            connection,
            outbound,
            started: now,
            heartbeat: None,
            heartbeat_received: None,
            heartbeat_sent: now,
            own_blocks_offered: false,
        });
        let relation = peer.relation;
        self.emit(GossipEvent::StreamOpened { peer: id, relation, outbound });
    }

    /// The current stream with `id` ended: forget it and close the connections to the peer
    /// (a known peer is redialled when the last one has closed).
    pub(super) fn end_stream(&mut self, id: PeerId, reason: CloseReason) {
        let Some(peer) = self.peers.get_mut(&id) else { return };
        if peer.stream.take().is_none() {
            return;
        }
        let _ = self.swarm.disconnect_peer_id(id);
        self.emit(GossipEvent::StreamClosed { peer: id, reason });
    }
}
