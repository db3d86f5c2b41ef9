//! Space back to the file system after a pruning run. Deleting only writes tombstones; the
//! files on disk shrink when a compaction drops the entries they hide.
//!
//! * The index-ordered families (milestones, diffs, milestone blocks) lost a prefix of
//!   their key range: that range is compacted after every run, which costs only the size
//!   of what was deleted.
//! * The families keyed by hashes (blocks, metadata, child links, the transaction index,
//!   outputs and spent records) lost keys spread over their whole range. RocksDB's own
//!   compactions reclaim them as new data flows down the levels; once the deletions since
//!   the last full compaction of such a group reach `COMPACT_SHARE` of its keys, the group
//!   is compacted whole, so that a large prune (by size, or by REST) shows on disk soon,
//!   while small regular runs cost no more than one rewrite per deleted share.
//!
//! Last, every family is flushed, so that the write-ahead log files the compactions started
//! are released too.
//!
//! Runs on the pruning thread (or the REST task), holding no lock of the store.

use crate::columns::{
    self, BLOCKS, BLOCK_META, CHILDREN, DIFFS, MILESTONES, MILESTONE_BLOCKS, OUTPUTS, SPENTS,
    TX_BLOCKS,
};
use crate::store::Store;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// The share of a group's keys deleted since its last full compaction that triggers one.
pub const COMPACT_SHARE: f64 = 0.25;

const BLOCK_FAMILIES: [&str; 4] = [BLOCKS, BLOCK_META, CHILDREN, TX_BLOCKS];
const OUTPUT_FAMILIES: [&str; 2] = [OUTPUTS, SPENTS];

impl Store {
    /// Compact after a run to `target` that deleted `blocks` blocks and `outputs` spent
    /// outputs. Returns the microseconds it took.
    pub(super) fn compact_pruned(&self, target: u32, blocks: u64, outputs: u64) -> u64 {
        let started = Instant::now();
        let db = self.db();
        let end = columns::index_key(target.saturating_add(1));
        db.compact_range(MILESTONES, None, Some(&end));
        db.compact_range(DIFFS, None, Some(&end));
        db.compact_range(MILESTONE_BLOCKS, None, Some(&end));
        let pruning = &self.pruning;
        let since = pruning.blocks_since_compaction.fetch_add(blocks, Relaxed) + blocks;
        if since > 0 && since as f64 >= COMPACT_SHARE * (db.estimated_keys(BLOCKS) + since) as f64 {
            for cf in BLOCK_FAMILIES {
                db.compact_range(cf, None, None);
            }
            pruning.blocks_since_compaction.store(0, Relaxed);
        }
        let since = pruning.outputs_since_compaction.fetch_add(outputs, Relaxed) + outputs;
        if since > 0 && since as f64 >= COMPACT_SHARE * (db.estimated_keys(OUTPUTS) + since) as f64
        {
            for cf in OUTPUT_FAMILIES {
                db.compact_range(cf, None, None);
            }
            pruning.outputs_since_compaction.store(0, Relaxed);
        }
        // The compactions started new write-ahead logs; a flush of every family lets go of
        // them all. A failure costs only space until RocksDB's own flushes.
        let _ = db.flush_all();
        started.elapsed().as_micros() as u64
    }
}
