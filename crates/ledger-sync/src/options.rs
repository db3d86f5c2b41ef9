//! What the node tells gossip at start (`p2p.*`, `warpsync.*` of the configuration, already
//! parsed), and the gossip `Config` made of it for a store: warp sync only on a follower.

use ledger_gossip::{Config, Keypair, Multiaddr, PeerEntry};
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct SyncOptions {
    /// The network's published name: selects `/iota-gossip/<networkId>/1.0.0`.
    pub network_name: String,
    /// The node's p2p identity (`ledger_gossip::identity::load_or_create`).
    pub identity: Keypair,
    pub bind_addresses: Vec<Multiaddr>,
    /// Static peers; an entry with the node's own id is left out (gossip.md §8).
    pub peers: Vec<PeerEntry>,
    pub unknown_peers_limit: usize,
    pub reconnect_interval: Duration,
    /// Connection trimming of unknown peers (`p2p.connectionManager`).
    pub low_watermark: usize,
    pub high_watermark: usize,
    /// Milestones requested per warp-sync window (at least 1).
    pub warp_sync_range: u32,
}

impl SyncOptions {
    /// Hornet's defaults for a node of the network named `network_name`.
    pub fn new(network_name: impl Into<String>, identity: Keypair) -> SyncOptions {
        let defaults = Config::new(network_name);
        SyncOptions {
            identity,
            bind_addresses: defaults.bind_addresses,
            peers: defaults.static_peers,
            unknown_peers_limit: defaults.unknown_peers_limit,
            reconnect_interval: defaults.reconnect_interval,
            low_watermark: defaults.connection_manager.low_watermark,
            high_watermark: defaults.connection_manager.high_watermark,
            warp_sync_range: defaults.warp_sync_range,
            network_name: defaults.network_name,
        }
    }

    /// Gossip's configuration for a node that follows another coordinator (`follower`) or
    /// runs its own. Only a follower catches up with peers; the coordinator issues the
    /// milestones and never warp-syncs (a peer claiming a higher index must not stop its
    /// broadcasts, D43).
    pub fn gossip_config(&self, follower: bool) -> Config {
        let mut config = Config::new(self.network_name.clone());
        config.bind_addresses = self.bind_addresses.clone();
        let own = self.identity.public().to_peer_id();
        config.static_peers = self.peers.iter().filter(|p| p.peer_id != own).cloned().collect();
        config.unknown_peers_limit = self.unknown_peers_limit;
        config.reconnect_interval = self.reconnect_interval;
        config.connection_manager.low_watermark = self.low_watermark;
        config.connection_manager.high_watermark = self.high_watermark;
        config.warp_sync_range = self.warp_sync_range.max(1);
        config.warp_sync = follower;
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_leaves_out_the_own_id_and_warp_syncs_only_on_a_follower() {
        let identity = Keypair::generate_ed25519();
        let own = identity.public().to_peer_id();
        let other = Keypair::generate_ed25519().public().to_peer_id();
        let mut options = SyncOptions::new("ledger-devnet-v2", identity);
        options.bind_addresses = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
        options.peers = [own, other]
            .iter()
            .map(|id| PeerEntry::parse(&format!("/ip4/10.0.0.1/tcp/15600/p2p/{id}"), None).unwrap())
            .collect();
        options.warp_sync_range = 0;
        options.reconnect_interval = Duration::from_millis(1500);
        let config = options.gossip_config(true);
        assert_eq!(config.network_name, "ledger-devnet-v2");
        assert_eq!(config.bind_addresses, options.bind_addresses);
        assert_eq!(config.static_peers.iter().map(|p| p.peer_id).collect::<Vec<_>>(), [other]);
        assert_eq!(config.warp_sync_range, 1);
        assert_eq!(config.reconnect_interval, Duration::from_millis(1500));
        assert!(config.warp_sync);
        assert!(!options.gossip_config(false).warp_sync);
        assert_eq!(config.agent_version, format!("ledger-node/{}", env!("CARGO_PKG_VERSION")));
    }
}
