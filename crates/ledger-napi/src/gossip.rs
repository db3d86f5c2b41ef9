//! Gossip for JavaScript: `GossipNode.start(store, options)` runs `ledger_sync::GossipSync`
//! (gossip on its own Tokio runtime, never the event loop, over the store) and answers the
//! REST peer routes, `/metrics`, `/info` and `/health`. Conversion only: JavaScript option
//! objects to `SyncOptions`, peers, metrics, status and events to JavaScript objects,
//! failures to napi errors; every rule lives in `ledger-sync` and `ledger-gossip`.

use crate::errors::{invalid_argument, promise, to_napi, Result};
use crate::shared::Shared;
use crate::store::{store_key, LedgerStore};
use ledger_core::Code;
use ledger_gossip::config::PeerEntry;
use ledger_gossip::identity;
use ledger_gossip::metrics::NodeMetricsSnapshot;
use ledger_gossip::{
    AddPeerError, GossipEvent, GossipInfo, Keypair, Multiaddr, PeerId, PeerInfo, Relation,
};
use ledger_sync::{GossipSync, StartError, SyncOptions, SyncStatus};
use napi::bindgen_prelude::{Function, PromiseRaw, Unknown};
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi::Env;
use napi_derive::napi;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn failure(code: Code, detail: impl Into<String>) -> napi::Error<String> {
    to_napi(ledger_core::Error::new(code, "", detail))
}

#[napi(object)]
pub struct GossipPeerConfig {
    pub multi_address: String,
    pub alias: Option<String>,
}

#[napi(object)]
pub struct GossipStartOptions {
    /// The network's published name: selects `/iota-gossip/<networkId>/1.0.0`.
    pub network_name: String,
    pub bind_multi_addresses: Vec<String>,
    /// Hex of a 64-byte private key or 32-byte seed; empty: generated and persisted.
    pub identity_private_key: Option<String>,
    pub identity_file: String,
    pub peers: Vec<GossipPeerConfig>,
    pub unknown_peers_limit: u32,
    pub reconnect_interval_ms: u32,
    pub low_watermark: u32,
    pub high_watermark: u32,
    /// Milestones requested per warp-sync window.
    pub warp_sync_range: u32,
}

#[napi(object)]
pub struct HeartbeatJs {
    pub solid_milestone_index: u32,
    pub pruned_milestone_index: u32,
    pub latest_milestone_index: u32,
    pub connected_peers: u32,
    pub synced_peers: u32,
}

#[napi(object)]
pub struct PeerMetricsJs {
    pub new_blocks: u32,
    pub known_blocks: u32,
    pub received_blocks: u32,
    pub received_block_requests: u32,
    pub received_milestone_requests: u32,
    pub received_heartbeats: u32,
    pub sent_blocks: u32,
    pub sent_block_requests: u32,
    pub sent_milestone_requests: u32,
    pub sent_heartbeats: u32,
    pub dropped_packets: u32,
}

#[napi(object)]
pub struct PeerGossipJs {
    pub heartbeat: Option<HeartbeatJs>,
    pub metrics: PeerMetricsJs,
}

#[napi(object)]
pub struct PeerJs {
    pub id: String,
    pub multi_addresses: Vec<String>,
    pub alias: Option<String>,
    pub relation: String,
    pub connected: bool,
    pub gossip: Option<PeerGossipJs>,
}

#[napi(object)]
pub struct GossipMetricsJs {
    pub received_blocks: f64,
    pub new_blocks: f64,
    pub known_blocks: f64,
    pub invalid_blocks: f64,
    pub received_block_requests: f64,
    pub received_milestone_requests: f64,
    pub received_heartbeats: f64,
    pub sent_blocks: f64,
    pub sent_block_requests: f64,
    pub sent_milestone_requests: f64,
    pub sent_heartbeats: f64,
    pub dropped_packets: f64,
}

#[napi(object)]
pub struct GossipStatusJs {
    /// Confirmed and latest milestone index as heartbeats report them.
    pub confirmed_milestone_index: u32,
    pub latest_milestone_index: u32,
    pub held_blocks: u32,
    pub held_milestones: u32,
    /// Warp sync runs (gossip.md §7): the node is behind its peers and not synced.
    pub warp_syncing: bool,
    /// The highest confirmed index a peer reported (warp sync's target).
    pub warp_sync_target: u32,
    /// Set when a received milestone's roots differ from this node's white flag (a fork):
    /// the node no longer follows the network.
    pub halted: Option<String>,
}

