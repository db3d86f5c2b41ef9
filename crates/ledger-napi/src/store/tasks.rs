//! The store's async work for JavaScript: one napi `Task` per operation, run on libuv's
//! thread pool so that decoding, validation, white flag and RocksDB writes stay off the
//! event loop. `compute` is the Rust call (through `ledger_sync::LocalBlocks` where the
//! node's own blocks go on to gossip); `resolve` only converts (objects.rs). Each task holds
//! its own `Arc` of the store, so closing waits for the work in flight.

use crate::errors::{rejection, to_napi};
use crate::store::objects::{MilestoneOutcome, SubmitOutcome};
use crate::store::registry::{store_key, LOCAL_BLOCKS, OPEN_STORES};
use crate::store::LedgerStore;
use ledger_store::{IssuedMilestone, OutputQuery, Store, StoreOptions, Submitted};
use ledger_sync::LocalBlocks;
use napi::bindgen_prelude::Buffer;
use napi::{Env, Task};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

pub struct OpenTask {
    pub(super) data_dir: String,
    pub(super) options: Option<StoreOptions>,
}

impl Task for OpenTask {
    /// The store and the key it is published under.
    type Output = ledger_core::Result<(Store, String)>;
    type JsValue = LedgerStore;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let options = self.options.take().expect("a task computes once");
        let opened = Store::open(&std::path::Path::new(&self.data_dir).join("ledger"), options);
        // The key once the directory exists: a new relative data directory has no canonical
        // form before, and `attach` (after) would spell it differently.
        Ok(opened.map(|store| (store, store_key(&self.data_dir))))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<LedgerStore> {
        match output {
            Ok((store, key)) => {
                let store = Arc::new(store);
                OPEN_STORES.publish(key.clone(), &store);
                let local = Arc::new(LocalBlocks::new());
                LOCAL_BLOCKS.publish(key.clone(), &local);
                Ok(LedgerStore {
                    store: RwLock::new(Some(store)),
                    published_as: Some(key.clone()),
                    key,
                    local,
                })
            }
            Err(e) => Err(rejection(&env, to_napi(e))),
        }
    }
}

pub struct SubmitTask {
    pub(super) store: Arc<Store>,
    pub(super) local: Arc<LocalBlocks>,
    pub(super) blocks: Vec<Vec<u8>>,
}

impl Task for SubmitTask {
    type Output = Vec<ledger_core::Result<Submitted>>;
    type JsValue = Vec<SubmitOutcome>;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        // Stored, then handed to gossip while it runs: one hand-over per batch.
        Ok(self.local.submit_blocks(&self.store, std::mem::take(&mut self.blocks)))
    }
    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<Vec<SubmitOutcome>> {
        Ok(output.into_iter().map(SubmitOutcome::from).collect())
    }
}

pub struct PrecheckTask {
    pub(super) store: Arc<Store>,
    pub(super) block: Vec<u8>,
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
    pub(super) store: Arc<Store>,
    pub(super) local: Arc<LocalBlocks>,
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
    pub(super) store: Arc<Store>,
    pub(super) local: Arc<LocalBlocks>,
    pub(super) timestamp: Option<u32>,
}

impl Task for IssueTask {
    type Output = ledger_core::Result<IssuedMilestone>;
    type JsValue = MilestoneOutcome;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.local.issue_milestone(&self.store, self.timestamp))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<MilestoneOutcome> {
        output.map(Into::into).map_err(|e| rejection(&env, to_napi(e)))
    }
}

pub struct QueryTask {
    pub(super) store: Arc<Store>,
    pub(super) query: Option<ledger_core::Result<OutputQuery>>,
}

impl Task for QueryTask {
    type Output = ledger_core::Result<Vec<u8>>;
    type JsValue = Buffer;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        let query = self.query.take().expect("a task computes once");
        Ok(query.and_then(|q| self.store.indexed_outputs(&q)).map(|page| page.to_json_bytes()))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Buffer> {
        output.map(Buffer::from).map_err(|e| rejection(&env, to_napi(e)))
    }
}
