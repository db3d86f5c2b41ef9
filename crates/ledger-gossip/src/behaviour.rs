//! The libp2p side of the node: one behaviour per concern, composed with the derive macro
//! (gossip.md §2): the `InboundGate`, which turns away addresses that connect too often
//! before their handshake; identify and ping, as every go-libp2p host serves them; and
//! `Streams`, which opens and accepts gossip streams and reports each with the connection
//! it lives on. The service decides what to do with them; nothing here reads a byte.

use crate::config::Config;
use crate::handler::{Handler, HandlerEvent, OpenStream};
use crate::inbound_gate::InboundGate;
use libp2p::core::transport::PortUse;
use libp2p::core::Endpoint;
use libp2p::identity::Keypair;
use libp2p::swarm::{
    ConnectionDenied, ConnectionId, FromSwarm, NetworkBehaviour, NotifyHandler, Stream, THandler,
    THandlerInEvent, THandlerOutEvent, ToSwarm,
};
use libp2p::{identify, ping, Multiaddr, PeerId, StreamProtocol};
use std::collections::VecDeque;
use std::task::{Context, Poll};
use std::time::Duration;

#[derive(NetworkBehaviour)]
pub struct Behaviour {
    /// First, so that a connection it turns away costs no other behaviour anything.
    pub gate: InboundGate,
    pub identify: identify::Behaviour,
    pub ping: ping::Behaviour,
    pub streams: Streams,
}

impl Behaviour {
    /// The node's behaviour: identify with the node's agent version, ping with go-libp2p's
    /// defaults, and the gossip stream protocol of the configured network.
    pub fn new(keypair: &Keypair, config: &Config) -> Behaviour {
        Behaviour {
            gate: InboundGate::default(),
            identify: identify::Behaviour::new(
                identify::Config::new("ipfs/0.1.0".to_string(), keypair.public())
                    .with_agent_version(config.agent_version.clone()),
            ),
            ping: ping::Behaviour::new(ping::Config::new()),
            streams: Streams::new(config.protocol(), config.timers.stream_open_timeout),
        }
    }
}

/// A gossip stream, fully negotiated, and where it came from.
#[derive(Debug)]
pub enum StreamEvent {
    Inbound { peer: PeerId, connection: ConnectionId, stream: Stream },
    Outbound { peer: PeerId, connection: ConnectionId, stream: Stream },
    OutboundFailed { peer: PeerId, connection: ConnectionId, reason: String },
}

pub struct Streams {
    protocol: StreamProtocol,
    open_timeout: Duration,
    actions: VecDeque<ToSwarm<StreamEvent, OpenStream>>,
}

impl Streams {
    pub fn new(protocol: StreamProtocol, open_timeout: Duration) -> Streams {
        Streams { protocol, open_timeout, actions: VecDeque::new() }
    }

    /// Open a gossip stream to `peer` on this very connection.
    pub fn open(&mut self, peer: PeerId, connection: ConnectionId) {
        self.actions.push_back(ToSwarm::NotifyHandler {
            peer_id: peer,
            handler: NotifyHandler::One(connection),
            event: OpenStream,
        });
    }
}

impl NetworkBehaviour for Streams {
    type ConnectionHandler = Handler;
    type ToSwarm = StreamEvent;

    fn handle_established_inbound_connection(
        &mut self,
        _: ConnectionId,
        _: PeerId,
        _: &Multiaddr,
        _: &Multiaddr,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        Ok(Handler::new(self.protocol.clone(), self.open_timeout))
    }

    fn handle_established_outbound_connection(
        &mut self,
        _: ConnectionId,
        _: PeerId,
        _: &Multiaddr,
        _: Endpoint,
        _: PortUse,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        Ok(Handler::new(self.protocol.clone(), self.open_timeout))
    }

    fn on_swarm_event(&mut self, _: FromSwarm) {}

    fn on_connection_handler_event(
        &mut self,
        peer: PeerId,
        connection: ConnectionId,
        event: THandlerOutEvent<Self>,
    ) {
        self.actions.push_back(ToSwarm::GenerateEvent(match event {
            HandlerEvent::Inbound(stream) => StreamEvent::Inbound { peer, connection, stream },
            HandlerEvent::Outbound(stream) => StreamEvent::Outbound { peer, connection, stream },
            HandlerEvent::OutboundFailed(reason) => {
                StreamEvent::OutboundFailed { peer, connection, reason }
            }
        }));
    }

    fn poll(&mut self, _: &mut Context<'_>) -> Poll<ToSwarm<Self::ToSwarm, THandlerInEvent<Self>>> {
        match self.actions.pop_front() {
            Some(action) => Poll::Ready(action),
            None => Poll::Pending,
        }
    }
}
