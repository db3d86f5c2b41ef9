//! Shared setup of the integration tests: an in-memory implementation of the store
//! boundary (test code only; the product implementation over `ledger_store::Store` is the
//! binding's), nodes on libp2p's in-memory transport (Noise and Yamux over `/memory/…`
//! addresses, the crate's own behaviour and service), a raw libp2p peer that speaks the
//! gossip protocol badly on purpose, temporary folders and waiting helpers.

#![allow(dead_code)]

use futures::channel::mpsc as fmpsc;
use futures::stream::BoxStream;
use futures::StreamExt;
use ledger_core::codec::{decode_block, encode_block};
use ledger_core::model::{Block, Payload, TaggedData};
use ledger_gossip::behaviour::StreamEvent;
use ledger_gossip::peers::PeerInfo;
use ledger_gossip::{
    Behaviour, BlockId, Config, Gossip, GossipEvent, GossipStore, Intake, Multiaddr, PeerEntry,
    PeerId, ReceivedBlock, StoreEvent,
};
use libp2p::core::transport::{MemoryTransport, Transport};
use libp2p::core::upgrade::Version;
use libp2p::identity::Keypair;
use libp2p::swarm::{self, Stream, SwarmEvent};
use libp2p::{noise, yamux, Swarm};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

pub use ledger_gossip::SyncState;

pub const NETWORK: &str = "ledger-devnet-v2";
/// The solid entry point of these tests' block graphs.
pub const SEP: [u8; 32] = [0; 32];

/// A block with a tagged-data payload; `tag` makes it unique.
pub fn tagged_block(parents: &[[u8; 32]], tag: &str) -> Vec<u8> {
    let mut parents = parents.to_vec();
    parents.sort();
    parents.dedup();
    encode_block(&Block {
        protocol_version: 2,
        parents,
        payload: Some(Payload::TaggedData(TaggedData {
            tag: tag.as_bytes().to_vec(),
            data: b"gossip test".to_vec(),
        })),
        nonce: 0,
    })
}

#[derive(Default)]
struct Inner {
    blocks: HashMap<BlockId, Vec<u8>>,
    solid: HashSet<BlockId>,
    /// Stored blocks waiting for these parents.
    waiting: HashMap<BlockId, Vec<BlockId>>,
    milestones: HashMap<u32, Vec<u8>>,
    sync: SyncState,
    subscribers: Vec<fmpsc::UnboundedSender<StoreEvent>>,
    /// Blocks made on this node (`add_local`): announced as `Local`, not `Solid`.
    local: HashSet<BlockId>,
    /// How often each block went through `submit_blocks`, and with which "requested" flag.
    submissions: HashMap<BlockId, Vec<bool>>,
    /// A follower: confirms milestone CMI+1 as soon as its block is stored and solid.
    follows: bool,
    /// Blocks this store does not hand out (to block and milestone requests).
    withheld: HashSet<BlockId>,
    /// A milestone this store takes (`Intake::Stored`) and then loses, and how many more
    /// copies of it it loses so: as if it had been held and expired before its cone arrived.
    lost: Option<(u32, usize)>,
    /// Every milestone index asked of `milestone_block`, in order.
    milestone_lookups: Vec<u32>,
}

/// The store boundary in memory: decodes blocks (syntax and protocol version are its
/// rules), stores them, tracks solidity (parents stored and solid, or the SEP) and emits
/// newly solid blocks.
#[derive(Default)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
}

impl MemoryStore {
    pub fn new(sync: SyncState) -> Arc<MemoryStore> {
        let store = MemoryStore::default();
        store.inner.lock().unwrap().sync = sync;
        Arc::new(store)
    }

    /// A block created on this node (API, coordinator): stored, and broadcast once solid.
    pub fn add_local(&self, bytes: &[u8]) -> BlockId {
        let id = BlockId::of_block(bytes);
        let mut inner = self.inner.lock().unwrap();
        inner.local.insert(id);
        Self::store(&mut inner, id, bytes.to_vec());
        id
    }

    /// A block that is stored without any event, as if it had been there from the start.
    pub fn add_quietly(&self, bytes: &[u8]) -> BlockId {
        let id = BlockId::of_block(bytes);
        let mut inner = self.inner.lock().unwrap();
        inner.blocks.insert(id, bytes.to_vec());
        inner.solid.insert(id);
        id
    }

