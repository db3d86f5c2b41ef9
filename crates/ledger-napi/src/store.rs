//! The ledger store for JavaScript: a `LedgerStore` object over `ledger_store::Store`.
//!
//! Submitting a block, checking one before mining and issuing a milestone run as async
//! tasks on libuv's thread pool (decoding, validation, white flag and RocksDB writes stay
//! off the event loop; mining has a pool of its own, `pow.rs`); lookups are synchronous
//! point reads. Ids cross as 0x-hex strings, bytes as Buffers, metadata
//! objects as JSON text. Failures are thrown, or reject the async calls, as `errors.rs`
//! says; only a submitted batch answers a `failure` per block.

use crate::codec::hex_array;
use crate::errors::{rejection, to_napi, Result};
use ledger_core::Code;

fn invalid_state(detail: String) -> napi::Error<String> {
    to_napi(ledger_core::Error::new(Code::BindingFailure, "", detail))
}
use crate::shared::Shared;
use ledger_core::codec::decode_output;
use ledger_core::json::hex;
use ledger_store::{
    protocol_from_json, protocol_json, ChainId, GenesisStyle, IssuedMilestone, KeyRange,
    MilestoneKeys, MilestoneRecord, OutputFilter, OutputKind, OutputPage, OutputQuery, OutputsOf,
    SortKey, Store, StoreOptions, Submitted,
};
use ledger_sync::LocalBlocks;
use napi::bindgen_prelude::{AsyncTask, Buffer, BufferSlice};
use napi::{Env, Task};
use napi_derive::napi;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

#[napi(object)]
pub struct StoreOpenOptions {
    /// The protocol object of the info endpoint, as JSON text.
    pub protocol_json: String,
    /// Serialized genesis outputs (used when the data directory is new).
    pub genesis_outputs: Vec<Buffer>,
    /// `ledger` or `hornet` (D41), fixed when the data directory is new.
    pub genesis_style: String,
    /// A Hornet full snapshot to create a new ledger from instead of the built-in genesis.
    pub snapshot_path: Option<String>,
    pub coordinator_enabled: bool,
    /// 0x-hex Ed25519 seeds of the embedded coordinator.
    pub coordinator_private_keys: Vec<String>,
    /// 0x-hex public keys whose milestones are accepted when the coordinator is disabled.
    pub coordinator_public_keys: Vec<String>,
    /// `protocol.publicKeyRanges` (D42): when given, they replace `coordinatorPublicKeys`.
    pub public_key_ranges: Option<Vec<KeyRangeJs>>,
    /// `protocol.milestonePublicKeyCount`: signatures a milestone needs (0 = every key
    /// applicable at its index).
    pub milestone_public_key_count: Option<u32>,
    pub sync_writes: bool,
    pub max_delta_ycri: u32,
    pub max_delta_ocri: u32,
    /// RocksDB block cache, MiB.
    pub block_cache_mib: u32,
    /// All RocksDB memtables together, MiB.
    pub write_buffers_mib: u32,
    /// Keep the UTXO indexer (rebuilt at start-up when it was off).
    pub indexer_enabled: bool,
}

/// A coordinator key and the milestone indexes it signs (`end` 0 = open), Hornet's shape.
#[napi(object)]
pub struct KeyRangeJs {
    /// Hex, with or without 0x.
    pub key: String,
    pub start: u32,
    pub end: u32,
}

/// Why one block of a batch was not stored: data of the answer (`errors.rs`).
#[napi(object)]
pub struct NativeFailure {
    /// A reason code (`ErrorCode`).
    pub code: String,
    pub path: String,
    pub detail: String,
}

impl From<ledger_core::Error> for NativeFailure {
    fn from(e: ledger_core::Error) -> Self {
        NativeFailure { code: e.code.to_string(), path: e.path, detail: e.detail }
    }
}

#[napi(object)]
pub struct SubmitOutcome {
    pub block_id: Option<String>,
    pub stored: bool,
    pub failure: Option<NativeFailure>,
}

#[napi(object)]
pub struct MilestoneOutcome {
    pub index: u32,
    pub milestone_id: String,
    pub block_id: String,
    pub timestamp: u32,
    pub referenced_blocks: u32,
    pub included_transactions: u32,
    /// Microseconds in white flag and in the atomic commit.
    pub confirm_micros: f64,
    pub commit_micros: f64,
}