/// One gossip event for the node's log.
#[napi(object)]
pub struct GossipEventJs {
    /// `listening`, `listen-failed`, `dial-failed`, `stream-opened`, `stream-refused`,
    /// `stream-closed`, `peer-dropped`, `intake-failed`.
    pub kind: String,
    pub peer: Option<String>,
    pub detail: String,
}

fn event_js(event: GossipEvent) -> GossipEventJs {
    let (kind, peer, detail) = match event {
        GossipEvent::Listening { address } => ("listening", None, address.to_string()),
        GossipEvent::ListenFailed { address, error } => {
            ("listen-failed", None, format!("{address}: {error}"))
        }
        GossipEvent::DialFailed { peer, error } => ("dial-failed", Some(peer), error),
        GossipEvent::StreamOpened { peer, relation, outbound } => (
            "stream-opened",
            Some(peer),
            format!("{relation} peer, {}", if outbound { "outbound" } else { "inbound" }),
        ),
        GossipEvent::StreamRefused { peer, reason } => ("stream-refused", Some(peer), reason),
        GossipEvent::StreamClosed { peer, reason } => {
            ("stream-closed", Some(peer), format!("{reason:?}"))
        }
        GossipEvent::PeerDropped { peer, reason, removed } => (
            "peer-dropped",
            Some(peer),
            format!("{reason}{}", if removed { " (removed from the peer list)" } else { "" }),
        ),
        GossipEvent::IntakeFailed { block, error } => {
            ("intake-failed", None, format!("{block}: {error}"))
        }
    };
    GossipEventJs { kind: kind.into(), peer: peer.map(|p| p.to_string()), detail }
}

fn peer_js(p: PeerInfo) -> PeerJs {
    PeerJs {
        id: p.id.to_string(),
        multi_addresses: p.addresses.iter().map(|a| a.to_string()).collect(),
        alias: p.alias,
        relation: match p.relation {
            Relation::Known => "known".into(),
            Relation::Unknown => "unknown".into(),
        },
        connected: p.connected,
        gossip: p.gossip.map(|GossipInfo { heartbeat, metrics: m }| PeerGossipJs {
            heartbeat: heartbeat.map(|h| HeartbeatJs {
                solid_milestone_index: h.solid_milestone_index,
                pruned_milestone_index: h.pruned_milestone_index,
                latest_milestone_index: h.latest_milestone_index,
                connected_peers: h.connected_peers as u32,
                synced_peers: h.synced_peers as u32,
            }),
            metrics: PeerMetricsJs {
                new_blocks: m.new_blocks,
                known_blocks: m.known_blocks,
                received_blocks: m.received_blocks,
                received_block_requests: m.received_block_requests,
                received_milestone_requests: m.received_milestone_requests,
                received_heartbeats: m.received_heartbeats,
                sent_blocks: m.sent_blocks,
                sent_block_requests: m.sent_block_requests,
                sent_milestone_requests: m.sent_milestone_requests,
                sent_heartbeats: m.sent_heartbeats,
                dropped_packets: m.dropped_packets,
            },
        }),
    }
}

fn metrics_js(m: NodeMetricsSnapshot) -> GossipMetricsJs {
    let s = m.streams;
    GossipMetricsJs {
        received_blocks: s.received_blocks as f64,
        new_blocks: s.new_blocks as f64,
        known_blocks: s.known_blocks as f64,
        invalid_blocks: m.invalid_blocks as f64,
        received_block_requests: s.received_block_requests as f64,
        received_milestone_requests: s.received_milestone_requests as f64,
        received_heartbeats: s.received_heartbeats as f64,
        sent_blocks: s.sent_blocks as f64,
        sent_block_requests: s.sent_block_requests as f64,
        sent_milestone_requests: s.sent_milestone_requests as f64,
        sent_heartbeats: s.sent_heartbeats as f64,
        dropped_packets: s.dropped_packets as f64,
    }
}

fn status_js(s: SyncStatus) -> GossipStatusJs {
    GossipStatusJs {
        confirmed_milestone_index: s.sync.confirmed,
        latest_milestone_index: s.sync.latest,
        held_blocks: s.held_blocks as u32,
        held_milestones: s.held_milestones as u32,
        warp_syncing: s.warp_sync.running,
        warp_sync_target: s.warp_sync.target,
        halted: s.halted,
    }
}

