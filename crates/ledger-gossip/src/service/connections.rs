//! Connections (gossip.md §8; Hornet `pkg/p2p/manager.go`): known peers are dialled at
//! start and redialled `reconnect_interval` (+ jitter) after they disconnect or a dial
//! fails; unknown peers appear when they connect and are forgotten when they disconnect,
//! and their connections are trimmed above the high watermark.

use super::Service;
use crate::address_budgets::ip_of;
use crate::config::PeerEntry;
use crate::events::{DropReason, GossipEvent};
use crate::peers::{Connection, Peer, PeerInfo, Relation};
use crate::session::CloseReason;
use futures::FutureExt;
use libp2p::core::ConnectedPoint;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::dial_opts::{DialOpts, PeerCondition};
use libp2p::swarm::{ConnectionId, DialError};
use libp2p::{Multiaddr, PeerId};
use rand::Rng;
use std::time::Instant;

impl Service {
    /// Make `entry` a known peer (from the peer list or the REST API) and connect to it.
    pub(super) fn add_peer(&mut self, entry: PeerEntry) -> PeerInfo {
        let id = entry.peer_id;
        match self.peers.get_mut(&id) {
            None => {
                self.peers.map.insert(id, Peer::known(&entry));
                self.dial(id);
            }
            Some(peer) => {
                peer.relation = Relation::Known;
                if entry.alias.is_some() {
                    peer.alias = entry.alias.clone();
                }
                peer.addresses.retain(|a| *a != entry.address);
                peer.addresses.insert(0, entry.address.clone());
                if !peer.is_connected() {
                    self.dial(id);
                } else if peer.stream.is_none() && peer.opening.is_none() {
                    // A connected inbound peer that becomes known: open the stream ourselves
                    // (gossip.md §3, the exception to "the dialer opens").
                    let connection = peer
                        .connections
                        .iter()
                        .max_by_key(|(_, c)| c.outbound)
                        .map(|(id, _)| *id)
                        .expect("a connected peer has a connection");
                    peer.opening = Some(connection);
                    self.swarm.behaviour_mut().streams.open(id, connection);
                }
            }
        }
        self.peers.get(&id).expect("just added").info(id)
    }

    /// Forget a peer and disconnect it. Returns whether it was there.
    pub(super) fn remove_peer(&mut self, id: PeerId) -> bool {
        let Some(mut peer) = self.peers.map.remove(&id) else { return false };
        if peer.stream.take().is_some() {
            self.emit(GossipEvent::StreamClosed { peer: id, reason: CloseReason::Dropped });
        }
        let _ = self.swarm.disconnect_peer_id(id);
        true
    }

    /// Disconnect a misbehaving or unhealthy peer (D49): a known peer stays on the list and
    /// is redialled later, unless `remove`; others are forgotten.
    pub(super) fn drop_peer(&mut self, id: PeerId, reason: DropReason, remove: bool) {
        let Some(peer) = self.peers.get_mut(&id) else { return };
        let removed = remove || peer.relation != Relation::Known;
        if removed {
            self.remove_peer(id);
        } else {
            if peer.stream.take().is_some() {
                self.emit(GossipEvent::StreamClosed { peer: id, reason: CloseReason::Dropped });
            }
            let _ = self.swarm.disconnect_peer_id(id);
        }
        self.emit(GossipEvent::PeerDropped { peer: id, reason, removed });
    }

    fn dial(&mut self, id: PeerId) {
        let Some(peer) = self.peers.get(&id) else { return };
        let opts = DialOpts::peer_id(id)
            .addresses(peer.addresses.clone())
            .condition(PeerCondition::DisconnectedAndNotDialing)
            .build();
        match self.swarm.dial(opts) {
            Ok(()) | Err(DialError::DialPeerConditionFalse(_)) => {}
            Err(e) => self.on_dial_failure(id, e.to_string()),
        }
    }

    pub(super) fn on_dial_failure(&mut self, id: PeerId, error: String) {
        let Some(peer) = self.peers.get(&id) else { return };
        if peer.relation == Relation::Known && !peer.is_connected() {
            self.emit(GossipEvent::DialFailed { peer: id, error });
            self.schedule_redial(id);
        }
    }