#[napi(object)]
pub struct ColumnSize {
    /// The column family's name (ledger-store `columns.rs`).
    pub name: String,
    pub bytes: f64,
}

#[napi(object)]
pub struct FoundOutput {
    pub output: Buffer,
    pub metadata_json: String,
}

#[napi(object)]
pub struct FoundMilestone {
    pub index: u32,
    pub timestamp: u32,
    pub milestone_id: String,
    pub block_id: String,
    pub payload: Buffer,
}

#[napi(object)]
pub struct UtxoChangesJs {
    pub index: u32,
    pub created_outputs: Vec<String>,
    pub consumed_outputs: Vec<String>,
}

#[napi(object)]
pub struct LatestMilestoneJs {
    pub index: u32,
    pub timestamp: Option<u32>,
    pub milestone_id: Option<String>,
}

/// The blocks of the last milestone interval (`ledger_store::MilestoneInterval`).
#[napi(object)]
pub struct MilestoneIntervalJs {
    pub index: u32,
    pub new_blocks: f64,
    pub referenced_blocks: f64,
    pub seconds: u32,
}

#[napi(object)]
pub struct StoreStatusJs {
    pub latest_milestone: LatestMilestoneJs,
    pub ledger_index: u32,
    /// The snapshot's target index (0 for a ledger that began at genesis).
    pub pruning_index: u32,
    pub blocks_stored: f64,
    pub pending_blocks: f64,
    pub blocks_below_max_depth: f64,
    pub last_interval: Option<MilestoneIntervalJs>,
}

/// An indexer query (indexer.md §2). Values are already checked by the HTTP layer:
/// addresses are bech32 of the network's HRP, the tag 0x-hex of 1 to 64 bytes.
#[napi(object)]
pub struct IndexerQuery {
    /// `outputs` (the four kinds merged), `basic`, `alias`, `foundry` or `nft`.
    pub route: String,
    pub unlockable_by_address: Option<String>,
    pub address: Option<String>,
    pub has_storage_deposit_return: Option<bool>,
    pub storage_deposit_return_address: Option<String>,
    pub has_timelock: Option<bool>,
    pub timelocked_before: Option<u32>,
    pub timelocked_after: Option<u32>,
    pub has_expiration: Option<bool>,
    pub expires_before: Option<u32>,
    pub expires_after: Option<u32>,
    pub expiration_return_address: Option<String>,
    pub sender: Option<String>,
    pub issuer: Option<String>,
    pub tag: Option<String>,
    pub state_controller: Option<String>,
    pub governor: Option<String>,
    pub alias_address: Option<String>,
    pub has_native_tokens: Option<bool>,
    pub min_native_token_count: Option<u32>,
    pub max_native_token_count: Option<u32>,
    pub created_before: Option<u32>,
    pub created_after: Option<u32>,
    /// The 76 hex digits of a cursor: the first key of the page.
    pub cursor: Option<String>,
    pub page_size: u32,
}