    /// A follower store: milestones confirm themselves in order once solid.
    pub fn follower() -> Arc<MemoryStore> {
        let store = MemoryStore::new(SyncState::default());
        store.inner.lock().unwrap().follows = true;
        store
    }

    pub fn withhold(&self, id: BlockId, withheld: bool) {
        let mut inner = self.inner.lock().unwrap();
        if withheld {
            inner.withheld.insert(id);
        } else {
            inner.withheld.remove(&id);
        }
    }

    /// Take milestone `index` and lose it, the next `copies` times it arrives.
    pub fn lose_milestone(&self, index: u32, copies: usize) {
        self.inner.lock().unwrap().lost = Some((index, copies));
    }

    pub fn milestone_lookups(&self) -> Vec<u32> {
        self.inner.lock().unwrap().milestone_lookups.clone()
    }

    pub fn sync(&self) -> SyncState {
        self.inner.lock().unwrap().sync
    }

    pub fn add_milestone(&self, index: u32, bytes: &[u8]) {
        self.add_quietly(bytes);
        self.inner.lock().unwrap().milestones.insert(index, bytes.to_vec());
    }

    pub fn set_sync(&self, sync: SyncState) {
        let mut inner = self.inner.lock().unwrap();
        inner.sync = sync;
        inner.subscribers.retain(|s| s.unbounded_send(StoreEvent::SyncChanged(sync)).is_ok());
    }

    pub fn contains(&self, id: &BlockId) -> bool {
        self.inner.lock().unwrap().blocks.contains_key(id)
    }

    pub fn all_blocks(&self) -> Vec<Vec<u8>> {
        self.inner.lock().unwrap().blocks.values().cloned().collect()
    }

    pub fn is_solid(&self, id: &BlockId) -> bool {
        self.inner.lock().unwrap().solid.contains(id)
    }

    pub fn submissions(&self, id: &BlockId) -> Vec<bool> {
        self.inner.lock().unwrap().submissions.get(id).cloned().unwrap_or_default()
    }

    fn parents_of(bytes: &[u8]) -> Vec<BlockId> {
        decode_block(bytes)
            .map(|b| b.parents.into_iter().map(BlockId).collect())
            .unwrap_or_default()
    }

    fn store(inner: &mut Inner, id: BlockId, bytes: Vec<u8>) -> Vec<BlockId> {
        let parents = Self::parents_of(&bytes);
        let missing: Vec<BlockId> = parents
            .iter()
            .copied()
            .filter(|p| p.0 != SEP && !inner.blocks.contains_key(p))
            .collect();
        inner.blocks.insert(id, bytes);
        let unsolid: Vec<BlockId> =
            parents.iter().copied().filter(|p| p.0 != SEP && !inner.solid.contains(p)).collect();
        if unsolid.is_empty() {
            Self::mark_solid(inner, id);
        } else {
            for parent in unsolid {
                inner.waiting.entry(parent).or_default().push(id);
            }
        }
        missing
    }

    /// A follower confirms the milestones after its confirmed one that are solid, in order.
    fn confirm(inner: &mut Inner) {
        let before = inner.sync;
        while let Some(bytes) = inner.milestones.get(&(inner.sync.confirmed + 1)) {
            if !inner.solid.contains(&BlockId::of_block(bytes)) {
                break;
            }
            inner.sync.confirmed += 1;
            inner.sync.latest = inner.sync.latest.max(inner.sync.confirmed);
        }
        if inner.sync != before {
            let sync = inner.sync;
            inner.subscribers.retain(|s| s.unbounded_send(StoreEvent::SyncChanged(sync)).is_ok());
        }
    }

    fn mark_solid(inner: &mut Inner, id: BlockId) {
        let mut todo = vec![id];
        while let Some(id) = todo.pop() {
            if !inner.solid.insert(id) {
                continue;
            }
            let bytes = inner.blocks[&id].clone();
            let event = if inner.local.contains(&id) {
                StoreEvent::Local { id, bytes }
            } else {
                StoreEvent::Solid { id, bytes }
            };
            inner.subscribers.retain(|s| s.unbounded_send(event.clone()).is_ok());
            for child in inner.waiting.remove(&id).unwrap_or_default() {
                let parents = Self::parents_of(&inner.blocks[&child]);
                if parents.iter().all(|p| p.0 == SEP || inner.solid.contains(p)) {
                    todo.push(child);
                }
            }
        }
    }
}

