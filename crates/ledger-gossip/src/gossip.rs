//! `Gossip`, the handle the node holds: it starts the service on its own Tokio runtime
//! (a small fixed number of threads, never the Node event loop), forwards questions and
//! commands to it, and stops it. All methods may be called from any thread; the async
//! ones work on any executor.

use crate::behaviour::Behaviour;
use crate::config::{Config, PeerEntry};
use crate::events::GossipEvent;
use crate::metrics::{NodeMetrics, NodeMetricsSnapshot};
use crate::packets::BlockId;
use crate::peers::PeerInfo;
use crate::requests::Wanted;
use crate::service::{AddPeerError, Command, Service};
use crate::store::GossipStore;
use crate::transport::build_swarm;
use crate::warp_sync::WarpSyncStatus;
use libp2p::identity::Keypair;
use libp2p::{Multiaddr, PeerId, Swarm};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::sync::{broadcast, mpsc, oneshot};

/// Events kept for slow subscribers before the oldest are skipped.
const EVENT_BUFFER: usize = 1024;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("could not start the gossip runtime: {0}")]
    Runtime(std::io::Error),
    #[error("could not set up Noise with the node identity: {0}")]
    Noise(libp2p::noise::Error),
    #[error("could not listen on any p2p address: {}", .0.iter().map(|(a, e)| format!("{a}: {e}")).collect::<Vec<_>>().join("; "))]
    Listen(Vec<(Multiaddr, String)>),
}

/// The service stopped (shut down, or its task ended): it cannot answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the gossip service is not running")]
pub struct Stopped;

pub struct Gossip {
    runtime: Option<Runtime>,
    /// Unbounded: commands are few and small (a request command carries many ids), and
    /// callers on any thread must never wait for the service to make room.
    commands: mpsc::UnboundedSender<Command>,
    events: broadcast::Sender<GossipEvent>,
    metrics: Arc<NodeMetrics>,
    warp_status: Arc<Mutex<WarpSyncStatus>>,
    local_peer_id: PeerId,
}

impl Gossip {
    /// Start gossip over TCP with the node's identity: listen on the configured addresses
    /// (fails only if none works), dial the static peers, and run until `shutdown`.
    pub fn start<S: GossipStore>(
        config: Config,
        keypair: &Keypair,
        store: Arc<S>,
    ) -> Result<Gossip, StartError> {
        // Building the swarm opens nothing yet: sockets come with `listen` and dials.
        let swarm = build_swarm(keypair, &config).map_err(StartError::Noise)?;
        let runtime = build_runtime(&config)?;
        Gossip::launch(runtime, config, swarm, store)
    }

    /// Start gossip on a swarm built by the caller around this crate's `Behaviour` — for
    /// another transport, such as libp2p's in-memory transport in tests. The swarm's
    /// listeners, if any, are kept; `config.bind_addresses` are added.
    pub fn start_with_swarm<S: GossipStore>(
        config: Config,
        swarm: Swarm<Behaviour>,
        store: Arc<S>,
    ) -> Result<Gossip, StartError> {
        let runtime = build_runtime(&config)?;
        Gossip::launch(runtime, config, swarm, store)
    }

    fn launch<S: GossipStore>(
        runtime: Runtime,
        config: Config,
        swarm: Swarm<Behaviour>,
        store: Arc<S>,
    ) -> Result<Gossip, StartError> {
        let local_peer_id = *swarm.local_peer_id();
        let (commands, commands_rx) = mpsc::unbounded_channel();
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let metrics = Arc::new(NodeMetrics::default());
        let warp_status = Arc::new(Mutex::new(WarpSyncStatus::default()));
        // std channels: `start` and `stop` may be called from inside another runtime, where
        // waiting on a Tokio channel is not allowed.
        let (started_tx, started) = std::sync::mpsc::sync_channel(1);
        let service_events = events.clone();
        let service_metrics = metrics.clone();
        let service_warp_status = warp_status.clone();
        runtime.spawn(async move {
            let (mut service, inputs) = Service::new(
                swarm,
                store,
                config,
                commands_rx,
                service_events,
                service_metrics,
                service_warp_status,
            );
            match service.listen().await {
                Ok(()) => {
                    let _ = started_tx.send(Ok(()));
                    service.run(inputs).await;
                }
                Err(failed) => {
                    let _ = started_tx.send(Err(failed));
                }
            }
        });
        let failed = match started.recv() {
            Ok(Ok(())) => {
                return Ok(Gossip {
                    runtime: Some(runtime),
                    commands,
                    events,
                    metrics,
                    warp_status,
                    local_peer_id,
                })
            }
            Ok(Err(failed)) => failed,
            Err(_) => Vec::new(),
        };
        // Dropping a runtime inside another one panics; this works from any context.
        runtime.shutdown_background();
        Err(StartError::Listen(failed))
    }