fn output_query(q: IndexerQuery) -> ledger_core::Result<OutputQuery> {
    let address = |value: &Option<String>, path: &str| -> ledger_core::Result<_> {
        value
            .as_deref()
            .map(|text| {
                ledger_core::bech32::decode_address(text)
                    .map(|(_, a)| a)
                    .map_err(|e| ledger_core::Error::new(e.code, path, e.detail))
            })
            .transpose()
    };
    let of = match q.route.as_str() {
        "outputs" => OutputsOf::AllKinds,
        "basic" => OutputsOf::Kind(OutputKind::Basic),
        "alias" => OutputsOf::Kind(OutputKind::Alias),
        "foundry" => OutputsOf::Kind(OutputKind::Foundry),
        "nft" => OutputsOf::Kind(OutputKind::Nft),
        other => {
            return Err(ledger_core::Error::new(
                Code::InvalidArgument,
                "route",
                format!("no indexer route {other}"),
            ))
        }
    };
    let tag = match &q.tag {
        Some(text) => Some(
            hex::decode(text.trim_start_matches("0x"))
                .map_err(|_| ledger_core::Error::new(Code::InvalidArgument, "tag", "not hex"))?,
        ),
        None => None,
    };
    let filter = OutputFilter {
        unlockable_by_address: address(&q.unlockable_by_address, "unlockableByAddress")?,
        address: address(&q.address, "address")?,
        has_storage_deposit_return: q.has_storage_deposit_return,
        storage_deposit_return_address: address(
            &q.storage_deposit_return_address,
            "storageDepositReturnAddress",
        )?,
        has_timelock: q.has_timelock,
        timelocked_before: q.timelocked_before,
        timelocked_after: q.timelocked_after,
        has_expiration: q.has_expiration,
        expires_before: q.expires_before,
        expires_after: q.expires_after,
        expiration_return_address: address(
            &q.expiration_return_address,
            "expirationReturnAddress",
        )?,
        sender: address(&q.sender, "sender")?,
        issuer: address(&q.issuer, "issuer")?,
        tag,
        state_controller: address(&q.state_controller, "stateController")?,
        governor: address(&q.governor, "governor")?,
        alias_address: address(&q.alias_address, "aliasAddress")?,
        has_native_tokens: q.has_native_tokens,
        min_native_token_count: q.min_native_token_count,
        max_native_token_count: q.max_native_token_count,
        created_before: q.created_before,
        created_after: q.created_after,
    };
    let cursor = q.cursor.as_deref().map(SortKey::from_hex).transpose()?;
    Ok(OutputQuery { of, filter, cursor, page_size: q.page_size })
}

#[napi]
pub struct LedgerStore {
    /// None once closed. Async tasks hold their own Arc, so RocksDB closes when the last
    /// task in flight has finished.
    store: RwLock<Option<Arc<Store>>>,
    /// The key under which `open` published the store for other threads (`attach`); None
    /// for an attached handle, which must leave the owner's event listener alone on close.
    published_as: Option<String>,
    /// The store's key in this process (its data directory), for attaching gossip too.
    pub(crate) key: String,
    /// Where the blocks the API and the coordinator store go for broadcast while gossip
    /// runs (`ledger_sync::LocalBlocks`, attached by `GossipNode.start`). One per open
    /// store, shared by every handle of the process (the HTTP workers' too).
    pub(crate) local: Arc<LocalBlocks>,
}

/// The broadcast hook of each store open in this process, by the same key as the store:
/// an attached handle announces through the owner's hook, so that a block submitted on
/// any HTTP event loop reaches the peers.
static LOCAL_BLOCKS: Shared<LocalBlocks> = Shared::new();

/// Stores open in this process, by data directory, for the HTTP worker threads (shared.rs).
static OPEN_STORES: Shared<Store> = Shared::new();

pub(crate) fn store_key(data_dir: &str) -> String {
    let ledger = Path::new(data_dir).join("ledger");
    std::fs::canonicalize(&ledger).unwrap_or(ledger).to_string_lossy().into_owned()
}

