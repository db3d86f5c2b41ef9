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

use crate::budget::Budget;
use libp2p::core::transport::PortUse;
use libp2p::core::Endpoint;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::{
    dummy, ConnectionDenied, ConnectionId, FromSwarm, NetworkBehaviour, THandler, THandlerInEvent,
    THandlerOutEvent, ToSwarm,
};
use libp2p::{Multiaddr, PeerId};
use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;
use std::net::IpAddr;
use std::task::{Context, Poll};
use std::time::Instant;

/// New inbound connections a second from one IP address, once its burst is spent.
pub const CONNECTIONS_PER_SECOND: f64 = 10.0;
/// New inbound connections one IP address may open at once.
pub const CONNECTION_BURST: f64 = 20.0;
/// Addresses remembered before the ones whose buckets are full again are forgotten: a
/// full bucket is what a new address gets, so forgetting it changes nothing.
const REMEMBERED: usize = 4_096;

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

/// The per-address buckets, with the time passed in (tests need no clock).
#[derive(Debug, Default)]
pub struct ConnectionRates {
    buckets: HashMap<IpAddr, Budget>,
}

impl ConnectionRates {
    /// Whether `ip` may open one more connection at `now` (and count it if so). An IPv6
    /// address counts as its /64, the block one host is usually given.
    pub fn admit(&mut self, ip: IpAddr, now: Instant) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !(u64::MAX as u128)).into()),
            v4 => v4,
        };
        if self.buckets.len() >= REMEMBERED && !self.buckets.contains_key(&ip) {
            self.buckets.retain(|_, bucket| !bucket.is_full(now));
            if self.buckets.len() >= REMEMBERED {
                // As many addresses as remembered connected within the last moments: a
                // flood from many addresses. Those connected already stay; new ones wait.
                return false;
            }
        }
        self.buckets
            .entry(ip)
            .or_insert_with(|| Budget::new(CONNECTIONS_PER_SECOND, CONNECTION_BURST, now))
            .try_take(now)
    }

    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.buckets.len()
    }
}

/// The behaviour: no protocol, no events; it only answers the swarm's question about each
/// pending inbound connection.
#[derive(Debug, Default)]
pub struct InboundGate {
    rates: ConnectionRates,
}

/// The IP address a multiaddress starts with (none for the in-memory transport of tests).
fn ip_of(address: &Multiaddr) -> Option<IpAddr> {
    match address.iter().next()? {
        Protocol::Ip4(ip) => Some(IpAddr::V4(ip)),
        Protocol::Ip6(ip) => Some(IpAddr::V6(ip)),
        _ => None,
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
            Some(ip) if !self.rates.admit(ip, Instant::now()) => {
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

    const MS: Duration = Duration::from_millis(1);

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, last])
    }

    #[test]
    fn an_address_gets_its_burst_then_the_rate() {
        let start = Instant::now();
        let mut rates = ConnectionRates::default();
        let burst = CONNECTION_BURST as usize;
        assert!((0..burst).all(|_| rates.admit(ip(1), start)));
        assert!(!rates.admit(ip(1), start), "one past the burst");
        // A peer reconnecting every millisecond for a second gets in at the rate.
        let admitted = (1..=1_000u32).filter(|i| rates.admit(ip(1), start + MS * *i)).count();
        assert_eq!(admitted, CONNECTIONS_PER_SECOND as usize);
    }

    #[test]
    fn addresses_are_counted_apart() {
        let now = Instant::now();
        let mut rates = ConnectionRates::default();
        while rates.admit(ip(1), now) {}
        assert!(rates.admit(ip(2), now), "another address is not held back by the first");
    }

    #[test]
    fn the_remembered_addresses_stay_bounded() {
        let start = Instant::now();
        let mut rates = ConnectionRates::default();
        for i in 0..(3 * REMEMBERED as u32) {
            let ip = IpAddr::from(i.to_be_bytes());
            assert!(rates.admit(ip, start + MS * i), "a new address gets in");
            assert!(rates.remembered() <= REMEMBERED);
        }
    }

    #[test]
    fn an_ipv6_host_counts_as_its_slash_64() {
        let now = Instant::now();
        let mut rates = ConnectionRates::default();
        let host = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, last]);
        let admitted = (0..1_000).filter(|i| rates.admit(host(*i), now)).count();
        assert_eq!(admitted, CONNECTION_BURST as usize);
        assert!(rates.admit(IpAddr::from([0x2001, 0xdb8, 0, 2, 0, 0, 0, 1]), now));
    }

    #[test]
    fn a_flood_from_more_addresses_than_remembered_is_held_back() {
        let now = Instant::now();
        let mut rates = ConnectionRates::default();
        for i in 0..REMEMBERED as u32 {
            assert!(rates.admit(IpAddr::from(i.to_be_bytes()), now));
        }
        assert!(!rates.admit(IpAddr::from([203, 0, 113, 1]), now), "all remembered are recent");
        assert!(rates.admit(IpAddr::from([203, 0, 113, 1]), now + Duration::from_secs(1)));
        assert!(rates.remembered() <= REMEMBERED);
    }

    #[test]
    fn only_ip_addresses_are_gated() {
        assert_eq!(
            ip_of(&"/ip4/127.0.0.1/tcp/15600".parse().unwrap()),
            Some(IpAddr::from([127, 0, 0, 1]))
        );
        assert_eq!(ip_of(&"/memory/42".parse().unwrap()), None);
    }
}
