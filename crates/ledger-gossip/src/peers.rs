//! The peers the node knows of (gossip.md §8; Hornet `pkg/p2p/manager.go`): `known` peers
//! from the peer list, kept connected and never trimmed, and `unknown` peers that connected
//! on their own, forgotten when they disconnect. Each has its connections and at most one
//! gossip stream, with the stream's last heartbeat.

use crate::config::PeerEntry;
use crate::metrics::PeerMetricsSnapshot;
use crate::packets::Heartbeat;
use crate::session::Session;
use libp2p::swarm::ConnectionId;
use libp2p::{Multiaddr, PeerId};
use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Known,
    Unknown,
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Known => "known",
            Relation::Unknown => "unknown",
        })
    }
}

pub struct Connection {
    /// We dialed it (the dialer opens the gossip stream).
    pub outbound: bool,
    pub since: Instant,
    /// The remote side's IP address (none on the in-memory transport of tests).
    pub remote_ip: Option<IpAddr>,
}

/// A running gossip stream with a peer.
pub struct Stream {
    pub session: Session,
    pub connection: ConnectionId,
    /// We opened it (for the tie-break between two streams, gossip.md §3).
    pub outbound: bool,
    pub started: Instant,
    pub heartbeat: Option<Heartbeat>,
    pub heartbeat_received: Option<Instant>,
    pub heartbeat_sent: Instant,
    /// The node's own blocks waiting for a milestone were offered (once, at the first
    /// heartbeat that shows the peer following, or the first heartbeat check after it, once
    /// the stream is old enough: `own_blocks_due`).
    pub own_blocks_offered: bool,
}

impl Stream {
    /// Whether the node's own waiting blocks are to be offered now: not offered yet, the
    /// last heartbeat says the peer follows our `confirmed` milestone, and the stream has
    /// lived `after` (`Timers::own_blocks_offer_after`).
    pub fn own_blocks_due(&self, confirmed: u32, now: Instant, after: Duration) -> bool {
        !self.own_blocks_offered
            && self.heartbeat.is_some_and(|h| h.follows(confirmed))
            && now.saturating_duration_since(self.started) >= after
    }
}

pub struct Peer {
    pub relation: Relation,
    pub alias: Option<String>,
    /// Where to dial it (known) or where it came from (unknown), without `/p2p/`.
    pub addresses: Vec<Multiaddr>,
    pub connections: HashMap<ConnectionId, Connection>,
    pub stream: Option<Stream>,
    /// The connection on which we asked for a stream that is not there yet.
    pub opening: Option<ConnectionId>,
    /// A redial is scheduled.
    pub redial_scheduled: bool,
}

impl Peer {
    pub fn known(entry: &PeerEntry) -> Peer {
        Peer {
            relation: Relation::Known,
            alias: entry.alias.clone(),
            addresses: vec![entry.address.clone()],
            connections: HashMap::new(),
            stream: None,
            opening: None,
            redial_scheduled: false,
        }
    }

    pub fn unknown(address: Multiaddr) -> Peer {
        Peer {
            relation: Relation::Unknown,
            alias: None,
            addresses: vec![address],
            connections: HashMap::new(),
            stream: None,
            opening: None,
            redial_scheduled: false,
        }
    }

    pub fn is_connected(&self) -> bool {
        !self.connections.is_empty()
    }

    pub fn connected_since(&self) -> Option<Instant> {
        self.connections.values().map(|c| c.since).min()
    }

    pub fn info(&self, id: PeerId) -> PeerInfo {
        PeerInfo {
            id,
            addresses: self.addresses.clone(),
            alias: self.alias.clone(),
            relation: self.relation,
            connected: self.is_connected(),
            gossip: self.stream.as_ref().map(|s| GossipInfo {
                heartbeat: s.heartbeat,
                metrics: s.session.metrics.snapshot(),
            }),
        }
    }
}

#[derive(Default)]
pub struct Peers {
    pub map: HashMap<PeerId, Peer>,
}

impl Peers {
    pub fn get(&self, id: &PeerId) -> Option<&Peer> {
        self.map.get(id)
    }

    pub fn get_mut(&mut self, id: &PeerId) -> Option<&mut Peer> {
        self.map.get_mut(id)
    }

    /// Peers with at least one connection (a heartbeat's "connected peers").
    pub fn connected_count(&self) -> usize {
        self.map.values().filter(|p| p.is_connected()).count()
    }

    /// Gossip streams whose peer's last heartbeat says it is synced (a heartbeat's "synced peers").
    pub fn synced_count(&self, own_confirmed: u32) -> usize {
        self.streams()
            .filter(|(_, s)| s.heartbeat.is_some_and(|h| h.is_synced(own_confirmed)))
            .count()
    }

    /// Unknown peers holding a gossip stream (limited by `p2p.unknownPeersLimit`).
    pub fn unknown_streams(&self) -> usize {
        self.map.values().filter(|p| p.relation == Relation::Unknown && p.stream.is_some()).count()
    }

    pub fn streams(&self) -> impl Iterator<Item = (&PeerId, &Stream)> {
        self.map.iter().filter_map(|(id, p)| p.stream.as_ref().map(|s| (id, s)))
    }

    /// The streams whose peer's last heartbeat says it follows a node confirmed up to
    /// `own_confirmed` (`Heartbeat::follows`; gossip.md §5): the only ones blocks are
    /// broadcast to. A stream that never says where it is (such as one held open with a
    /// header and no body), or a peer far behind (catching up by requests, or lying about it),
    /// gets nothing to encrypt and write.
    pub fn following_streams(
        &self,
        own_confirmed: u32,
    ) -> impl Iterator<Item = (&PeerId, &Stream)> {
        self.streams().filter(move |(_, s)| s.heartbeat.is_some_and(|h| h.follows(own_confirmed)))
    }

    pub fn streams_mut(&mut self) -> impl Iterator<Item = (&PeerId, &mut Stream)> {
        self.map.iter_mut().filter_map(|(id, p)| p.stream.as_mut().map(|s| (id, s)))
    }

    /// The stream with `peer`, if it is the one with this session id.
    pub fn session(&mut self, peer: &PeerId, session: u64) -> Option<&mut Stream> {
        self.map.get_mut(peer)?.stream.as_mut().filter(|s| s.session.id == session)
    }
}

/// A peer as the REST API shows it (gossip.md §9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerInfo {
    pub id: PeerId,
    /// Without the `/p2p/<id>` part.
    pub addresses: Vec<Multiaddr>,
    pub alias: Option<String>,
    pub relation: Relation,
    pub connected: bool,
    /// Present while a gossip stream exists.
    pub gossip: Option<GossipInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GossipInfo {
    /// `None` until the first heartbeat arrived.
    pub heartbeat: Option<Heartbeat>,
    pub metrics: PeerMetricsSnapshot,
}
