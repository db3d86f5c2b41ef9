//! The node's libp2p host (gossip.md §2): TCP only, multistream-select, Noise (XX, Ed25519
//! identity), Yamux; the whole connection setup bounded by the dial timeout, as Hornet's
//! `connTimeout`. go-libp2p peers (Hornet) offer Noise first and fall back from their early
//! muxer negotiation to multistream-select, which this stack answers.

use crate::behaviour::Behaviour;
use crate::config::Config;
use libp2p::core::transport::Transport;
use libp2p::core::upgrade::Version;
use libp2p::identity::Keypair;
use libp2p::swarm::{self, Swarm};
use libp2p::{noise, tcp, yamux};
use std::time::Duration;

/// Connections without a gossip stream (a duplicate from a simultaneous dial, an unknown
/// peer over the limit) are closed after this long without activity.
pub const IDLE_CONNECTION_TIMEOUT: Duration = Duration::from_secs(30);

pub fn build_swarm(keypair: &Keypair, config: &Config) -> Result<Swarm<Behaviour>, noise::Error> {
    let transport = tcp::tokio::Transport::new(tcp::Config::new().nodelay(true))
        .upgrade(Version::V1Lazy)
        .authenticate(noise::Config::new(keypair)?)
        .multiplex(yamux::Config::default())
        .timeout(config.timers.dial_timeout)
        .boxed();
    Ok(Swarm::new(
        transport,
        Behaviour::new(keypair, config),
        keypair.public().to_peer_id(),
        swarm::Config::with_tokio_executor().with_idle_connection_timeout(IDLE_CONNECTION_TIMEOUT),
    ))
}