fn open_options(o: StoreOpenOptions) -> Result<StoreOptions> {
    let protocol = protocol_from_json(&o.protocol_json).map_err(to_napi)?;
    let genesis_outputs = o
        .genesis_outputs
        .iter()
        .enumerate()
        .map(|(i, b)| {
            decode_output(b).map_err(|e| to_napi(e.within(&format!("genesis.outputs[{i}]"))))
        })
        .collect::<Result<Vec<_>>>()?;
    let coordinator_seeds = o
        .coordinator_private_keys
        .iter()
        .enumerate()
        .map(|(i, k)| hex_array::<32>(k, &format!("coordinator.privateKeys[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let trusted_public_keys = o
        .coordinator_public_keys
        .iter()
        .enumerate()
        .map(|(i, k)| hex_array::<32>(k, &format!("coordinator.publicKeys[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let ranges = o.public_key_ranges.unwrap_or_default();
    let milestone_keys = MilestoneKeys {
        ranges: ranges
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let path = format!("protocol.publicKeyRanges[{i}].key");
                let key =
                    if r.key.starts_with("0x") { r.key.clone() } else { format!("0x{}", r.key) };
                Ok(KeyRange {
                    public_key: hex_array::<32>(&key, &path)?,
                    start: r.start,
                    end: r.end,
                })
            })
            .collect::<Result<Vec<_>>>()?,
        threshold: o.milestone_public_key_count.unwrap_or(0) as usize,
    };
    Ok(StoreOptions {
        protocol,
        genesis_outputs,
        genesis_style: GenesisStyle::parse(&o.genesis_style).map_err(to_napi)?,
        snapshot: o.snapshot_path.filter(|p| !p.is_empty()).map(Into::into),
        coordinator_seeds,
        trusted_public_keys,
        milestone_keys,
        coordinator_enabled: o.coordinator_enabled,
        sync_writes: o.sync_writes,
        max_delta_ycri: o.max_delta_ycri,
        max_delta_ocri: o.max_delta_ocri,
        block_cache_bytes: (o.block_cache_mib as usize) << 20,
        write_buffer_bytes: (o.write_buffers_mib as usize) << 20,
        indexer_enabled: o.indexer_enabled,
    })
}

fn milestone_js(r: MilestoneRecord) -> FoundMilestone {
    FoundMilestone {
        index: r.index,
        timestamp: r.timestamp,
        milestone_id: hex(&r.milestone_id),
        block_id: hex(&r.block_id),
        payload: r.payload.into(),
    }
}

#[napi]
impl LedgerStore {
    /// Open or create the store in `dataDir` (RocksDB lives in `dataDir/ledger`), off the
    /// event loop: on a large ledger, checking the supply invariant reads every unspent
    /// output.
    #[napi(ts_return_type = "Promise<LedgerStore>")]
    pub fn open(data_dir: String, options: StoreOpenOptions) -> Result<AsyncTask<OpenTask>> {
        Ok(AsyncTask::new(OpenTask {
            path: Path::new(&data_dir).join("ledger"),
            key: store_key(&data_dir),
            options: Some(open_options(options)?),
        }))
    }

    /// Another handle on the store that this process has open in `dataDir` (for a worker
    /// thread; RocksDB opens a directory once per process). RocksDB stays open until the
    /// owner and every attached handle are closed.
    #[napi(factory)]
    pub fn attach(data_dir: String) -> Result<LedgerStore> {
        let key = store_key(&data_dir);
        let store = OPEN_STORES.find(&key).ok_or_else(|| {
            to_napi(ledger_core::Error::new(
                Code::StoreClosed,
                "",
                format!("no store is open in {data_dir} in this process"),
            ))
        })?;
        // The owner's hook: gossip started on any handle sees the blocks of every handle.
        let local = LOCAL_BLOCKS.find(&key).unwrap_or_default();
        Ok(LedgerStore { store: RwLock::new(Some(store)), published_as: None, key, local })
    }

    pub(crate) fn get(&self) -> Result<Arc<Store>> {
        let guard = self.store.read().unwrap_or_else(|p| p.into_inner());
        guard.clone().ok_or_else(|| {
            to_napi(ledger_core::Error::new(Code::StoreClosed, "", "the store is closed"))
        })
    }

    /// Close the database (once the async work in flight has finished).
    #[napi]
    pub fn close(&self) {
        // The event listener (a threadsafe function) goes first: tasks still in flight
        // must not call into JavaScript after the store was closed there.
        if let Some(store) = self.store.write().unwrap_or_else(|p| p.into_inner()).take() {
            if let Some(key) = &self.published_as {
                OPEN_STORES.withdraw(key, &store);
                LOCAL_BLOCKS.withdraw(key, &self.local);
                store.set_event_listener(None);
            }
        }
    }

    #[napi]
    pub fn protocol_json(&self) -> Result<String> {
        Ok(protocol_json(self.get()?.protocol()))
    }

    #[napi]
    pub fn is_ready(&self) -> Result<bool> {
        Ok(self.get()?.is_ready())
    }

    #[napi]
    pub fn select_tips(&self) -> Result<Vec<String>> {
        Ok(self.get()?.select_tips().map_err(to_napi)?.iter().map(|id| hex(id)).collect())
    }

    /// The body of GET /tips, `{"tips":[…]}`: one string across the boundary.
    #[napi]
    pub fn select_tips_json(&self) -> Result<String> {
        self.get()?.select_tips_json().map_err(to_napi)
    }

    /// The latest milestone's index (0 before milestone 1): a cheap way to see whether
    /// `status()`, which builds a whole object, has anything new.
    #[napi]
    pub fn latest_milestone_index(&self) -> Result<u32> {
        Ok(self.get()?.status().latest_milestone.map_or(0, |(index, _, _)| index))
    }

    /// Validate and store serialized blocks off the event loop: one outcome per block, in
    /// order; all of them written in one batch (see `Store::submit_blocks`). The buffers are
    /// borrowed for the call and copied: a `Buffer` argument would create (and delete) a
    /// reference to each, which costs more than copying a block.
    #[napi(ts_return_type = "Promise<SubmitOutcome[]>")]
    pub fn submit_blocks(&self, blocks: Vec<BufferSlice<'_>>) -> Result<AsyncTask<SubmitTask>> {
        Ok(AsyncTask::new(SubmitTask {
            store: self.get()?,
            local: self.local.clone(),
            blocks: blocks.iter().map(|b| b.to_vec()).collect(),
        }))
    }

    /// Every rule `submitBlocks` applies but the proof of work, parents known, nothing
    /// written (`Store::precheck_block`): run before a nonce is mined. A task, because the
    /// parent lookup may read RocksDB and wait for the lock a batch write holds. Rejects
    /// with the first rule the block breaks.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn precheck_block(&self, block: Buffer) -> Result<AsyncTask<PrecheckTask>> {
        Ok(AsyncTask::new(PrecheckTask { store: self.get()?, block: block.to_vec() }))
    }

    /// Before a milestone: the checkpoint blocks it needs when more tips wait than it can
    /// approve (ledger-store `checkpoints.rs`), mined and stored off the event loop and
    /// announced to peers. Resolves to the number of checkpoint blocks stored.
    #[napi(ts_return_type = "Promise<number>")]
    pub fn issue_checkpoints(&self) -> Result<AsyncTask<CheckpointTask>> {
        Ok(AsyncTask::new(CheckpointTask { store: self.get()?, local: self.local.clone() }))
    }

    /// Issue the next milestone with the embedded coordinator, off the event loop.
    #[napi(ts_return_type = "Promise<MilestoneOutcome>")]
    pub fn issue_milestone(&self, timestamp: Option<u32>) -> Result<AsyncTask<IssueTask>> {
        Ok(AsyncTask::new(IssueTask { store: self.get()?, local: self.local.clone(), timestamp }))
    }

    /// The block's bytes, copied into a buffer of the JavaScript heap: for a few hundred
    /// bytes that is much cheaper than an external buffer, whose finalizer the garbage
    /// collector would have to run for every lookup.
    #[napi(ts_return_type = "Buffer | null")]
    pub fn get_block<'env>(
        &self,
        env: &'env Env,
        block_id: String,
    ) -> Result<Option<BufferSlice<'env>>> {
        let id = hex_array::<32>(&block_id, "blockId")?;
        match self.get()?.block(&id).map_err(to_napi)? {
            Some(bytes) => Ok(Some(
                BufferSlice::copy_from(env, bytes).map_err(|e| invalid_state(e.to_string()))?,
            )),
            None => Ok(None),
        }
    }

    #[napi]
    pub fn get_block_metadata(&self, block_id: String) -> Result<Option<String>> {
        let id = hex_array::<32>(&block_id, "blockId")?;
        self.get()?.block_metadata_json(&id).map_err(to_napi)
    }

    /// Up to `max` child block ids in id order; null for unknown blocks.
    #[napi]
    pub fn get_block_children(&self, block_id: String, max: u32) -> Result<Option<Vec<String>>> {
        let id = hex_array::<32>(&block_id, "blockId")?;
        Ok(self
            .get()?
            .children(&id, max as usize)
            .map_err(to_napi)?
            .map(|c| c.iter().map(|b| hex(b)).collect()))
    }

    #[napi]
    pub fn get_included_block_id(&self, transaction_id: String) -> Result<Option<String>> {
        let id = hex_array::<32>(&transaction_id, "transactionId")?;
        Ok(self.get()?.included_block_id(&id).map_err(to_napi)?.map(|b| hex(&b)))
    }

    /// Every stored block that carries the transaction, referenced or not.
    #[napi]
    pub fn get_blocks_with_transaction(&self, transaction_id: String) -> Result<Vec<String>> {
        let id = hex_array::<32>(&transaction_id, "transactionId")?;
        Ok(self
            .get()?
            .blocks_with_transaction(&id)
            .map_err(to_napi)?
            .iter()
            .map(|b| hex(b))
            .collect())
    }

    #[napi]
    pub fn get_output(&self, output_id: String) -> Result<Option<FoundOutput>> {
        let id = hex_array::<34>(&output_id, "outputId")?;
        Ok(self
            .get()?
            .output(&id)
            .map_err(to_napi)?
            .map(|(output, metadata_json)| FoundOutput { output: output.into(), metadata_json }))
    }

    #[napi]
    pub fn get_milestone_by_index(&self, index: u32) -> Result<Option<FoundMilestone>> {
        Ok(self.get()?.milestone_by_index(index).map_err(to_napi)?.map(milestone_js))
    }

    #[napi]
    pub fn get_milestone_by_id(&self, milestone_id: String) -> Result<Option<FoundMilestone>> {
        let id = hex_array::<32>(&milestone_id, "milestoneId")?;
        Ok(self.get()?.milestone_by_id(&id).map_err(to_napi)?.map(milestone_js))
    }

    #[napi]
    pub fn get_utxo_changes(&self, index: u32) -> Result<Option<UtxoChangesJs>> {
        Ok(self.get()?.utxo_changes(index).map_err(to_napi)?.map(|c| UtxoChangesJs {
            index: c.index,
            created_outputs: c.created.iter().map(|id| hex(id)).collect(),
            consumed_outputs: c.consumed.iter().map(|id| hex(id)).collect(),
        }))
    }

    /// One page of an indexer query as JSON text, off the event loop (a query without an
    /// address-like filter may walk many outputs): the response body of indexer.md §3.1.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn query_outputs(&self, query: IndexerQuery) -> Result<AsyncTask<QueryTask>> {
        Ok(AsyncTask::new(QueryTask { store: self.get()?, query: Some(output_query(query)) }))
    }

    /// The body of a by-ID indexer route (`kind`: `alias`, `nft` or `foundry`; `id`: 0x +
    /// 64 or 76 hex digits); null when no unspent output of that chain exists.
    #[napi]
    pub fn get_chain_output(&self, kind: String, id: String) -> Result<Option<String>> {
        let chain = match kind.as_str() {
            "alias" => ChainId::Alias(hex_array::<32>(&id, "aliasId")?),
            "nft" => ChainId::Nft(hex_array::<32>(&id, "nftId")?),
            "foundry" => ChainId::Foundry(hex_array::<38>(&id, "foundryId")?),
            other => return Err(invalid_state(format!("no chain kind {other}"))),
        };
        let (ledger_index, found) = self.get()?.chain_output(&chain).map_err(to_napi)?;
        Ok(found.map(|output_id| {
            OutputPage { ledger_index, page_size: 0, items: vec![output_id], next: None }.to_json()
        }))
    }

    #[napi]
    pub fn status(&self) -> Result<StoreStatusJs> {
        let s = self.get()?.status();
        let latest_milestone = match s.latest_milestone {
            Some((index, timestamp, id)) => LatestMilestoneJs {
                index,
                timestamp: Some(timestamp),
                milestone_id: Some(hex(&id)),
            },
            None => LatestMilestoneJs { index: 0, timestamp: None, milestone_id: None },
        };
        Ok(StoreStatusJs {
            latest_milestone,
            ledger_index: s.ledger_index,
            pruning_index: s.pruning_index,
            blocks_stored: s.blocks_stored as f64,
            pending_blocks: s.pending_blocks as f64,
            blocks_below_max_depth: s.blocks_below_max_depth as f64,
            last_interval: s.last_interval.map(|i| MilestoneIntervalJs {
                index: i.index,
                new_blocks: i.new_blocks as f64,
                referenced_blocks: i.referenced_blocks as f64,
                seconds: i.seconds,
            }),
        })
    }

    #[napi]
    pub fn approximate_size_bytes(&self) -> Result<f64> {
        Ok(self.get()?.approximate_size_bytes() as f64)
    }

    /// Memory RocksDB holds now (block cache contents and memtables), in bytes.
    #[napi]
    pub fn storage_memory_bytes(&self) -> Result<f64> {
        Ok(self.get()?.storage_memory_bytes() as f64)
    }

    /// The approximate size of each RocksDB column family, in bytes.
    #[napi]
    pub fn approximate_sizes(&self) -> Result<Vec<ColumnSize>> {
        Ok(self
            .get()?
            .approximate_sizes()
            .into_iter()
            .map(|(name, bytes)| ColumnSize { name: name.to_string(), bytes: bytes as f64 })
            .collect())
    }
}