    fn schedule_redial(&mut self, id: PeerId) {
        let Some(peer) = self.peers.get_mut(&id) else { return };
        if peer.relation != Relation::Known || peer.redial_scheduled {
            return;
        }
        peer.redial_scheduled = true;
        let jitter = self.config.reconnect_jitter;
        let jitter = if jitter.is_zero() {
            jitter
        } else {
            rand::thread_rng().gen_range(std::time::Duration::ZERO..jitter)
        };
        let delay = self.config.reconnect_interval + jitter;
        self.redials.push(tokio::time::sleep(delay).map(move |()| id).boxed());
    }

    pub(super) fn redial(&mut self, id: PeerId) {
        let Some(peer) = self.peers.get_mut(&id) else { return };
        peer.redial_scheduled = false;
        if peer.relation == Relation::Known && !peer.is_connected() {
            self.dial(id);
        }
    }

    pub(super) fn on_connection_established(
        &mut self,
        id: PeerId,
        connection: ConnectionId,
        endpoint: &ConnectedPoint,
    ) {
        let outbound = endpoint.is_dialer();
        let mut remote = endpoint.get_remote_address().clone();
        if matches!(remote.iter().last(), Some(Protocol::P2p(_))) {
            remote.pop();
        }
        let unknown_streams = self.peers.unknown_streams();
        let remote_ip = ip_of(&remote);
        let peer = self.peers.map.entry(id).or_insert_with(|| Peer::unknown(remote));
        peer.connections
            .insert(connection, Connection { outbound, since: Instant::now(), remote_ip });
        // The side that dialled opens the stream (gossip.md §3); the listener waits for it.
        if !outbound || peer.stream.is_some() || peer.opening.is_some() {
            return;
        }
        if peer.relation == Relation::Unknown && unknown_streams >= self.config.unknown_peers_limit
        {
            self.swarm.close_connection(connection);
            return;
        }
        peer.opening = Some(connection);
        self.swarm.behaviour_mut().streams.open(id, connection);
    }

    pub(super) fn on_connection_closed(&mut self, id: PeerId, connection: ConnectionId) {
        let Some(peer) = self.peers.get_mut(&id) else { return };
        peer.connections.remove(&connection);
        if peer.opening == Some(connection) {
            peer.opening = None;
        }
        if peer.stream.as_ref().is_some_and(|s| s.connection == connection) {
            peer.stream = None;
            self.emit(GossipEvent::StreamClosed {
                peer: id,
                reason: CloseReason::ConnectionClosed,
            });
        }
        let Some(peer) = self.peers.get(&id) else { return };
        if !peer.is_connected() {
            match peer.relation {
                Relation::Known => self.schedule_redial(id),
                Relation::Unknown => {
                    self.peers.map.remove(&id);
                }
            }
        }
    }

    /// An unknown peer's addresses are where it listens, as it says in identify, rather than
    /// the ephemeral port it connected from. Known peers keep their configured address.
    pub(super) fn on_identified(&mut self, id: PeerId, listen_addresses: Vec<Multiaddr>) {
        let Some(peer) = self.peers.get_mut(&id).filter(|p| p.relation == Relation::Unknown) else {
            return;
        };
        let addresses: Vec<Multiaddr> = listen_addresses
            .into_iter()
            .map(|mut a| {
                if matches!(a.iter().last(), Some(Protocol::P2p(_))) {
                    a.pop();
                }
                a
            })
            .collect();
        if !addresses.is_empty() {
            peer.addresses = addresses;
        }
    }

    /// Above the high watermark of connected peers, disconnect unknown peers connected for
    /// longer than the grace period — those without a gossip stream first, then the oldest
    /// — down to the low watermark. Known peers are never trimmed.
    pub(super) fn trim_connections(&mut self, now: Instant) {
        let limits = self.config.connection_manager;
        let mut connected = self.peers.connected_count();
        if connected <= limits.high_watermark {
            return;
        }
        let mut candidates: Vec<(bool, Instant, PeerId)> = self
            .peers
            .map
            .iter()
            .filter(|(_, p)| p.relation == Relation::Unknown)
            .filter_map(|(id, p)| Some((p.stream.is_some(), p.connected_since()?, *id)))
            .filter(|(_, since, _)| now.duration_since(*since) >= limits.grace)
            .collect();
        candidates.sort();
        for (_, _, id) in candidates {
            if connected <= limits.low_watermark {
                break;
            }
            self.drop_peer(id, DropReason::Trimmed, true);
            connected -= 1;
        }
    }
}
