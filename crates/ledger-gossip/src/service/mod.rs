//! The gossip service: one task that owns the swarm, the peers, the request queue and the
//! work units, and applies Hornet's rules to everything that happens (gossip.md §3–§11).
//! Byte I/O runs in each stream's own tasks (`session`), store work on the blocking pool
//! (`intake`, `responder`); they talk to this task over channels, so nothing here blocks.
//!
//! By concern: `connections` (dialling, redialling, trimming), `streams` (one stream per
//! peer, who opens, duplicates, stream end), `messages` (what arrives on a stream, block
//! intake and broadcast), `heartbeats` (sending and judging them), `requester` (routing
//! requests to peers that have the data), `warp_sync` (catching up with peers ahead).

mod connections;
mod heartbeats;
mod messages;
mod requester;
mod streams;
mod warp_sync;

use crate::address_budgets::AddressBudgets;
use crate::behaviour::{Behaviour, BehaviourEvent};
use crate::budget::{ORPHANS_PER_SECOND, ORPHAN_BURST};
use crate::config::{Config, PeerEntry};
use crate::events::GossipEvent;
use crate::intake::Verdicts;
use crate::metrics::NodeMetrics;
use crate::own_blocks::{self, OwnBlocks};
use crate::packets::BlockId;
use crate::peers::{PeerInfo, Peers};
use crate::requests::{RequestQueue, Wanted};
use crate::responder;
use crate::session::SessionEvent;
use crate::store::{GossipStore, ReceivedBlock, StoreEvent, SyncState};
use crate::warp_sync::{WarpSync, WarpSyncStatus};
use crate::work_units::WorkUnits;
use bytes::Bytes;
use futures::future::BoxFuture;
use futures::stream::{BoxStream, FuturesUnordered};
use futures::{FutureExt, StreamExt};
use libp2p::core::transport::ListenerId;
use libp2p::swarm::SwarmEvent;
use libp2p::{identify, Multiaddr, PeerId, Swarm};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::MissedTickBehavior;

/// Messages from all streams waiting for this task; a full channel stops the readers.
const SESSION_CHANNEL: usize = 1024;
/// Received blocks in the store's intake at most; above it, streams are not read.
const MAX_INTAKE_BACKLOG: usize = 8192;
/// Messages or store events handled in one turn of the service loop at most, so that a
/// burst costs one turn (timers, commands and requests are looked at between turns).
const BURST: usize = 256;

/// Asked of the service by the `Gossip` handle.
pub enum Command {
    Peers(oneshot::Sender<Vec<PeerInfo>>),
    Peer(PeerId, oneshot::Sender<Option<PeerInfo>>),
    AddPeer(PeerEntry, oneshot::Sender<Result<PeerInfo, AddPeerError>>),
    RemovePeer(PeerId, oneshot::Sender<bool>),
    Request { wanted: Vec<Wanted>, milestone_index: Option<u32>, keep: bool },
    ListenAddresses(oneshot::Sender<Vec<Multiaddr>>),
    Shutdown(std::sync::mpsc::SyncSender<()>),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddPeerError {
    #[error("the address is this node's own peer id")]
    OwnPeerId,
}

pub struct Service {
    swarm: Swarm<Behaviour>,
    /// For questions answered from memory on this loop (`sync_state`, `has_milestone`);
    /// store work that may block runs in `intake` and `responder`.
    store: Arc<dyn GossipStore>,
    local: PeerId,
    config: Config,
    peers: Peers,
    requests: RequestQueue,
    work_units: WorkUnits,
    /// Unrequested blocks held without parents, per unknown peers' IP address (D53).
    orphans: AddressBudgets,
    sync: SyncState,
    node_metrics: Arc<NodeMetrics>,
    events: broadcast::Sender<GossipEvent>,
    next_session: u64,
    sessions_tx: mpsc::Sender<SessionEvent>,
    intake_tx: mpsc::UnboundedSender<ReceivedBlock>,
    intake_backlog: usize,
    responder_tx: mpsc::Sender<responder::Job>,
    redials: FuturesUnordered<BoxFuture<'static, PeerId>>,
    listen_addresses: Vec<Multiaddr>,
    /// Rotates which peer is asked first.
    round_robin: usize,
    warp: WarpSync,
    /// The node's own blocks stored while it was not synced, to send once it is.
    deferred_local: Vec<Bytes>,
    /// The node's own recent blocks, for peers whose stream opens later.
    own_blocks: OwnBlocks,
    /// What the `Gossip` handle reports of warp sync.
    warp_status: Arc<Mutex<WarpSyncStatus>>,
    /// Blocks to ask for once warp sync's windows reach the milestone (the key) whose cone
    /// they belong to (`warp_sync.rs`).
    deferred_cones: BTreeMap<u32, Vec<BlockId>>,
}

/// The receiving ends the service loop polls.
pub struct Inputs {
    commands: mpsc::UnboundedReceiver<Command>,
    sessions: mpsc::Receiver<SessionEvent>,
    verdicts: mpsc::UnboundedReceiver<Verdicts>,
    store_events: BoxStream<'static, StoreEvent>,
}

impl Service {
    /// Set up the service and its workers on the current runtime.
    pub fn new<S: GossipStore>(
        swarm: Swarm<Behaviour>,
        store: Arc<S>,
        config: Config,
        commands: mpsc::UnboundedReceiver<Command>,
        events: broadcast::Sender<GossipEvent>,
        node_metrics: Arc<NodeMetrics>,
        warp_status: Arc<Mutex<WarpSyncStatus>>,
    ) -> (Service, Inputs) {
        let (sessions_tx, sessions) = mpsc::channel(SESSION_CHANNEL);
        let (intake_tx, intake_rx) = mpsc::unbounded_channel();
        let (verdicts_tx, verdicts) = mpsc::unbounded_channel();
        let (responder_tx, responder_rx) = mpsc::channel(responder::QUEUE);
        tokio::spawn(crate::intake::run(store.clone(), intake_rx, verdicts_tx));
        tokio::spawn(responder::run(store.clone(), responder_rx));
        let store_events = store.events();
        let sync = store.sync_state();
        let warp = WarpSync::new(
            config.warp_sync_range,
            config.timers.warp_sync_stall,
            sync.confirmed,
            Instant::now(),
        );
        let own_blocks = OwnBlocks::new(config.timers.send_queue / 2, own_blocks::MAX_AGE);
        let service = Service {
            store,
            local: *swarm.local_peer_id(),
            listen_addresses: swarm.listeners().cloned().collect(),
            swarm,
            work_units: WorkUnits::new(config.timers.work_unit_ttl),
            orphans: AddressBudgets::new(ORPHANS_PER_SECOND, ORPHAN_BURST),
            config,
            peers: Peers::default(),
            requests: RequestQueue::new(),
            sync,
            node_metrics,
            events,
            next_session: 0,
            sessions_tx,
            intake_tx,
            intake_backlog: 0,
            responder_tx,
            redials: FuturesUnordered::new(),
            round_robin: 0,
            warp,
            deferred_local: Vec::new(),
            own_blocks,
            warp_status,
            deferred_cones: BTreeMap::new(),
        };
        (service, Inputs { commands, sessions, verdicts, store_events })
    }

