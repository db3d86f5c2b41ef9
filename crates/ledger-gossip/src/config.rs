//! What the gossip service is told at start (gossip.md §1, §11). Every limit and timer of
//! §11 has Hornet's value as default; tests shorten timers to observe them quickly.

use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId, StreamProtocol};
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct Config {
    /// The network's published name (D4); selects the stream protocol (gossip.md §3).
    pub network_name: String,
    /// TCP listen addresses (`p2p.bindMultiAddresses`).
    pub bind_addresses: Vec<Multiaddr>,
    /// Peers dialled at start and kept connected as `known` (`p2p.peers`).
    pub static_peers: Vec<PeerEntry>,
    /// Inbound peers outside the peer list that may hold a gossip stream (`p2p.unknownPeersLimit`).
    pub unknown_peers_limit: usize,
    /// Redial interval for disconnected `known` peers, plus up to `reconnect_jitter`.
    pub reconnect_interval: Duration,
    pub reconnect_jitter: Duration,
    /// Trimming of `unknown` peers' connections (`p2p.connectionManager`).
    pub connection_manager: ConnectionManager,
    /// Catch up with peers ahead by warp sync (§7). Off on the network's coordinator: it
    /// issues the milestones and has nobody to catch up with (D43), and a peer reporting a
    /// higher index must not make it "not synced" (it would stop broadcasting).
    pub warp_sync: bool,
    /// Milestones asked for per warp-sync window (`warpsync.advancementRange`, §7).
    pub warp_sync_range: u32,
    pub timers: Timers,
    /// Sent in identify (gossip.md §2): `ledger-node/<version>`.
    pub agent_version: String,
    /// Worker threads of the service's own Tokio runtime (never the Node event loop).
    pub runtime_threads: usize,
}

impl Config {
    /// Hornet's defaults for a node of the network named `network_name`.
    pub fn new(network_name: impl Into<String>) -> Config {
        Config {
            network_name: network_name.into(),
            bind_addresses: vec![
                "/ip4/0.0.0.0/tcp/15600".parse().expect("valid multiaddr"),
                "/ip6/::/tcp/15600".parse().expect("valid multiaddr"),
            ],
            static_peers: Vec::new(),
            unknown_peers_limit: 4,
            reconnect_interval: Duration::from_secs(30),
            reconnect_jitter: Duration::from_secs(1),
            connection_manager: ConnectionManager::default(),
            warp_sync: true,
            warp_sync_range: 150,
            timers: Timers::default(),
            agent_version: format!("ledger-node/{}", env!("CARGO_PKG_VERSION")),
            runtime_threads: 2,
        }
    }

    /// `/iota-gossip/<networkId>/1.0.0`, the network id in decimal (gossip.md §3).
    pub fn protocol(&self) -> StreamProtocol {
        protocol_for(&self.network_name)
    }
}

/// The gossip stream protocol of a network.
pub fn protocol_for(network_name: &str) -> StreamProtocol {
    let id = ledger_core::protocol::network_id(network_name);
    // The string always starts with '/', which is all a stream protocol name requires.
    StreamProtocol::try_from_owned(format!("/iota-gossip/{id}/1.0.0"))
        .expect("protocol name starts with '/'")
}

/// Connection trimming of `unknown` peers: above `high_watermark` connected peers, unknown
/// peers connected for longer than `grace` are disconnected down to `low_watermark`.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionManager {
    pub low_watermark: usize,
    pub high_watermark: usize,
    pub grace: Duration,
}

impl Default for ConnectionManager {
    fn default() -> Self {
        ConnectionManager { low_watermark: 5, high_watermark: 10, grace: Duration::from_secs(60) }
    }
}

/// Limits and timers of gossip.md §11 (Hornet's values by default).
#[derive(Clone, Copy, Debug)]
pub struct Timers {
    /// Establishing a connection: TCP, Noise and Yamux together.
    pub dial_timeout: Duration,
    /// Negotiating the gossip stream on a connection.
    pub stream_open_timeout: Duration,
    /// A stream on which nothing arrives for this long ends (the idle wait between
    /// messages: heartbeats keep a healthy stream busy).
    pub read_timeout: Duration,
    /// Once a message has begun, the rest of it must arrive within this much time spent
    /// waiting for it (gossip.md §10: a header without its body).
    pub body_timeout: Duration,
    /// Each write must finish within this.
    pub write_timeout: Duration,
    /// Messages queued per peer; more are dropped and counted.
    pub send_queue: usize,
    /// How often heartbeats are checked, resent and (for peers) judged.
    pub heartbeat_check_interval: Duration,
    /// A peer that was sent nothing for this long gets a heartbeat.
    pub heartbeat_resend: Duration,
    /// A new stream must bring a first heartbeat within this.
    pub heartbeat_grace: Duration,
    /// A peer whose last heartbeat is older than this is dropped.
    pub heartbeat_expiry: Duration,
    /// A stream is offered the node's own blocks that wait for a milestone once it is this
    /// old (and its peer follows, D50 (3)). A stranger that connects only to misbehave is
    /// dropped long before: one that reconnected a dozen times a second with a fresh
    /// identity had been sent a second's worth of the node's blocks each time.
    pub own_blocks_offer_after: Duration,
    /// Pending requests are sent again this often.
    pub request_retry: Duration,
    /// Requests not marked "keep" are given up after this.
    pub request_discard: Duration,
    /// How long a received block's work unit (its senders, its verdict) is remembered.
    pub work_unit_ttl: Duration,
    /// Warp sync asks for its windows again when the confirmed index has not moved for
    /// this long (the solidification of a milestone above it failed).
    pub warp_sync_stall: Duration,
}