/// The start options as `ledger-sync` takes them; a malformed address is an
/// `invalid-argument` naming the configuration's path.
fn sync_options(o: GossipStartOptions, identity: Keypair) -> Result<SyncOptions> {
    let bind_addresses = o
        .bind_multi_addresses
        .iter()
        .enumerate()
        .map(|(i, a)| {
            a.parse::<Multiaddr>().map_err(|e| {
                invalid_argument(&format!("p2p.bindMultiAddresses[{i}]"), format!("{a:?}: {e}"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let peers = o
        .peers
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            PeerEntry::parse(&p.multi_address, p.alias).map_err(|e| {
                invalid_argument(&format!("p2p.peers[{i}].multiAddress"), e.to_string())
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(SyncOptions {
        network_name: o.network_name,
        identity,
        bind_addresses,
        peers,
        unknown_peers_limit: o.unknown_peers_limit as usize,
        reconnect_interval: Duration::from_millis(o.reconnect_interval_ms as u64),
        low_watermark: o.low_watermark as usize,
        high_watermark: o.high_watermark as usize,
        warp_sync_range: o.warp_sync_range,
    })
}

fn start_failure(e: StartError) -> napi::Error<String> {
    failure(Code::GossipStart, e.to_string())
}

fn parse_peer_id(text: &str) -> Result<PeerId> {
    text.parse::<PeerId>()
        .map_err(|e| invalid_argument("peerId", format!("{text:?} is not a peer id: {e}")))
}

fn stopped() -> napi::Error<String> {
    failure(Code::GossipStopped, "the gossip service is not running")
}

/// The running service, shared with the handles attached by HTTP worker threads; `stop` on
/// the owner empties it.
type Running = Arc<Mutex<Option<Arc<GossipSync>>>>;

#[napi]
pub struct GossipNode {
    running: Running,
    peer_id: String,
    /// Whether this handle started gossip (and stops it); attached handles only ask.
    owner: bool,
}

/// Gossip running in this process, by its store's key (store.rs), for `attach`.
static RUNNING: Shared<Mutex<Option<Arc<GossipSync>>>> = Shared::new();

/// The gossip service running over the store with this key, if any (for the INX server's
/// view of peers).
pub(crate) fn running_gossip(key: &str) -> Option<Arc<GossipSync>> {
    RUNNING.find(key)?.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

impl GossipNode {
    /// The service while it runs; a call in flight keeps it until the call returns.
    fn sync(&self) -> Result<Arc<GossipSync>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner()).clone().ok_or_else(stopped)
    }
}

#[napi]
impl GossipNode {
    /// Load or create the identity, listen, dial the static peers. Fails with
    /// `gossip-identity` or `gossip-start` (no listen address works).
    #[napi(factory)]
    pub fn start(store: &LedgerStore, options: GossipStartOptions) -> Result<GossipNode> {
        let inner = store.get()?;
        let loaded = identity::load_or_create(
            Path::new(&options.identity_file),
            options.identity_private_key.as_deref(),
        )
        .map_err(|e| failure(Code::GossipIdentity, e.to_string()))?;
        let peer_id = loaded.peer_id().to_string();
        let options = sync_options(options, loaded.keypair)?;
        let sync = GossipSync::start(inner, store.local.clone(), options).map_err(start_failure)?;
        let running: Running = Arc::new(Mutex::new(Some(Arc::new(sync))));
        RUNNING.publish(store.key.clone(), &running);
        Ok(GossipNode { running, peer_id, owner: true })
    }

    /// Another handle on the gossip this process runs over the store in `dataDir` (for an
    /// HTTP worker thread's peer routes, /info, /health): it asks the one service; `stop`
    /// on it does nothing. Fails with `gossip-stopped` when none runs.
    #[napi(factory)]
    pub fn attach(data_dir: String) -> Result<GossipNode> {
        let running = RUNNING.find(&store_key(&data_dir)).ok_or_else(stopped)?;
        let peer_id = running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .ok_or_else(stopped)?
            .gossip()
            .local_peer_id()
            .to_string();
        Ok(GossipNode { running, peer_id, owner: false })
    }

    #[napi(getter)]
    pub fn peer_id(&self) -> String {
        self.peer_id.clone()
    }

    // The peer methods answer from gossip's runtime: each returns a promise that rejects
    // (errors.rs), with `gossip-stopped` once the service is gone.

    #[napi]
    pub fn listen_addresses<'env>(&self, env: &'env Env) -> Result<PromiseRaw<'env, Vec<String>>> {
        let sync = self.sync();
        promise(env, async move {
            let sync = sync?;
            let addresses = sync.gossip().listen_addresses().await.map_err(|_| stopped())?;
            Ok(addresses.iter().map(|a| a.to_string()).collect())
        })
    }

    #[napi]
    pub fn peers<'env>(&self, env: &'env Env) -> Result<PromiseRaw<'env, Vec<PeerJs>>> {
        let sync = self.sync();
        promise(env, async move {
            let sync = sync?;
            let peers = sync.gossip().peers().await.map_err(|_| stopped())?;
            Ok(peers.into_iter().map(peer_js).collect())
        })
    }

    /// The peer, or null when unknown; rejects with `invalid-argument` for a malformed id.
    #[napi(ts_return_type = "Promise<PeerJs | null>")]
    pub fn peer<'env>(
        &self,
        env: &'env Env,
        peer_id: String,
    ) -> Result<PromiseRaw<'env, Option<PeerJs>>> {
        let sync = self.sync();
        promise(env, async move {
            let id = parse_peer_id(&peer_id)?;
            let sync = sync?;
            Ok(sync.gossip().peer(id).await.map_err(|_| stopped())?.map(peer_js))
        })
    }

    /// Make the peer `known` and dial it. Rejects with `invalid-argument` for a bad address
    /// and `own-peer-id` for the node's own id.
    #[napi]
    pub fn add_peer<'env>(
        &self,
        env: &'env Env,
        multi_address: String,
        alias: Option<String>,
    ) -> Result<PromiseRaw<'env, PeerJs>> {
        let sync = self.sync();
        promise(env, async move {
            let entry = PeerEntry::parse(&multi_address, alias)
                .map_err(|e| invalid_argument("multiAddress", e.to_string()))?;
            let sync = sync?;
            match sync.gossip().add_peer(entry).await.map_err(|_| stopped())? {
                Ok(peer) => Ok(peer_js(peer)),
                Err(AddPeerError::OwnPeerId) => {
                    Err(failure(Code::OwnPeerId, "the address is this node's own peer id"))
                }
            }
        })
    }

    /// Forget and disconnect the peer; whether it was known.
    #[napi]
    pub fn remove_peer<'env>(
        &self,
        env: &'env Env,
        peer_id: String,
    ) -> Result<PromiseRaw<'env, bool>> {
        let sync = self.sync();
        promise(env, async move {
            let id = parse_peer_id(&peer_id)?;
            let sync = sync?;
            sync.gossip().remove_peer(id).await.map_err(|_| stopped())
        })
    }

    #[napi]
    pub fn metrics(&self) -> Result<GossipMetricsJs> {
        Ok(metrics_js(self.sync()?.gossip().metrics()))
    }

    #[napi]
    pub fn status(&self) -> Result<GossipStatusJs> {
        Ok(status_js(self.sync()?.status()))
    }

    /// Deliver gossip events (peers connecting, dropped, …) to `callback` on the main
    /// thread. Weak: it never keeps Node running by itself.
    #[napi(ts_args_type = "callback: (event: GossipEventJs) => void")]
    pub fn on_event(&self, callback: Function<'_, GossipEventJs, Unknown<'static>>) -> Result<()> {
        let sync = self.sync()?;
        let tsfn = callback
            .build_threadsafe_function::<GossipEvent>()
            .callee_handled::<false>()
            .weak::<true>()
            .build_callback(|ctx| Ok(event_js(ctx.value)))
            .map_err(|e| failure(Code::BindingFailure, e.to_string()))?;
        let mut events = sync.gossip().subscribe();
        drop(sync);
        std::thread::Builder::new()
            .name("ledger-gossip-events".into())
            .spawn(move || loop {
                match futures::executor::block_on(events.recv()) {
                    Ok(event) => {
                        tsfn.call(event, ThreadsafeFunctionCallMode::NonBlocking);
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                }
            })
            .map_err(|e| failure(Code::BindingFailure, e.to_string()))?;
        Ok(())
    }

    /// Close every stream and connection and stop the runtime (a few seconds at most).
    #[napi]
    pub fn stop(&self) {
        if !self.owner {
            return;
        }
        let Some(sync) = self.running.lock().unwrap_or_else(|p| p.into_inner()).take() else {
            return;
        };
        sync.stop();
        // The last handle shuts the service down (the events thread ends with it).
        drop(sync);
    }
}

