//! Shared setup of the scenario tests: real temporary stores (`ledger_store::Store` in
//! RocksDB, the dev protocol with minPowScore 0), the network's history made by a store's
//! own coordinator (`Chain`), nodes running `GossipSync` over them on libp2p's in-memory
//! transport (Noise and Yamux over `/memory/…` addresses), a raw libp2p peer that speaks the
//! gossip protocol badly on purpose, and waiting helpers.
//!
//! Gossip sees each store through a `Recorder`: it passes every call on to the node's real
//! `SyncStore` and only notes what gossip asked (submissions, milestone lookups) and, when
//! a test says so, withholds a block from peers' requests. It decides nothing itself.

#![allow(dead_code)]

use futures::stream::BoxStream;
use futures::StreamExt;
use ledger_core::codec::encode_block;
use ledger_core::hash::blake2b256;
use ledger_core::model::{
    Address, BasicOutput, Block, Output, Payload, TaggedData, UnlockCondition,
};
use ledger_core::protocol::ProtocolParameters;
use ledger_core::validate::BlockOrigin;
use ledger_gossip::behaviour::StreamEvent;
use ledger_gossip::peers::PeerInfo;
use ledger_gossip::{
    Behaviour, BlockId, Config, Gossip, GossipEvent, GossipStore, Intake, Multiaddr, PeerEntry,
    PeerId, ReceivedBlock, StoreEvent, SyncState,
};
use ledger_store::{GenesisStyle, Store, StoreOptions};
use ledger_sync::{GossipSync, Limits, LocalBlocks, SyncStore};
use libp2p::core::transport::{MemoryTransport, Transport};
use libp2p::core::upgrade::Version;
use libp2p::identity::Keypair;
use libp2p::swarm::{self, Stream, SwarmEvent};
use libp2p::{noise, yamux, Swarm};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tempfile::TempDir;
use tokio::sync::broadcast;

pub const NETWORK: &str = "ledger-devnet-v2";

/// Seed of the spec's dev coordinator: BLAKE2b-256("ledger-devnet-coordinator").
pub fn coordinator_seed() -> [u8; 32] {
    blake2b256(b"ledger-devnet-coordinator")
}

pub fn protocol() -> ProtocolParameters {
    ProtocolParameters { min_pow_score: 0, ..ProtocolParameters::dev_default() }
}

/// The dev network with one genesis output for `owner`; the coordinator runs here.
pub fn coordinator_options(owner: [u8; 32]) -> StoreOptions {
    let protocol = protocol();
    StoreOptions {
        genesis_outputs: vec![Output::Basic(BasicOutput {
            amount: protocol.token_supply,
            native_tokens: vec![],
            unlock_conditions: vec![UnlockCondition::Address(Address::Ed25519(owner))],
            features: vec![],
        })],
        protocol,
        genesis_style: GenesisStyle::Ledger,
        snapshot: None,
        snapshot_delta: None,
        coordinator_seeds: vec![coordinator_seed()],
        trusted_public_keys: vec![],
        milestone_keys: Default::default(),
        coordinator_enabled: true,
        sync_writes: false,
        max_delta_ycri: 8,
        max_delta_ocri: 13,
        block_cache_bytes: 4 << 20,
        write_buffer_bytes: 4 << 20,
        indexer_enabled: false,
    }
}

/// The same network followed: milestones only from the dev coordinator's key.
pub fn follower_options(owner: [u8; 32]) -> StoreOptions {
    StoreOptions {
        coordinator_enabled: false,
        coordinator_seeds: vec![],
        trusted_public_keys: vec![ledger_core::crypto::public_key(&coordinator_seed())],
        ..coordinator_options(owner)
    }
}

/// The genesis output's owner on the tests' network.
pub const OWNER: [u8; 32] = [0x11; 32];

/// A store in a temporary folder, removed with it.
pub struct TempStore {
    pub store: Arc<Store>,
    dir: TempDir,
}

impl TempStore {
    pub fn open(options: StoreOptions) -> TempStore {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(&dir.path().join("ledger"), options).unwrap());
        TempStore { store, dir }
    }

    pub fn coordinator() -> TempStore {
        TempStore::open(coordinator_options(OWNER))
    }

    pub fn follower() -> TempStore {
        TempStore::open(follower_options(OWNER))
    }
}

