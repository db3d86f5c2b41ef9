//! Per-connection half of the gossip stream behaviour: negotiates `/iota-gossip/<id>/1.0.0`
//! streams on one connection and hands them, unread, to the behaviour. Whether a stream is
//! wanted (one per peer, relation limits) is decided above, with all connections in view.
//!
//! The handler never keeps the connection alive by itself: an open gossip stream does (the
//! swarm counts active streams), and without one the connection may close when idle.

use libp2p::core::upgrade::ReadyUpgrade;
use libp2p::swarm::handler::{
    ConnectionEvent, DialUpgradeError, FullyNegotiatedInbound, FullyNegotiatedOutbound,
};
use libp2p::swarm::{
    ConnectionHandler, ConnectionHandlerEvent, Stream, StreamUpgradeError, SubstreamProtocol,
};
use libp2p::StreamProtocol;
use std::collections::VecDeque;
use std::task::{Context, Poll};
use std::time::Duration;

/// From the behaviour: open one outbound gossip stream on this connection.
#[derive(Debug)]
pub struct OpenStream;

/// To the behaviour.
#[derive(Debug)]
pub enum HandlerEvent {
    /// The remote opened a gossip stream.
    Inbound(Stream),
    /// The stream we asked for is ready.
    Outbound(Stream),
    /// The stream we asked for could not be opened (refused protocol, timeout, I/O).
    OutboundFailed(String),
}

pub struct Handler {
    protocol: StreamProtocol,
    open_timeout: Duration,
    /// Outbound streams asked for and not yet requested from the connection.
    to_open: usize,
    events: VecDeque<HandlerEvent>,
}

impl Handler {
    pub fn new(protocol: StreamProtocol, open_timeout: Duration) -> Handler {
        Handler { protocol, open_timeout, to_open: 0, events: VecDeque::new() }
    }
}

impl ConnectionHandler for Handler {
    type FromBehaviour = OpenStream;
    type ToBehaviour = HandlerEvent;
    type InboundProtocol = ReadyUpgrade<StreamProtocol>;
    type OutboundProtocol = ReadyUpgrade<StreamProtocol>;
    type InboundOpenInfo = ();
    type OutboundOpenInfo = ();

    fn listen_protocol(&self) -> SubstreamProtocol<Self::InboundProtocol> {
        SubstreamProtocol::new(ReadyUpgrade::new(self.protocol.clone()), ())
            .with_timeout(self.open_timeout)
    }

    fn on_behaviour_event(&mut self, OpenStream: OpenStream) {
        self.to_open += 1;
    }

    fn poll(
        &mut self,
        _cx: &mut Context<'_>,
    ) -> Poll<ConnectionHandlerEvent<Self::OutboundProtocol, (), Self::ToBehaviour>> {
        if let Some(event) = self.events.pop_front() {
            return Poll::Ready(ConnectionHandlerEvent::NotifyBehaviour(event));
        }
        if self.to_open > 0 {
            self.to_open -= 1;
            let protocol = SubstreamProtocol::new(ReadyUpgrade::new(self.protocol.clone()), ())
                .with_timeout(self.open_timeout);
            return Poll::Ready(ConnectionHandlerEvent::OutboundSubstreamRequest { protocol });
        }
        Poll::Pending
    }

    fn on_connection_event(
        &mut self,
        event: ConnectionEvent<Self::InboundProtocol, Self::OutboundProtocol>,
    ) {
        match event {
            ConnectionEvent::FullyNegotiatedInbound(FullyNegotiatedInbound {
                protocol: stream,
                ..
            }) => {
                self.events.push_back(HandlerEvent::Inbound(stream));
            }
            ConnectionEvent::FullyNegotiatedOutbound(FullyNegotiatedOutbound {
                protocol: stream,
                ..
            }) => {
                self.events.push_back(HandlerEvent::Outbound(stream));
            }
            ConnectionEvent::DialUpgradeError(DialUpgradeError { error, .. }) => {
                let reason = match error {
                    StreamUpgradeError::Timeout => "timed out".to_string(),
                    StreamUpgradeError::NegotiationFailed => {
                        "the peer does not speak this network's gossip protocol".to_string()
                    }
                    StreamUpgradeError::Io(e) => e.to_string(),
                    StreamUpgradeError::Apply(never) => libp2p::core::util::unreachable(never),
                };
                self.events.push_back(HandlerEvent::OutboundFailed(reason));
            }
            _ => {}
        }
    }
}
