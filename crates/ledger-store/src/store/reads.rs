//! Reads: blocks and their metadata, milestones, the ledger, the node's status.

use super::{lock, parents_of, State, Status, Store, UtxoChanges};
use crate::columns::{
    self, BLOCKS, BLOCK_META, CHILDREN, DIFFS, MILESTONES, MILESTONE_IDS, TX_BLOCKS,
};
use crate::index::{self, ChainId, OutputPage, OutputQuery};
use crate::records::{array_at, BlockMeta, Diff, MilestoneRecord};
use crate::tips::TipScore;
use crate::{ledger, metadata, receipts};
use ledger_core::ids;
use ledger_core::model::{Id32, OutputId};
use ledger_core::{Code, Error, Result};

impl Store {
    /// The block's bytes; None for unknown ids and the entry points.
    pub fn block(&self, block_id: &Id32) -> Result<Option<Vec<u8>>> {
        self.db.get(BLOCKS, block_id)
    }

    /// Whether the block is stored, without reading its bytes.
    pub fn has_block(&self, block_id: &Id32) -> Result<bool> {
        self.db.exists(BLOCKS, block_id)
    }

    /// Whether the id is one of the ledger's solid entry points (never a stored block; a
    /// parent that needs nothing more, for gossip's solidification).
    pub fn is_solid_entry_point(&self, id: &Id32) -> bool {
        self.entry_points().contains(id)
    }

    /// Whether the block waits in the pending graph: stored, not referenced by a milestone
    /// yet, not below max depth. From memory; gossip asks it before sending the node's own
    /// blocks again to a peer that has just come (gossip.md §6).
    pub fn awaits_milestone(&self, block_id: &Id32) -> bool {
        lock(&self.state).graph.get(block_id).is_some()
    }

    /// The block metadata object of api.md §2.7 as JSON text.
    pub fn block_metadata_json(&self, block_id: &Id32) -> Result<Option<String>> {
        let Some(bytes) = self.db.get(BLOCKS, block_id)? else { return Ok(None) };
        let parents = parents_of(&bytes)?;
        let state = lock(&self.state);
        if let Some(json) = self.pending_metadata_json(&state, block_id, &parents) {
            return Ok(Some(json));
        }
        drop(state);
        let Some(meta) = self.db.get(BLOCK_META, block_id)? else { return Ok(None) };
        let meta = BlockMeta::from_bytes(&meta)?;
        // A block that left the pending graph below max depth keeps saying so (D24).
        let score = meta.below_max_depth.then_some(TipScore::BelowMaxDepth);
        Ok(Some(metadata::block_json(block_id, &parents, &meta, score)))
    }

    /// Up to `max` children of a stored block (the blocks that name it as a parent), in
    /// id order; None for unknown ids and the entry points, as for `block`.
    pub fn children(&self, block_id: &Id32, max: usize) -> Result<Option<Vec<Id32>>> {
        if !self.db.exists(BLOCKS, block_id)? {
            return Ok(None);
        }
        let mut found = Vec::new();
        self.db.scan(CHILDREN, block_id, |key, _| {
            if found.len() == max {
                return Ok(false);
            }
            found.push(array_at(key, 32)); // parent id ‖ child id
            Ok(true)
        })?;
        Ok(Some(found))
    }

    /// None for unknown indexes and at or below the pruning index (a run may still be
    /// deleting there: what it has not reached yet is not served either).
    pub fn milestone_by_index(&self, index: u32) -> Result<Option<MilestoneRecord>> {
        if self.is_pruned(index) {
            return Ok(None);
        }
        self.db
            .get(MILESTONES, &columns::index_key(index))?
            .map(|b| MilestoneRecord::from_bytes(&b))
            .transpose()
    }

    pub fn milestone_by_id(&self, milestone_id: &Id32) -> Result<Option<MilestoneRecord>> {
        match self.db.get(MILESTONE_IDS, milestone_id)? {
            Some(index) if index.len() == 4 => {
                self.milestone_by_index(u32::from_be_bytes(array_at(&index, 0)))
            }
            _ => Ok(None),
        }
    }

    pub fn utxo_changes(&self, index: u32) -> Result<Option<UtxoChanges>> {
        if self.is_pruned(index) {
            return Ok(None);
        }
        let Some(bytes) = self.db.get(DIFFS, &columns::index_key(index))? else { return Ok(None) };
        let diff = Diff::from_bytes(&bytes)?;
        Ok(Some(UtxoChanges { index, created: diff.created, consumed: diff.consumed }))
    }

    // ----- ledger -------------------------------------------------------------------