pub struct OpenTask {
    path: std::path::PathBuf,
    key: String,
    options: Option<StoreOptions>,
}

impl Task for OpenTask {
    type Output = ledger_core::Result<Store>;
    type JsValue = LedgerStore;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let options = self.options.take().expect("a task computes once");
        Ok(Store::open(&self.path, options))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<LedgerStore> {
        match output {
            Ok(store) => {
                let store = Arc::new(store);
                OPEN_STORES.publish(self.key.clone(), &store);
                let local = Arc::new(LocalBlocks::new());
                LOCAL_BLOCKS.publish(self.key.clone(), &local);
                Ok(LedgerStore {
                    store: RwLock::new(Some(store)),
                    published_as: Some(self.key.clone()),
                    key: self.key.clone(),
                    local,
                })
            }
            Err(e) => Err(rejection(&env, to_napi(e))),
        }
    }
}

pub struct SubmitTask {
    store: Arc<Store>,
    local: Arc<LocalBlocks>,
    blocks: Vec<Vec<u8>>,
}

impl Task for SubmitTask {
    type Output = Vec<ledger_core::Result<Submitted>>;
    type JsValue = Vec<SubmitOutcome>;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        // Stored, then handed to gossip while it runs: one hand-over per batch.
        Ok(self.local.submit_blocks(&self.store, std::mem::take(&mut self.blocks)))
    }
    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<Vec<SubmitOutcome>> {
        Ok(output
            .into_iter()
            .map(|result| match result {
                Ok(s) => SubmitOutcome {
                    block_id: Some(hex(&s.block_id)),
                    stored: s.stored,
                    failure: None,
                },
                Err(e) => SubmitOutcome { block_id: None, stored: false, failure: Some(e.into()) },
            })
            .collect())
    }
}