impl GossipStore for MemoryStore {
    fn contains_block(&self, id: &BlockId) -> bool {
        id.0 == SEP || self.contains(id)
    }

    fn block_bytes(&self, id: &BlockId) -> Option<Vec<u8>> {
        let inner = self.inner.lock().unwrap();
        inner.blocks.get(id).filter(|_| !inner.withheld.contains(id)).cloned()
    }

    fn milestone_block(&self, index: u32) -> Option<Vec<u8>> {
        let mut inner = self.inner.lock().unwrap();
        inner.milestone_lookups.push(index);
        inner
            .milestones
            .get(&index)
            .filter(|b| !inner.withheld.contains(&BlockId::of_block(b)))
            .cloned()
    }

    fn submit_blocks(&self, blocks: &[ReceivedBlock]) -> Vec<Intake> {
        let mut inner = self.inner.lock().unwrap();
        let verdicts = blocks
            .iter()
            .map(|block| {
                inner.submissions.entry(block.id).or_default().push(block.requested);
                match decode_block(&block.bytes) {
                    Err(e) => Intake::Invalid(e.to_string()),
                    Ok(b) if b.protocol_version != 2 => Intake::Invalid("protocol version".into()),
                    Ok(_) if inner.blocks.contains_key(&block.id) => Intake::AlreadyStored,
                    Ok(b)
                        if inner.lost.is_some_and(|(index, copies)| {
                            milestone_index_of(&b) == Some(index) && copies > 0
                        }) =>
                    {
                        if let Some((_, copies)) = inner.lost.as_mut() {
                            *copies -= 1;
                        }
                        Intake::Stored {
                            missing_parents: Vec::new(),
                            milestone: milestone_index_of(&b),
                        }
                    }
                    Ok(b) => {
                        let milestone = milestone_index_of(&b);
                        if let Some(index) = milestone {
                            inner.milestones.insert(index, block.bytes.clone());
                        }
                        Intake::Stored {
                            missing_parents: Self::store(&mut inner, block.id, block.bytes.clone()),
                            milestone,
                        }
                    }
                }
            })
            .collect();
        if inner.follows {
            Self::confirm(&mut inner);
        }
        verdicts
    }

    fn sync_state(&self) -> SyncState {
        self.inner.lock().unwrap().sync
    }

    fn has_milestone(&self, index: u32) -> bool {
        self.inner.lock().unwrap().milestones.contains_key(&index)
    }

    fn events(&self) -> BoxStream<'static, StoreEvent> {
        let (tx, rx) = fmpsc::unbounded();
        self.inner.lock().unwrap().subscribers.push(tx);
        rx.boxed()
    }
}

/// The tests' stand-in for a verified milestone: a tagged-data block tagged "milestone N".
pub fn milestone_index_of(block: &Block) -> Option<u32> {
    match &block.payload {
        Some(Payload::TaggedData(t)) => {
            std::str::from_utf8(&t.tag).ok()?.strip_prefix("milestone ")?.parse().ok()
        }
        _ => None,
    }
}

/// A synced node at milestone `index`.
pub fn synced(index: u32) -> SyncState {
    SyncState { confirmed: index, latest: index, pruned: 0 }
}

/// The tests' configuration: in-memory listen address, quick redials.
pub fn memory_config() -> Config {
    let mut config = Config::new(NETWORK);
    config.bind_addresses = vec!["/memory/0".parse().unwrap()];
    config.reconnect_interval = Duration::from_millis(300);
    config.reconnect_jitter = Duration::from_millis(100);
    config
}

pub struct Node {
    pub gossip: Gossip,
    pub store: Arc<MemoryStore>,
    pub events: broadcast::Receiver<GossipEvent>,
    pub address: Multiaddr,
}

impl Node {
    pub fn peer_id(&self) -> PeerId {
        self.gossip.local_peer_id()
    }

    pub fn entry(&self) -> PeerEntry {
        PeerEntry { peer_id: self.peer_id(), address: self.address.clone(), alias: None }
    }

    pub async fn peer(&self, id: PeerId) -> Option<PeerInfo> {
        self.gossip.peer(id).await.unwrap()
    }

