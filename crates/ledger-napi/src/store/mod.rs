//! The ledger store for JavaScript: a `LedgerStore` object over `ledger_store::Store`.
//!
//! Submitting a block, checking one before mining, issuing checkpoints and milestones and
//! indexer queries run as async tasks on libuv's thread pool (`tasks.rs`; decoding,
//! validation, white flag and RocksDB writes stay off the event loop; mining has a pool of
//! its own, `pow.rs`); lookups are synchronous point reads. Ids cross as 0x-hex strings,
//! bytes as Buffers, metadata objects as JSON text. Failures are thrown, or reject the async
//! calls, as `errors.rs` says; only a submitted batch answers a `failure` per block.
//!
//! This file holds the class and its methods, each a call and a conversion; beside it:
//! `options` (the open options), `objects` (the objects returned and their conversion),
//! `indexer` (indexer queries and their answers), `tasks` (the async work) and
//! `registry` (what other threads of the process find by the store's key).

mod indexer;
mod objects;
mod options;
mod registry;
mod tasks;

pub use objects::*;
pub use options::StoreOpenOptions;
pub(crate) use registry::store_key;
pub use tasks::{CheckpointTask, IssueTask, OpenTask, PrecheckTask, QueryTask, SubmitTask};

use crate::codec::hex_array;
use crate::errors::{to_napi, Result};
use indexer::{chain_id, chain_output_json, output_query};
use ledger_core::json::hex;
use ledger_core::Code;
use ledger_store::{protocol_json, Store};
use ledger_sync::LocalBlocks;
use napi::bindgen_prelude::{AsyncTask, Buffer, BufferSlice};
use napi::Env;
use napi_derive::napi;
use options::open_options;
use registry::{LOCAL_BLOCKS, OPEN_STORES};
use std::sync::{Arc, RwLock};

pub(crate) fn invalid_state(detail: String) -> napi::Error<String> {
    to_napi(ledger_core::Error::new(Code::BindingFailure, "", detail))
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

#[napi]
impl LedgerStore {
    /// Open or create the store in `dataDir` (RocksDB lives in `dataDir/ledger`), off the
    /// event loop: on a large ledger, checking the supply invariant reads every unspent
    /// output.
    #[napi(ts_return_type = "Promise<LedgerStore>")]
    pub fn open(data_dir: String, options: StoreOpenOptions) -> Result<AsyncTask<OpenTask>> {
        Ok(AsyncTask::new(OpenTask { data_dir, options: Some(open_options(options)?) }))
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
                // The background pruning stops between two of its batches.
                store.stop_pruning();
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

    /// Whether the last write failed because the file system is full: as cheap as
    /// `latest_milestone_index`, for the same reason.
    #[napi]
    pub fn storage_full(&self) -> Result<bool> {
        Ok(self.get()?.status().storage_full)
    }

    /// The ledger check this open made because the last run did not close the data
    /// directory (a crash, kill -9); null after a clean close.
    #[napi]
    pub fn start_check(&self) -> Result<Option<StartCheckJs>> {
        Ok(self.get()?.start_check().map(StartCheckJs::from))
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
        Ok(self.get()?.milestone_by_index(index).map_err(to_napi)?.map(Into::into))
    }

    #[napi]
    pub fn get_milestone_by_id(&self, milestone_id: String) -> Result<Option<FoundMilestone>> {
        let id = hex_array::<32>(&milestone_id, "milestoneId")?;
        Ok(self.get()?.milestone_by_id(&id).map_err(to_napi)?.map(Into::into))
    }

    #[napi]
    pub fn get_utxo_changes(&self, index: u32) -> Result<Option<UtxoChangesJs>> {
        Ok(self.get()?.utxo_changes(index).map_err(to_napi)?.map(Into::into))
    }

    /// One page of an indexer query as JSON (UTF-8 bytes, sent as they are), off the event
    /// loop (a query without an address-like filter may walk many outputs): the response
    /// body of indexer.md §3.1. The
    /// query holds `route`, `pageSize`, an optional `cursor` and the filters of
    /// `indexerFilterFields()` by name (indexer.rs).
    #[napi(
        ts_args_type = "query: { route: string; pageSize: number; cursor?: string }",
        ts_return_type = "Promise<Buffer>"
    )]
    pub fn query_outputs(
        &self,
        query: serde_json::Map<String, serde_json::Value>,
    ) -> Result<AsyncTask<QueryTask>> {
        Ok(AsyncTask::new(QueryTask { store: self.get()?, query: Some(output_query(&query)) }))
    }

    /// The body of a by-ID indexer route (`kind`: `alias`, `nft` or `foundry`; `id`: 0x +
    /// 64 or 76 hex digits); null when no unspent output of that chain exists.
    #[napi]
    pub fn get_chain_output(&self, kind: String, id: String) -> Result<Option<String>> {
        let chain = chain_id(&kind, &id)?;
        let (ledger_index, found) = self.get()?.chain_output(&chain).map_err(to_napi)?;
        Ok(chain_output_json(ledger_index, found))
    }

    #[napi]
    pub fn status(&self) -> Result<StoreStatusJs> {
        Ok(self.get()?.status().into())
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
