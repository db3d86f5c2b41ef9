//! How fast a remote address may open connections to the node (gossip.md §10, D53). Every
//! inbound connection costs the node its share of a Noise handshake (an X25519 key
//! agreement, an Ed25519 signature checked), Yamux, identify, ping and the peer's arrival
//! and departure, about 1.8 ms of CPU in all, before a byte of gossip is read; a peer
//! that reconnects as soon as it is dropped, about a hundred times a second, took a third
//! of a core that way. So each remote IP address has a token bucket of new connections,
//! checked before the handshake: past it the connection is closed unread, for the price of
//! a TCP accept. An honest peer opens one connection and keeps it; a node's peers
//! reconnecting at once after it restarts are within the burst, and peers the node dials
//! itself (its configured peers) are never gated.

use crate::address_budgets::{ip_of, AddressBudgets};
use libp2p::core::transport::PortUse;
use libp2p::core::Endpoint;
use libp2p::swarm::{
    dummy, ConnectionDenied, ConnectionId, FromSwarm, NetworkBehaviour, THandler, THandlerInEvent,
    THandlerOutEvent, ToSwarm,
};
use libp2p::{Multiaddr, PeerId};
use std::convert::Infallible;
use std::fmt;
use std::net::IpAddr;
use std::task::{Context, Poll};
use std::time::Instant;

/// New inbound connections a second from one IP address, once its burst is spent.
pub const CONNECTIONS_PER_SECOND: f64 = 10.0;
/// New inbound connections one IP address may open at once.
pub const CONNECTION_BURST: f64 = 20.0;

/// Why a connection was closed before its handshake.
#[derive(Debug)]
pub struct TooManyConnections(pub IpAddr);

impl fmt::Display for TooManyConnections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} opens more than {CONNECTIONS_PER_SECOND} connections a second (burst {CONNECTION_BURST})",
            self.0
        )
    }
}

impl std::error::Error for TooManyConnections {}

/// The behaviour: no protocol, no events; it only answers the swarm's question about each
/// pending inbound connection.
#[derive(Debug)]
pub struct InboundGate {
    rates: AddressBudgets,
}

impl Default for InboundGate {
    fn default() -> InboundGate {
        InboundGate { rates: AddressBudgets::new(CONNECTIONS_PER_SECOND, CONNECTION_BURST) }
    }
}

impl NetworkBehaviour for InboundGate {
    type ConnectionHandler = dummy::ConnectionHandler;
    type ToSwarm = Infallible;

    fn handle_pending_inbound_connection(
        &mut self,
        _: ConnectionId,
        _: &Multiaddr,
        remote: &Multiaddr,
    ) -> Result<(), ConnectionDenied> {
        match ip_of(remote) {
            Some(ip) if !self.rates.try_take(ip, Instant::now()) => {
                Err(ConnectionDenied::new(TooManyConnections(ip)))
            }
            _ => Ok(()),
        }
    }

    fn handle_established_inbound_connection(
        &mut self,
        _: ConnectionId,
        _: PeerId,
        _: &Multiaddr,
        _: &Multiaddr,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        Ok(dummy::ConnectionHandler)
    }

    fn handle_established_outbound_connection(
        &mut self,
        _: ConnectionId,
        _: PeerId,
        _: &Multiaddr,
        _: Endpoint,
        _: PortUse,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        Ok(dummy::ConnectionHandler)
    }

    fn on_swarm_event(&mut self, _: FromSwarm) {}

    fn on_connection_handler_event(
        &mut self,
        _: PeerId,
        _: ConnectionId,
        _: THandlerOutEvent<Self>,
    ) {
    }

    fn poll(&mut self, _: &mut Context<'_>) -> Poll<ToSwarm<Self::ToSwarm, THandlerInEvent<Self>>> {
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn an_address_gets_its_burst_then_the_rate() {
        let start = Instant::now();
        let mut gate = InboundGate::default();
        let ip = IpAddr::from([192, 0, 2, 1]);
        let burst = CONNECTION_BURST as usize;
        assert!((0..burst).all(|_| gate.rates.try_take(ip, start)));
        assert!(!gate.rates.try_take(ip, start), "one past the burst");
        // A peer reconnecting every millisecond for a second gets in at the rate.
        let ms = Duration::from_millis(1);
        let admitted = (1..=1_000u32).filter(|i| gate.rates.try_take(ip, start + ms * *i)).count();
        assert_eq!(admitted, CONNECTIONS_PER_SECOND as usize);
    }
}
