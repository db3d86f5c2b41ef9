//! The node's own blocks for gossip: blocks its API stores and the checkpoints and
//! milestones its coordinator issues are broadcast to every peer (`StoreEvent::Local`,
//! gossip.md §6 step 7), one hand-over per intake batch.
//!
//! `LocalBlocks` is the hook between the places that store such blocks and the gossip that
//! runs (or not) over the same store: the binding keeps one per open store and hands the
//! same one to every handle of the process (the HTTP workers' too, docs/performance.md),
//! so that a block submitted on any event loop reaches the peers. `GossipSync` attaches
//! itself at start and detaches at stop; while nothing is attached the blocks are only
//! stored.

use crate::sync_store::SyncStore;
use ledger_store::{IssuedMilestone, Store, Submitted};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

#[derive(Default)]
pub struct LocalBlocks {
    gossip: RwLock<Option<Arc<SyncStore>>>,
}

impl LocalBlocks {
    pub fn new() -> LocalBlocks {
        LocalBlocks::default()
    }

    /// Whether gossip runs over this hook now.
    pub fn is_attached(&self) -> bool {
        self.gossip().is_some()
    }

    pub(crate) fn attach(&self, intake: Arc<SyncStore>) {
        *self.gossip.write().unwrap_or_else(|p| p.into_inner()) = Some(intake);
    }

    /// Detach `intake` if it is still the one attached.
    pub(crate) fn detach(&self, intake: &Arc<SyncStore>) {
        let mut gossip = self.gossip.write().unwrap_or_else(|p| p.into_inner());
        if gossip.as_ref().is_some_and(|g| Arc::ptr_eq(g, intake)) {
            *gossip = None;
        }
    }

    fn gossip(&self) -> Option<Arc<SyncStore>> {
        self.gossip.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// `Store::submit_blocks` for the API (one batch, one result per block), then the
    /// blocks it stored now go to gossip. The bytes move on (the caller needs the ids only),
    /// and only while gossip runs.
    pub fn submit_blocks(
        &self,
        store: &Store,
        blocks: Vec<Vec<u8>>,
    ) -> Vec<ledger_core::Result<Submitted>> {
        let results = store.submit_blocks(&blocks.iter().map(|b| b.as_slice()).collect::<Vec<_>>());
        if let Some(gossip) = self.gossip() {
            let stored = blocks
                .into_iter()
                .zip(&results)
                .filter_map(|(bytes, result)| match result {
                    Ok(Submitted { block_id, stored: true }) => Some((*block_id, bytes)),
                    _ => None,
                })
                .collect();
            gossip.local_blocks(stored);
        }
        results
    }

    /// Blocks stored by another door than `submit_blocks` (the INX server's SubmitBlock):
    /// they go to gossip while it runs.
    pub fn announce(&self, blocks: Vec<([u8; 32], Vec<u8>)>) {
        if let Some(gossip) = self.gossip() {
            gossip.local_blocks(blocks);
        }
    }

    /// `Store::issue_checkpoints` (the coordinator's blocks before a milestone), each one
    /// handed to gossip; how many were stored.
    pub fn issue_checkpoints(
        &self,
        store: &Store,
        cancel: &AtomicBool,
    ) -> ledger_core::Result<usize> {
        let checkpoints = store.issue_checkpoints(cancel)?;
        let count = checkpoints.len();
        if let Some(gossip) = self.gossip() {
            for c in checkpoints {
                gossip.local_block(c.block_id, c.bytes, false);
            }
        }
        Ok(count)
    }

    /// `Store::issue_milestone` (the embedded coordinator), its block handed to gossip,
    /// which also tells peers the new index.
    pub fn issue_milestone(
        &self,
        store: &Store,
        timestamp: Option<u32>,
    ) -> ledger_core::Result<IssuedMilestone> {
        let issued = store.issue_milestone(timestamp)?;
        if let Some(gossip) = self.gossip() {
            if let Ok(Some(bytes)) = store.block(&issued.block_id) {
                gossip.local_block(issued.block_id, bytes, true);
            }
        }
        Ok(issued)
    }
}
