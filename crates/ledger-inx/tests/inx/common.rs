//! The test harness: a dev-network store in a temporary directory, the INX server on an
//! ephemeral loopback port over it, and a tonic client generated from the same proto on a
//! runtime of the test's own. Helpers for transactions as the store's tests build them.
#![allow(dead_code)]

use ledger_core::model::*;
use ledger_core::pow::{MiningPool, PoolOptions};
use ledger_inx::proto::inx_client::InxClient;
use ledger_inx::{InxConfig, InxEvent, InxServer, Node, ReservedRoute, RestLoopback};
use ledger_store::{Store, StoreOptions};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tonic::transport::{Channel, Endpoint};

// The dev network, its keys and transactions, as the store's own tests build them.
#[path = "../../../ledger-store/tests/common/mod.rs"]
mod ledger;
pub use ledger::{
    basic_output, block_bytes, coordinator_seed, genesis_output, genesis_seed, transfer, tx_block,
    SUPPLY,
};

pub fn address_of(seed: &[u8; 32]) -> [u8; 32] {
    ledger_core::crypto::ed25519_address(&ledger_core::crypto::public_key(seed))
}

/// The dev network's store with the coordinator on; INX tests read the ledger, not the
/// indexer.
pub fn dev_options(min_pow_score: u32) -> StoreOptions {
    StoreOptions { indexer_enabled: false, ..ledger::dev_options(min_pow_score) }
}

/// The same network followed: this node checks the coordinator's milestones.
pub fn follower_options(min_pow_score: u32) -> StoreOptions {
    StoreOptions {
        coordinator_enabled: false,
        coordinator_seeds: vec![],
        trusted_public_keys: vec![ledger_core::crypto::public_key(&coordinator_seed())],
        ..dev_options(min_pow_score)
    }
}

pub fn tagged(tag: &[u8], data: Vec<u8>) -> Option<Payload> {
    Some(Payload::TaggedData(TaggedData { tag: tag.to_vec(), data }))
}

/// What the node around the server saw: log events and broadcast blocks.
#[derive(Default)]
pub struct Recorder {
    pub events: Mutex<Vec<InxEvent>>,
    pub submitted: Mutex<Vec<Id32>>,
}

impl Node for Recorder {
    fn block_submitted(&self, block_id: Id32, _bytes: Vec<u8>) {
        self.submitted.lock().unwrap().push(block_id);
    }

    fn event(&self, event: InxEvent) {
        self.events.lock().unwrap().push(event);
    }
}

pub struct Options {
    pub min_pow_score: u32,
    pub stream_buffer: usize,
    pub rest: Option<RestLoopback>,
    pub store: Option<StoreOptions>,
    /// Issue milestone 1 before the server starts.
    pub first_milestone: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            min_pow_score: 0,
            stream_buffer: 1024,
            rest: None,
            store: None,
            first_milestone: true,
        }
    }
}

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub store: Arc<Store>,
    pub server: Option<InxServer>,
    pub node: Arc<Recorder>,
    pub rt: tokio::runtime::Runtime,
    pub endpoint: String,
}

impl Harness {
    pub fn new() -> Harness {
        Harness::with(Options::default())
    }

    pub fn with(options: Options) -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let store_options = options.store.unwrap_or_else(|| dev_options(options.min_pow_score));
        let store = Arc::new(Store::open(&dir.path().join("ledger"), store_options).unwrap());
        if options.first_milestone {
            store.issue_milestone(None).unwrap();
        }
        let node = Arc::new(Recorder::default());
        let pool = Arc::new(MiningPool::new(PoolOptions { jobs: 1, queue_size: 4 }));
        let config = InxConfig {
            bind_address: "127.0.0.1:0".into(),
            stream_buffer: options.stream_buffer,
            white_flag_parents_timeout: Duration::from_millis(300),
            rest: options.rest,
            reserved_routes: vec![
                ReservedRoute { route: "core/v2".into(), flag: None },
                ReservedRoute { route: "indexer/v1".into(), flag: Some("--no-indexer".into()) },
            ],
            ..InxConfig::default()
        };
        let server = InxServer::start(store.clone(), config, node.clone(), Some(pool)).unwrap();
        let endpoint = format!("http://{}", server.local_addresses()[0]);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        Harness { dir, store, server: Some(server), node, rt, endpoint }
    }

    pub fn client(&self) -> InxClient<Channel> {
        let endpoint = self.endpoint.clone();
        self.rt.block_on(async move { InxClient::connect(endpoint).await.unwrap() })
    }

    /// A client whose HTTP/2 windows are tiny: it stops the server's sending as soon as it
    /// stops reading.
    pub fn slow_client(&self) -> InxClient<Channel> {
        let endpoint = self.endpoint.clone();
        self.rt.block_on(async move {
            let channel = Endpoint::from_shared(endpoint)
                .unwrap()
                .initial_stream_window_size(Some(1024))
                .initial_connection_window_size(Some(1024))
                .connect()
                .await
                .unwrap();
            InxClient::new(channel)
        })
    }

    pub fn run<F: Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }

    pub fn events(&self) -> Vec<InxEvent> {
        self.node.events.lock().unwrap().clone()
    }

    pub fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The next message of a stream within a few seconds (a test fails rather than hangs).
pub async fn next<T>(stream: &mut tonic::Streaming<T>) -> Result<Option<T>, tonic::Status> {
    tokio::time::timeout(Duration::from_secs(10), stream.message())
        .await
        .expect("a message within 10 s")
}

/// Nothing arrives on the stream within `ms` milliseconds (it is open and quiet).
pub async fn quiet<T: std::fmt::Debug>(stream: &mut tonic::Streaming<T>, ms: u64) {
    if let Ok(got) = tokio::time::timeout(Duration::from_millis(ms), stream.message()).await {
        panic!("expected nothing, got {got:?}");
    }
}

pub fn id32(bytes: &[u8]) -> [u8; 32] {
    bytes.try_into().unwrap()
}