    pub fn local_peer_id(&self) -> PeerId {
        self.local_peer_id
    }

    /// Events from now on (listening, streams, dropped peers, …).
    pub fn subscribe(&self) -> broadcast::Receiver<GossipEvent> {
        self.events.subscribe()
    }

    /// The node's gossip counters since start.
    pub fn metrics(&self) -> NodeMetricsSnapshot {
        self.metrics.snapshot()
    }

    /// Whether warp sync runs, and how far it has asked (gossip.md §7). While it runs the
    /// node is not synced.
    pub fn warp_sync(&self) -> WarpSyncStatus {
        *self.warp_status.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn ask<T>(
        &self,
        command: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, Stopped> {
        let (reply, answer) = oneshot::channel();
        self.commands.send(command(reply)).map_err(|_| Stopped)?;
        answer.await.map_err(|_| Stopped)
    }

    /// The addresses the node listens on.
    pub async fn listen_addresses(&self) -> Result<Vec<Multiaddr>, Stopped> {
        self.ask(Command::ListenAddresses).await
    }

    /// Every peer the node knows of, connected or not (gossip.md §9).
    pub async fn peers(&self) -> Result<Vec<PeerInfo>, Stopped> {
        self.ask(Command::Peers).await
    }

    pub async fn peer(&self, id: PeerId) -> Result<Option<PeerInfo>, Stopped> {
        self.ask(|reply| Command::Peer(id, reply)).await
    }

    /// Make a peer `known` and connect to it (REST POST, gossip.md §9). Persisting the peer
    /// list is the caller's business.
    pub async fn add_peer(
        &self,
        entry: PeerEntry,
    ) -> Result<Result<PeerInfo, AddPeerError>, Stopped> {
        self.ask(|reply| Command::AddPeer(entry, reply)).await
    }

    /// Forget a peer and disconnect it. Returns whether it was known.
    pub async fn remove_peer(&self, id: PeerId) -> Result<bool, Stopped> {
        self.ask(|reply| Command::RemovePeer(id, reply)).await
    }

    /// Ask peers for blocks of milestone `milestone_index`'s cone (the latest milestone if
    /// `None`); `keep` requests are retried until they arrive (gossip.md §6.1). The caller
    /// asks only for blocks it does not have.
    pub fn request_blocks(
        &self,
        ids: Vec<BlockId>,
        milestone_index: Option<u32>,
        keep: bool,
    ) -> Result<(), Stopped> {
        let wanted = ids.into_iter().map(Wanted::Block).collect();
        self.commands.send(Command::Request { wanted, milestone_index, keep }).map_err(|_| Stopped)
    }

    /// Ask peers for milestones by index (warp sync asks by itself, gossip.md §7).
    pub fn request_milestones(&self, indexes: Vec<u32>, keep: bool) -> Result<(), Stopped> {
        let wanted = indexes.into_iter().map(Wanted::Milestone).collect();
        self.commands
            .send(Command::Request { wanted, milestone_index: None, keep })
            .map_err(|_| Stopped)
    }

    /// Stop: close every stream and connection, then the runtime. Waits at most a few
    /// seconds for the service to finish.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let Some(runtime) = self.runtime.take() else { return };
        let (done_tx, done) = std::sync::mpsc::sync_channel(1);
        if self.commands.send(Command::Shutdown(done_tx)).is_ok() {
            let _ = done.recv_timeout(Duration::from_secs(5));
        }
        // What is left (idle workers, blocking lookups) stops where it is.
        runtime.shutdown_background();
    }
}

impl Drop for Gossip {
    fn drop(&mut self) {
        self.stop();
    }
}

fn build_runtime(config: &Config) -> Result<Runtime, StartError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.runtime_threads.max(1))
        // Store reads and intake batches; the service runs one intake batch at a time.
        .max_blocking_threads(4)
        .thread_name("ledger-gossip")
        .enable_all()
        .build()
        .map_err(StartError::Runtime)
}