    /// Whether a gossip stream with `id` is up and has brought a heartbeat.
    pub async fn has_heartbeat_from(&self, id: PeerId) -> bool {
        self.peer(id).await.and_then(|p| p.gossip).is_some_and(|g| g.heartbeat.is_some())
    }

    /// The next event matching `pick`, within `within`.
    pub async fn event<T>(
        &mut self,
        within: Duration,
        pick: impl Fn(&GossipEvent) -> Option<T>,
    ) -> T {
        tokio::time::timeout(within, async {
            loop {
                match self.events.recv().await {
                    Ok(event) => {
                        if let Some(t) = pick(&event) {
                            return t;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(e) => panic!("event channel: {e}"),
                }
            }
        })
        .await
        .expect("the expected event did not come in time")
    }
}

/// A swarm with a fresh identity on libp2p's in-memory transport, authenticated with Noise
/// and multiplexed with Yamux like the TCP host.
pub fn memory_swarm(config: &Config) -> Swarm<Behaviour> {
    let keypair = Keypair::generate_ed25519();
    let transport = MemoryTransport::default()
        .upgrade(Version::V1)
        .authenticate(noise::Config::new(&keypair).unwrap())
        .multiplex(yamux::Config::default())
        .timeout(Duration::from_secs(20))
        .boxed();
    Swarm::new(
        transport,
        Behaviour::new(&keypair, config),
        keypair.public().to_peer_id(),
        swarm::Config::with_tokio_executor().with_idle_connection_timeout(Duration::from_secs(30)),
    )
}

/// A node on the in-memory transport running the real service.
pub async fn memory_node(config: Config, sync: SyncState) -> Node {
    node_with_store(config, MemoryStore::new(sync)).await
}

/// A node on the in-memory transport over `store`.
pub async fn node_with_store(config: Config, store: Arc<MemoryStore>) -> Node {
    let swarm = memory_swarm(&config);
    let gossip = Gossip::start_with_swarm(config, swarm, store.clone()).unwrap();
    let events = gossip.subscribe();
    let address = gossip.listen_addresses().await.unwrap().remove(0);
    Node { gossip, store, events, address }
}

/// Connect `a` to `b` (a dials, as a known peer) and wait until both have each other's heartbeat.
pub async fn peer_up(a: &Node, b: &Node) {
    a.gossip.add_peer(b.entry()).await.unwrap().unwrap();
    eventually(Duration::from_secs(10), || async {
        a.has_heartbeat_from(b.peer_id()).await && b.has_heartbeat_from(a.peer_id()).await
    })
    .await;
}

/// Wait until `condition` holds, checking every 20 ms; panic after `within`.
pub async fn eventually<F, Fut>(within: Duration, condition: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + within;
    while !condition().await {
        assert!(tokio::time::Instant::now() < deadline, "condition not met within {within:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A bare libp2p peer with the gossip behaviour but no service: it opens a gossip stream to
/// a node and then writes whatever the test wants on it.
pub async fn raw_stream_to(node: &Node) -> (PeerId, Stream) {
    let mut swarm = memory_swarm(&memory_config());
    let me = *swarm.local_peer_id();
    swarm.dial(node.address.clone()).unwrap();
    let stream = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match swarm.select_next_some().await {
                SwarmEvent::ConnectionEstablished { peer_id, connection_id, .. } => {
                    swarm.behaviour_mut().streams.open(peer_id, connection_id)
                }
                SwarmEvent::Behaviour(ledger_gossip::behaviour::BehaviourEvent::Streams(
                    StreamEvent::Outbound { stream, .. },
                )) => return stream,
                _ => {}
            }
        }
    })
    .await
    .expect("raw peer could not open a gossip stream");
    // Keep the raw peer's swarm running (its connections are driven by their own tasks).
    tokio::spawn(async move {
        loop {
            swarm.select_next_some().await;
        }
    });
    (me, stream)
}

/// A folder under the system's temporary folder, removed on drop.
pub struct TestDir(pub std::path::PathBuf);

impl TestDir {
    pub fn new() -> TestDir {
        let path = std::env::temp_dir()
            .join(format!("ledger-gossip-test-{}", hex::encode(rand::random::<[u8; 8]>())));
        std::fs::create_dir_all(&path).unwrap();
        TestDir(path)
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