impl Drop for GossipNode {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The peer id of the p2p identity in `identityFile`, created and persisted there first if
/// missing (the configured key if given, else a random one): what `devnet` needs to
/// peer its nodes before they start.
#[napi]
pub fn identity_peer_id(
    identity_file: String,
    identity_private_key: Option<String>,
) -> Result<String> {
    let loaded =
        identity::load_or_create(Path::new(&identity_file), identity_private_key.as_deref())
            .map_err(|e| failure(Code::GossipIdentity, e.to_string()))?;
    Ok(loaded.peer_id().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_gossip::{SyncState, WarpSyncStatus};

    fn options() -> GossipStartOptions {
        GossipStartOptions {
            network_name: "testnet".into(),
            bind_multi_addresses: vec!["/ip4/127.0.0.1/tcp/15600".into()],
            identity_private_key: None,
            identity_file: "p2p.identity".into(),
            peers: vec![GossipPeerConfig {
                multi_address: format!(
                    "/ip4/10.0.0.2/tcp/15600/p2p/{}",
                    Keypair::generate_ed25519().public().to_peer_id()
                ),
                alias: Some("two".into()),
            }],
            unknown_peers_limit: 4,
            reconnect_interval_ms: 1500,
            low_watermark: 5,
            high_watermark: 10,
            warp_sync_range: 50,
        }
    }

    #[test]
    fn start_options_become_sync_options() {
        let o = sync_options(options(), Keypair::generate_ed25519()).unwrap();
        assert_eq!(o.network_name, "testnet");
        assert_eq!(o.bind_addresses, vec!["/ip4/127.0.0.1/tcp/15600".parse().unwrap()]);
        assert_eq!(o.peers.len(), 1);
        assert_eq!(o.peers[0].alias.as_deref(), Some("two"));
        assert_eq!(o.reconnect_interval, Duration::from_millis(1500));
        assert_eq!((o.unknown_peers_limit, o.low_watermark, o.high_watermark), (4, 5, 10));
        assert_eq!(o.warp_sync_range, 50);
    }

    #[test]
    fn a_malformed_address_is_named_by_its_configuration_path() {
        let message = |o| sync_options(o, Keypair::generate_ed25519()).err().unwrap().reason;
        let mut o = options();
        o.bind_multi_addresses.push("not an address".into());
        assert!(message(o).starts_with("p2p.bindMultiAddresses[1]\u{1f}"));
        let mut o = options();
        o.peers[0].multi_address = "/ip4/10.0.0.2/tcp/15600".into();
        assert!(message(o).starts_with("p2p.peers[0].multiAddress\u{1f}"));
        let e = parse_peer_id("12D3").err().unwrap();
        assert_eq!(e.status, "invalid-argument");
        assert!(e.reason.starts_with("peerId\u{1f}"));
    }

    #[test]
    fn status_and_events_for_javascript() {
        let status = status_js(SyncStatus {
            sync: SyncState { confirmed: 3, latest: 5, pruned: 0 },
            held_blocks: 2,
            held_milestones: 1,
            warp_sync: WarpSyncStatus { running: true, target: 9, requested_up_to: 6 },
            halted: None,
        });
        assert_eq!((status.confirmed_milestone_index, status.latest_milestone_index), (3, 5));
        assert_eq!((status.held_blocks, status.held_milestones), (2, 1));
        assert!(status.warp_syncing && status.halted.is_none());
        assert_eq!(status.warp_sync_target, 9);
        let peer = Keypair::generate_ed25519().public().to_peer_id();
        let event = event_js(GossipEvent::PeerDropped {
            peer,
            reason: ledger_gossip::DropReason::NoHeartbeat,
            removed: true,
        });
        assert_eq!((event.kind.as_str(), event.peer), ("peer-dropped", Some(peer.to_string())));
        assert!(event.detail.ends_with(" (removed from the peer list)"), "{}", event.detail);
    }
}