/// A follower whose ledger began from a Hornet snapshot at milestone 2 of this network
/// (snapshot.md §4): confirmed and pruning index 2, its tips the snapshot's entry points.
/// Made as ledger-store's snapshot test makes one: milestone 3 moved the genesis output.
pub fn snapshot_follower() -> TempStore {
    use ledger_core::model::{Ed25519Signature, MilestonePayload};
    use ledger_core::snapshot::*;
    let protocol = protocol();
    let genesis = SnapshotOutput {
        output_id: [0; 34],
        block_id: [0; 32],
        milestone_index_booked: 0,
        milestone_timestamp_booked: 0,
        output: coordinator_options(OWNER).genesis_outputs.remove(0),
    };
    let tx = [0x33; 32];
    let moved = SnapshotOutput {
        output_id: ledger_core::ids::output_id(&tx, 0),
        block_id: [0xb3; 32],
        milestone_index_booked: 3,
        milestone_timestamp_booked: 1_700_000_030,
        output: Output::Basic(BasicOutput {
            amount: protocol.token_supply,
            native_tokens: vec![],
            unlock_conditions: vec![UnlockCondition::Address(Address::Ed25519([5; 32]))],
            features: vec![],
        }),
    };
    let milestone = |index: u32, timestamp: u32, previous: [u8; 32]| MilestonePayload {
        index,
        timestamp,
        protocol_version: 2,
        previous_milestone_id: previous,
        parents: vec![[0xe1; 32], [0xe2; 32]],
        inclusion_merkle_root: [0; 32],
        applied_merkle_root: [0; 32],
        metadata: vec![],
        options: vec![],
        signatures: vec![Ed25519Signature { public_key: [1; 32], signature: [2; 64] }],
    };
    let m2 = milestone(2, 1_700_000_020, [0x11; 32]);
    let m3 = milestone(3, 1_700_000_030, ledger_core::ids::milestone_id(&m2));
    let snapshot = FullSnapshot {
        genesis_milestone_index: 0,
        target_milestone_index: 2,
        target_milestone_timestamp: 1_700_000_020,
        target_milestone_id: ledger_core::ids::milestone_id(&m2),
        ledger_milestone_index: 3,
        treasury: TreasuryOutput::default(),
        protocol_parameters: ProtocolParametersOption {
            target_milestone_index: 0,
            protocol_version: 2,
            params: protocol,
        },
        outputs: vec![moved.clone()],
        milestone_diffs: vec![
            MilestoneDiff {
                milestone: m3,
                spent_treasury: None,
                created: vec![moved],
                consumed: vec![SpentOutput { output: genesis, transaction_id_spent: tx }],
            },
            MilestoneDiff {
                milestone: m2,
                spent_treasury: None,
                created: vec![],
                consumed: vec![],
            },
        ],
        solid_entry_points: vec![[0xe2; 32], [0xe1; 32]],
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("at-2.snapshot");
    std::fs::write(&file, write_full_snapshot(&snapshot).unwrap()).unwrap();
    let options = StoreOptions { snapshot: Some(file), ..follower_options(OWNER) };
    let store = Arc::new(Store::open(&dir.path().join("ledger"), options).unwrap());
    TempStore { store, dir }
}

/// A milestone block at `index` with the dev coordinator's signature, on `parents`: what
/// the signature check accepts, whether or not it continues any chain.
pub fn signed_milestone(index: u32, parents: Vec<[u8; 32]>) -> Vec<u8> {
    milestone_signed_by(&coordinator_seed(), index, parents)
}

/// The same, signed with the key of `seed`.
pub fn milestone_signed_by(seed: &[u8; 32], index: u32, parents: Vec<[u8; 32]>) -> Vec<u8> {
    use ledger_core::model::{Ed25519Signature, MilestonePayload};
    let mut m = MilestonePayload {
        index,
        timestamp: 1_700_000_000 + index,
        protocol_version: 2,
        previous_milestone_id: [0x99; 32],
        parents: parents.clone(),
        inclusion_merkle_root: [0; 32],
        applied_merkle_root: [0; 32],
        metadata: vec![],
        options: vec![],
        signatures: vec![],
    };
    m.signatures = vec![Ed25519Signature {
        public_key: ledger_core::crypto::public_key(seed),
        signature: ledger_core::crypto::sign(seed, &ledger_core::ids::milestone_id(&m)),
    }];
    encode_block(&Block {
        protocol_version: 2,
        parents,
        payload: Some(Payload::Milestone(Box::new(m))),
        nonce: 0,
    })
}

/// A block as a peer sends it.
pub fn received(bytes: &[u8], requested: bool) -> ReceivedBlock {
    ReceivedBlock { id: BlockId::of_block(bytes), bytes: bytes.to_vec(), requested }
}

/// A block with a tagged-data payload and nonce 0 (minPowScore 0); `tag` makes it unique.
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

/// The network's history, made by a coordinator store of its own that no test node runs:
/// milestones 1, 2, … (each optionally with one ordinary block in its cone) to hand to
/// nodes, directly (`follower_at`) or over gossip.
pub struct Chain {
    pub source: TempStore,
    /// Index i at i − 1: the milestone's block, and its cone's block if it has one.
    milestones: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

impl Chain {
    pub fn new() -> Chain {
        Chain::with_owner(OWNER)
    }

    /// A network whose genesis output belongs to the Ed25519 address `owner`.
    pub fn with_owner(owner: [u8; 32]) -> Chain {
        Chain { source: TempStore::open(coordinator_options(owner)), milestones: Vec::new() }
    }

    /// A chain of `count` milestones; with `cones`, each but the first approves one
    /// tagged-data block of its own.
    pub fn of(count: u32, cones: bool) -> Chain {
        let mut chain = Chain::new();
        chain.issue(count, cones);
        chain
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.source.store
    }

    pub fn issue(&mut self, count: u32, cones: bool) {
        let store = self.source.store.clone();
        for _ in 0..count {
            let index = self.milestones.len() as u32 + 1;
            let cone = (cones && index > 1).then(|| {
                let bytes =
                    tagged_block(&store.select_tips().unwrap(), &format!("cone of {index}"));
                assert!(store.submit_block(&bytes).unwrap().stored);
                bytes
            });
            let issued = store.issue_milestone(None).unwrap();
            assert_eq!(issued.index, index);
            let bytes = store.block(&issued.block_id).unwrap().unwrap();
            self.milestones.push((bytes, cone));
        }
    }

    pub fn len(&self) -> u32 {
        self.milestones.len() as u32
    }

    pub fn milestone(&self, index: u32) -> &[u8] {
        &self.milestones[index as usize - 1].0
    }

    pub fn milestone_id(&self, index: u32) -> BlockId {
        BlockId::of_block(self.milestone(index))
    }

    pub fn cone(&self, index: u32) -> Option<&[u8]> {
        self.milestones[index as usize - 1].1.as_deref()
    }

    /// Milestone `index`'s block and its cone, in the order a store takes them.
    pub fn blocks_of(&self, index: u32) -> Vec<&[u8]> {
        self.cone(index).into_iter().chain([self.milestone(index)]).collect()
    }

    /// A follower store that has applied milestones 1..=`index` (submitted directly).
    pub fn follower_at(&self, index: u32) -> TempStore {
        let follower = TempStore::follower();
        for i in 1..=index {
            // One at a time: the store takes a milestone before the other blocks of its call.
            for bytes in self.blocks_of(i) {
                let result = follower.store.submit_blocks_from(&[bytes], BlockOrigin::Peer);
                assert!(result.into_iter().next().unwrap().unwrap().stored);
            }
        }
        assert_eq!(confirmed(&follower.store), index);
        follower
    }
}

pub fn confirmed(store: &Store) -> u32 {
    store.status().latest_milestone.map_or(0, |(index, _, _)| index)
}

#[derive(Default)]
struct Record {
    /// How often each block went through `submit_blocks`, with its "requested" flag.
    submissions: HashMap<BlockId, Vec<bool>>,
    /// Every milestone index asked of `milestone_block`, in order.
    milestone_lookups: Vec<u32>,
    /// Blocks not handed out to block and milestone requests.
    withheld: HashSet<BlockId>,
}

/// The node's `SyncStore` as gossip sees it, observed (see the file's header).
pub struct Recorder {
    inner: Arc<SyncStore>,
    record: Mutex<Record>,
}

impl Recorder {
    pub fn submissions(&self, id: &BlockId) -> Vec<bool> {
        self.record.lock().unwrap().submissions.get(id).cloned().unwrap_or_default()
    }

    pub fn milestone_lookups(&self) -> Vec<u32> {
        self.record.lock().unwrap().milestone_lookups.clone()
    }

    pub fn withhold(&self, id: BlockId, withheld: bool) {
        let mut record = self.record.lock().unwrap();
        if withheld {
            record.withheld.insert(id);
        } else {
            record.withheld.remove(&id);
        }
    }

    fn withheld(&self, bytes: Option<Vec<u8>>) -> Option<Vec<u8>> {
        let record = self.record.lock().unwrap();
        bytes.filter(|b| !record.withheld.contains(&BlockId::of_block(b)))
    }
}

impl GossipStore for Recorder {
    fn contains_block(&self, id: &BlockId) -> bool {
        self.inner.contains_block(id)
    }

    fn block_bytes(&self, id: &BlockId) -> Option<Vec<u8>> {
        self.withheld(self.inner.block_bytes(id))
    }

    fn milestone_block(&self, index: u32) -> Option<Vec<u8>> {
        self.record.lock().unwrap().milestone_lookups.push(index);
        self.withheld(self.inner.milestone_block(index))
    }

    fn awaits_milestone(&self, id: &BlockId) -> bool {
        self.inner.awaits_milestone(id)
    }

    fn submit_blocks(&self, blocks: &[ReceivedBlock]) -> Vec<Intake> {
        {
            let mut record = self.record.lock().unwrap();
            for block in blocks {
                record.submissions.entry(block.id).or_default().push(block.requested);
            }
        }
        self.inner.submit_blocks(blocks)
    }

    fn sync_state(&self) -> SyncState {
        self.inner.sync_state()
    }

    fn has_milestone(&self, index: u32) -> bool {
        self.inner.has_milestone(index)
    }

    fn events(&self) -> BoxStream<'static, StoreEvent> {
        self.inner.events()
    }
}

/// The tests' configuration: in-memory listen address, quick redials.
pub fn memory_config() -> Config {
    let mut config = Config::new(NETWORK);
    config.bind_addresses = vec!["/memory/0".parse().unwrap()];
    config.reconnect_interval = Duration::from_millis(300);
    config.reconnect_jitter = Duration::from_millis(100);
    // Own blocks at a stream's first following heartbeat, whatever its age: the scenarios
    // of the offer say when (`own_blocks_wait_until_a_stream_has_lived_a_while` the delay).
    config.timers.own_blocks_offer_after = Duration::ZERO;
    config
}

pub struct Node {
    pub sync: GossipSync,
    pub store: Arc<Store>,
    /// The store's hook for its own blocks, as the binding keeps it.
    pub local: Arc<LocalBlocks>,
    pub recorder: Arc<Recorder>,
    pub events: broadcast::Receiver<GossipEvent>,
    pub address: Multiaddr,
    /// The store's folder lives as long as the node.
    _store: Option<TempStore>,
}

impl Node {
    pub fn gossip(&self) -> &Gossip {
        self.sync.gossip()
    }

    pub fn peer_id(&self) -> PeerId {
        self.gossip().local_peer_id()
    }

    pub fn entry(&self) -> PeerEntry {
        PeerEntry { peer_id: self.peer_id(), address: self.address.clone(), alias: None }
    }

    pub async fn peer(&self, id: PeerId) -> Option<PeerInfo> {
        self.gossip().peer(id).await.unwrap()
    }

    /// Whether a gossip stream with `id` is up and has brought a heartbeat.
    pub async fn has_heartbeat_from(&self, id: PeerId) -> bool {
        self.peer(id).await.and_then(|p| p.gossip).is_some_and(|g| g.heartbeat.is_some())
    }

    /// A block submitted to this node's API: stored, and handed to gossip for broadcast.
    pub fn add_local(&self, bytes: &[u8]) -> BlockId {
        let result = self.local.submit_blocks(&self.store, vec![bytes.to_vec()]).remove(0);
        assert!(result.unwrap().stored);
        BlockId::of_block(bytes)
    }

    /// A block of this node's API with the store's own tip selection as parents.
    pub fn add_local_on_tips(&self, tag: &str) -> BlockId {
        self.add_local(&tagged_block(&self.store.select_tips().unwrap(), tag))
    }

    /// A block stored without a word to gossip, as if it had been there from the start.
    pub fn add_quietly(&self, bytes: &[u8]) -> BlockId {
        let result = self.store.submit_blocks_from(&[bytes], BlockOrigin::Peer).remove(0);
        assert!(result.unwrap().stored);
        BlockId::of_block(bytes)
    }

    /// Stored (and so solid: the store holds no other block) or a solid entry point.
    pub fn contains(&self, id: &BlockId) -> bool {
        self.sync.intake().contains_block(id)
    }

    pub fn sync_state(&self) -> SyncState {
        self.sync.intake().sync_state()
    }

    pub fn confirmed(&self) -> u32 {
        confirmed(&self.store)
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

/// Gossip over `store` on the in-memory transport, through `GossipSync` as the node runs
/// it (warp sync on a follower only, the parent-retry thread, the store's own-blocks hook).
pub async fn node_on(store: TempStore, config: Config) -> Node {
    node_with_limits(store, config, Limits::default()).await
}

pub async fn node_with_limits(store: TempStore, config: Config, limits: Limits) -> Node {
    let mut node = node_over(store.store.clone(), config, limits).await;
    node._store = Some(store);
    node
}

/// The chain's own coordinator as a node (the chain must outlive it).
pub async fn coordinator_node(chain: &Chain, config: Config) -> Node {
    node_over(chain.store().clone(), config, Limits::default()).await
}

/// The chain's own coordinator as a node, with the intake's limits given.
pub async fn coordinator_node_with_limits(chain: &Chain, config: Config, limits: Limits) -> Node {
    node_over(chain.store().clone(), config, limits).await
}

/// Timers short enough to watch retries and warp sync's stall rule.
pub fn quick_config() -> Config {
    let mut config = memory_config();
    config.timers.request_retry = Duration::from_millis(200);
    config.timers.warp_sync_stall = Duration::from_millis(500);
    config
}

async fn node_over(store: Arc<Store>, config: Config, limits: Limits) -> Node {
    let local = Arc::new(LocalBlocks::new());
    let mut recorder = None;
    let sync =
        GossipSync::start_with(store.clone(), local.clone(), config, limits, |config, intake| {
            let observed = Arc::new(Recorder { inner: intake, record: Mutex::default() });
            recorder = Some(observed.clone());
            let swarm = memory_swarm(&config);
            Gossip::start_with_swarm(config, swarm, observed)
        })
        .unwrap();
    let events = sync.gossip().subscribe();
    let address = sync.gossip().listen_addresses().await.unwrap().remove(0);
    Node { store, sync, local, recorder: recorder.unwrap(), events, address, _store: None }
}

/// A follower that has applied milestones 1..=`index` of `chain`.
pub async fn follower_node(chain: &Chain, index: u32) -> Node {
    node_on(chain.follower_at(index), memory_config()).await
}

/// Connect `a` to `b` (a dials, as a known peer) and wait until both have each other's heartbeat.
pub async fn peer_up(a: &Node, b: &Node) {
    a.gossip().add_peer(b.entry()).await.unwrap().unwrap();
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
/// a node and then writes whatever the test wants on it. A stranger to the node.
pub async fn raw_stream_to(node: &Node) -> (PeerId, Stream) {
    raw_stream(node, false).await
}

/// The same, from a peer the node has configured (its operator vouches for it) before the
/// peer dials. The address given for it leads nowhere: only its inbound connection counts.
pub async fn raw_known_stream_to(node: &Node) -> (PeerId, Stream) {
    raw_stream(node, true).await
}

async fn raw_stream(node: &Node, known: bool) -> (PeerId, Stream) {
    let mut swarm = memory_swarm(&memory_config());
    let me = *swarm.local_peer_id();
    if known {
        let nowhere = "/memory/1".parse().unwrap();
        let entry = PeerEntry { peer_id: me, address: nowhere, alias: Some("raw".into()) };
        node.gossip().add_peer(entry).await.unwrap().unwrap();
    }
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