    fn emit(&self, event: GossipEvent) {
        // No subscriber is fine: events are notifications.
        let _ = self.events.send(event);
    }

    /// Start listening on the configured addresses and wait until each one is up or has
    /// failed. Fails only if none came up (as go-libp2p does).
    pub async fn listen(&mut self) -> Result<(), Vec<(Multiaddr, String)>> {
        let mut waiting: HashMap<ListenerId, Multiaddr> = HashMap::new();
        let mut failed = Vec::new();
        for address in self.config.bind_addresses.clone() {
            match self.swarm.listen_on(address.clone()) {
                Ok(id) => {
                    waiting.insert(id, address);
                }
                Err(e) => failed.push((address, e.to_string())),
            }
        }
        let mut up = 0;
        while !waiting.is_empty() {
            let event = self.swarm.select_next_some().await;
            match &event {
                SwarmEvent::NewListenAddr { listener_id, .. } => {
                    up += usize::from(waiting.remove(listener_id).is_some());
                }
                SwarmEvent::ListenerClosed { listener_id, reason, .. } => {
                    if let Some(address) = waiting.remove(listener_id) {
                        failed.push((
                            address,
                            reason.as_ref().err().map_or("closed".to_string(), |e| e.to_string()),
                        ));
                    }
                }
                SwarmEvent::ListenerError { listener_id, error } => {
                    if let Some(address) = waiting.remove(listener_id) {
                        failed.push((address, error.to_string()));
                    }
                }
                _ => {}
            }
            self.on_swarm_event(event);
        }
        for (address, error) in &failed {
            self.emit(GossipEvent::ListenFailed { address: address.clone(), error: error.clone() });
        }
        if up == 0 && !failed.is_empty() {
            return Err(failed);
        }
        Ok(())
    }