    /// The block that carries the included transaction (ledger.md §11): the creator of its
    /// output 0. None for unknown, pending and conflicting transactions and for genesis.
    pub fn included_block_id(&self, transaction_id: &Id32) -> Result<Option<Id32>> {
        if *transaction_id == [0; 32] {
            return Ok(None);
        }
        Ok(ledger::output(&self.db, &ids::output_id(transaction_id, 0))?.map(|r| r.block_id))
    }

    /// The blocks that carry a transaction, whether or not a milestone has referenced them.
    pub fn blocks_with_transaction(&self, transaction_id: &Id32) -> Result<Vec<Id32>> {
        let mut found = Vec::new();
        self.db.scan(TX_BLOCKS, transaction_id, |key, _| {
            if key.len() == 64 {
                found.push(array_at(key, 32));
            }
            Ok(true)
        })?;
        Ok(found)
    }

    /// The output's bytes and its metadata object (api.md §2.9) as JSON text; None while
    /// no milestone has booked it.
    pub fn output(&self, output_id: &OutputId) -> Result<Option<(Vec<u8>, String)>> {
        // Under the lock, so that the output, its spent record and the ledger index come
        // from one milestone.
        let state = lock(&self.state);
        let Some(record) = ledger::output(&self.db, output_id)? else { return Ok(None) };
        let spent = ledger::spent(&self.db, output_id)?;
        let ledger_index = state.latest.map_or(0, |l| l.index);
        drop(state);
        let json = metadata::output_json(output_id, &record, spent.as_ref(), ledger_index);
        Ok(Some((record.output, json)))
    }

    /// The body of `/treasury`: the unspent treasury output as JSON text.
    pub fn treasury_json(&self) -> Result<String> {
        Ok(receipts::treasury_json(&ledger::treasury(&self.db)?))
    }

    /// The body of `/receipts` (all, or those of one migratedAt index) as JSON text.
    pub fn receipts_json(&self, migrated_at: Option<u32>) -> Result<String> {
        Ok(receipts::receipts_json(&receipts::list(&self.db, migrated_at)?))
    }

    // ----- indexer (indexer.md) ---------------------------------------------------------

    fn indexer(&self) -> Result<()> {
        if self.indexer_enabled {
            Ok(())
        } else {
            Err(Error::new(
                Code::IndexerDisabled,
                "",
                "the UTXO indexer is switched off on this node",
            ))
        }
    }

    /// One page of unspent output ids, from one snapshot (no lock: the snapshot alone
    /// makes the page and its ledger index agree).
    pub fn indexed_outputs(&self, query: &OutputQuery) -> Result<OutputPage> {
        self.indexer()?;
        index::query(&self.db, query)
    }

    /// The unspent output of an alias, NFT or foundry chain, with the ledger index.
    pub fn chain_output(&self, chain: &ChainId) -> Result<(u32, Option<OutputId>)> {
        self.indexer()?;
        index::chain_output(&self.db, chain)
    }

    /// Compare the whole index with the unspent outputs of the ledger (tests, checks).
    pub fn verify_index(&self) -> Result<()> {
        self.indexer()?;
        let _state = lock(&self.state);
        index::verify(&self.db)
    }

    /// Renew the copy `status()` reads (called under the state lock after every change).
    pub(super) fn publish_status(&self, state: &State) {
        *lock(&self.status) = super::status_of(state);
    }

    /// At or below the pruning index (nothing there is served), except index 0 of a
    /// ledger that was never pruned, where nothing is stored anyway.
    fn is_pruned(&self, index: u32) -> bool {
        let pruning = self.status().pruning_index;
        pruning > 0 && index <= pruning
    }

    /// Write every memtable to disk and let go of the write-ahead logs (what a pruning run
    /// does after its compaction): for a measure of the data directory that does not depend
    /// on when RocksDB last flushed.
    pub fn flush(&self) -> Result<()> {
        self.db.flush_all()
    }

    /// The latest milestone and the counts, as of the last change (without the state lock).
    pub fn status(&self) -> Status {
        Status { storage_full: self.db.storage_full(), ..*lock(&self.status) }
    }

    /// Memory RocksDB holds now (block cache contents and memtables), in bytes.
    pub fn storage_memory_bytes(&self) -> u64 {
        self.db.memory_bytes()
    }

    /// The sum of all unspent outputs (equal to the token supply in a consistent ledger).
    pub fn unspent_total(&self) -> Result<u128> {
        let _state = lock(&self.state);
        ledger::unspent_total(&self.db)
    }

    pub fn approximate_size_bytes(&self) -> u64 {
        self.db.approximate_size()
    }

    /// The approximate size of each column family (SST files and memtables), in bytes.
    pub fn approximate_sizes(&self) -> Vec<(&'static str, u64)> {
        self.db.approximate_sizes()
    }
}