pub struct PrecheckTask {
    store: Arc<Store>,
    block: Vec<u8>,
}

impl Task for PrecheckTask {
    type Output = ledger_core::Result<()>;
    type JsValue = ();
    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.store.precheck_block(&self.block))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<()> {
        output.map_err(|e| rejection(&env, to_napi(e)))
    }
}

pub struct CheckpointTask {
    store: Arc<Store>,
    local: Arc<LocalBlocks>,
}

impl Task for CheckpointTask {
    type Output = ledger_core::Result<usize>;
    type JsValue = u32;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        // Nothing cancels it: at most MAX_CHECKPOINTS proofs of work, and the coordinator's
        // stop waits for the milestone in progress anyway.
        Ok(self.local.issue_checkpoints(&self.store, &AtomicBool::new(false)))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<u32> {
        output.map(|count| count as u32).map_err(|e| rejection(&env, to_napi(e)))
    }
}

pub struct IssueTask {
    store: Arc<Store>,
    local: Arc<LocalBlocks>,
    timestamp: Option<u32>,
}

impl Task for IssueTask {
    type Output = ledger_core::Result<IssuedMilestone>;
    type JsValue = MilestoneOutcome;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.local.issue_milestone(&self.store, self.timestamp))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<MilestoneOutcome> {
        let m = output.map_err(|e| rejection(&env, to_napi(e)))?;
        Ok(MilestoneOutcome {
            index: m.index,
            milestone_id: hex(&m.milestone_id),
            block_id: hex(&m.block_id),
            timestamp: m.timestamp,
            referenced_blocks: m.referenced_blocks as u32,
            included_transactions: m.included_transactions as u32,
            confirm_micros: m.confirm_micros as f64,
            commit_micros: m.commit_micros as f64,
        })
    }
}

pub struct QueryTask {
    store: Arc<Store>,
    query: Option<ledger_core::Result<OutputQuery>>,
}

impl Task for QueryTask {
    type Output = ledger_core::Result<String>;
    type JsValue = String;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let query = self.query.take().expect("a task computes once");
        Ok(query.and_then(|q| self.store.indexed_outputs(&q)).map(|page| page.to_json()))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<String> {
        output.map_err(|e| rejection(&env, to_napi(e)))
    }
}