    pub async fn run(mut self, mut inputs: Inputs) {
        for entry in self.config.static_peers.clone() {
            if entry.peer_id != self.local {
                self.add_peer(entry);
            }
        }
        let timers = self.config.timers;
        let mut heartbeat_tick = tokio::time::interval(timers.heartbeat_check_interval);
        heartbeat_tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut retry_tick = tokio::time::interval(timers.request_retry);
        retry_tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let done = loop {
            tokio::select! {
                event = self.swarm.select_next_some() => self.on_swarm_event(event),
                command = inputs.commands.recv() => match command {
                    Some(Command::Shutdown(done)) => break Some(done),
                    Some(command) => self.on_command(command),
                    None => break None, // the handle is gone
                },
                Some(event) = inputs.sessions.recv(), if self.intake_backlog < MAX_INTAKE_BACKLOG => {
                    self.on_session_event(event);
                    // What else the streams delivered meanwhile, in this turn of the loop.
                    for _ in 1..BURST {
                        if self.intake_backlog >= MAX_INTAKE_BACKLOG {
                            break;
                        }
                        let Ok(event) = inputs.sessions.try_recv() else { break };
                        self.on_session_event(event);
                    }
                }
                Some(verdicts) = inputs.verdicts.recv() => self.on_verdicts(verdicts),
                Some(event) = inputs.store_events.next() => {
                    self.on_store_event(event);
                    // A batch of stored blocks arrives as a burst of events: broadcast it in one turn.
                    for _ in 1..BURST {
                        let Some(Some(event)) = inputs.store_events.next().now_or_never() else { break };
                        self.on_store_event(event);
                    }
                }
                Some(peer) = self.redials.next(), if !self.redials.is_empty() => self.redial(peer),
                _ = heartbeat_tick.tick() => self.on_heartbeat_tick(),
                _ = retry_tick.tick() => {
                    self.requests.retry_pending(Instant::now(), timers.request_discard);
                    self.warp_tick();
                }
            }
            self.send_requests();
        };
        // Dropping the service drops every session (resetting its stream) and the swarm
        // (closing every connection).
        drop(self);
        if let Some(done) = done {
            let _ = done.send(());
        }
    }

    fn on_swarm_event(&mut self, event: SwarmEvent<BehaviourEvent>) {
        match event {
            SwarmEvent::Behaviour(BehaviourEvent::Streams(event)) => self.on_stream_event(event),
            SwarmEvent::Behaviour(BehaviourEvent::Identify(identify::Event::Received {
                peer_id,
                info,
                ..
            })) => self.on_identified(peer_id, info.listen_addrs),
            SwarmEvent::Behaviour(_) => {} // the rest of identify, and ping, need nothing from us
            SwarmEvent::ConnectionEstablished { peer_id, connection_id, endpoint, .. } => {
                self.on_connection_established(peer_id, connection_id, &endpoint)
            }
            SwarmEvent::ConnectionClosed { peer_id, connection_id, .. } => {
                self.on_connection_closed(peer_id, connection_id)
            }
            SwarmEvent::OutgoingConnectionError { peer_id: Some(peer), error, .. } => {
                self.on_dial_failure(peer, error.to_string())
            }
            SwarmEvent::NewListenAddr { address, .. } => {
                self.listen_addresses.push(address.clone());
                self.emit(GossipEvent::Listening { address });
            }
            SwarmEvent::ExpiredListenAddr { address, .. } => {
                self.listen_addresses.retain(|a| *a != address)
            }
            _ => {}
        }
    }

    fn on_command(&mut self, command: Command) {
        match command {
            Command::Peers(reply) => {
                let _ = reply.send(self.peers.map.iter().map(|(id, p)| p.info(*id)).collect());
            }
            Command::Peer(id, reply) => {
                let _ = reply.send(self.peers.get(&id).map(|p| p.info(id)));
            }
            Command::AddPeer(entry, reply) => {
                let result = if entry.peer_id == self.local {
                    Err(AddPeerError::OwnPeerId)
                } else {
                    Ok(self.add_peer(entry))
                };
                let _ = reply.send(result);
            }
            Command::RemovePeer(id, reply) => {
                let _ = reply.send(self.remove_peer(id));
            }
            Command::Request { wanted, milestone_index, keep } => {
                let now = Instant::now();
                for w in wanted {
                    let index = match (w, milestone_index) {
                        (Wanted::Milestone(i), _) => i,
                        (Wanted::Block(_), Some(i)) => i,
                        (Wanted::Block(_), None) => self.sync.latest,
                    };
                    if let Wanted::Block(id) = w {
                        if self.warp_defer(index, &[id]) {
                            continue;
                        }
                    }
                    self.requests.enqueue(w, index, keep, now);
                }
            }
            Command::ListenAddresses(reply) => {
                let _ = reply.send(self.listen_addresses.clone());
            }
            Command::Shutdown(_) => unreachable!("handled by the loop"),
        }
    }

    fn on_store_event(&mut self, event: StoreEvent) {
        match event {
            StoreEvent::Solid { id, bytes } => self.broadcast_solid(id, bytes),
            StoreEvent::Local { id, bytes } => self.broadcast_local(id, bytes),
            StoreEvent::SyncChanged(sync) => {
                let confirmed_moved = sync.confirmed != self.sync.confirmed;
                self.sync = sync;
                if confirmed_moved {
                    self.warp_confirmed(sync.confirmed);
                }
                self.send_heartbeats(|_| true);
                if self.is_synced() {
                    self.send_deferred_local();
                }
            }
        }
    }
}