impl Default for Timers {
    fn default() -> Self {
        Timers {
            dial_timeout: Duration::from_secs(5),
            stream_open_timeout: Duration::from_secs(4),
            read_timeout: Duration::from_secs(60),
            body_timeout: Duration::from_secs(5),
            write_timeout: Duration::from_secs(10),
            send_queue: 1000,
            heartbeat_check_interval: Duration::from_secs(5),
            heartbeat_resend: Duration::from_secs(30),
            heartbeat_grace: Duration::from_secs(5),
            heartbeat_expiry: Duration::from_secs(100),
            own_blocks_offer_after: Duration::from_secs(2),
            request_retry: Duration::from_secs(5),
            request_discard: Duration::from_secs(15),
            work_unit_ttl: Duration::from_secs(5),
            warp_sync_stall: Duration::from_secs(10),
        }
    }
}

/// A peer of the peer list: `/ip4/…/tcp/…/p2p/<peerId>` and an optional alias (Hornet's
/// `peering.json` entry). The address is kept without its `/p2p/` part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerEntry {
    pub peer_id: PeerId,
    pub address: Multiaddr,
    pub alias: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PeerAddressError {
    #[error("{0:?} is not a multiaddress")]
    Malformed(String),
    #[error("{0} does not end with /p2p/<peerId>")]
    MissingPeerId(String),
}

impl PeerEntry {
    pub fn parse(
        multi_address: &str,
        alias: Option<String>,
    ) -> Result<PeerEntry, PeerAddressError> {
        let mut address: Multiaddr = multi_address
            .trim()
            .parse()
            .map_err(|_| PeerAddressError::Malformed(multi_address.to_string()))?;
        match address.pop() {
            Some(Protocol::P2p(peer_id)) if !address.is_empty() => {
                Ok(PeerEntry { peer_id, address, alias: alias.filter(|a| !a.is_empty()) })
            }
            _ => Err(PeerAddressError::MissingPeerId(multi_address.to_string())),
        }
    }

    /// The address with its `/p2p/<peerId>` part, as configured.
    pub fn multi_address(&self) -> Multiaddr {
        self.address.clone().with(Protocol::P2p(self.peer_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_ids_of_the_spec() {
        assert_eq!(
            protocol_for("ledger-devnet-v2").as_ref(),
            "/iota-gossip/5140426672903325834/1.0.0"
        );
        assert_eq!(
            protocol_for("private_tangle1").as_ref(),
            "/iota-gossip/8453507715857476362/1.0.0"
        );
        assert_eq!(
            protocol_for("shimmer-mainnet").as_ref(),
            "/iota-gossip/11925247321853265534/1.0.0"
        );
        assert_eq!(protocol_for("iota-mainnet").as_ref(), "/iota-gossip/9374574019616453254/1.0.0");
    }

    #[test]
    fn peer_entries_need_a_peer_id() {
        let entry = PeerEntry::parse(
            "/ip4/127.0.0.1/tcp/15611/p2p/12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY",
            Some("hornet-1".into()),
        )
        .unwrap();
        assert_eq!(entry.address.to_string(), "/ip4/127.0.0.1/tcp/15611");
        assert_eq!(
            entry.peer_id.to_string(),
            "12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY"
        );
        assert_eq!(
            entry.multi_address().to_string(),
            "/ip4/127.0.0.1/tcp/15611/p2p/12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY"
        );
        assert_eq!(
            PeerEntry::parse(&entry.multi_address().to_string(), Some(String::new()))
                .unwrap()
                .alias,
            None
        );

        assert!(matches!(
            PeerEntry::parse("/ip4/127.0.0.1/tcp/15611", None),
            Err(PeerAddressError::MissingPeerId(_))
        ));
        assert!(matches!(
            PeerEntry::parse("/p2p/12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY", None),
            Err(PeerAddressError::MissingPeerId(_))
        ));
        assert!(matches!(
            PeerEntry::parse("127.0.0.1:15611", None),
            Err(PeerAddressError::Malformed(_))
        ));
    }
}
