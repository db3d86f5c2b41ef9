//! Block intake (validation.md §1, D13): every rule of a submitted block, the proofs of work
//! of a batch scored together, parents known, one atomic write per batch.

use super::events::IntakeBlock;
use super::{
    lock, milestone_not_allowed, not_ready, now_ms, referenced_index, NewBlock, State, Store,
    Submitted,
};
use crate::columns::{
    self, state_key, BLOCKS, BLOCK_META, CHILDREN, STATE, TX_BLOCKS, UNREFERENCED,
};
use crate::db::{Batch, Db};
use crate::entry_points::SolidEntryPoints;
use crate::events;
use crate::graph::{cone_roots, ConeRoots};
use crate::milestone_blocks::{MilestoneBlock, MilestoneBlocks, Settled};
use crate::records::BlockMeta;
use crate::tips::{self, TipScore};
use ledger_core::codec::decode_block;
use ledger_core::ids;
use ledger_core::model::{Block, Id32, Payload};
use ledger_core::pow;
use ledger_core::validate::{
    check_pow_zeros, validate_block_from, validate_milestone_block, BlockOrigin,
};
use ledger_core::{Code, Error, Result};
use std::collections::{HashMap, HashSet};

impl Store {
    /// Validate and store a serialized block (validation.md §1 steps 3–6). Blocks with a
    /// milestone payload are refused while the embedded coordinator runs (D16); otherwise
    /// they are milestones of another coordinator and are checked and applied.
    pub fn submit_block(&self, bytes: &[u8]) -> Result<Submitted> {
        // `submit_blocks` answers every block it is given, so one block has one result.
        self.submit_blocks(&[bytes]).pop().expect("one result per block")
    }

    /// `submit_block` for many blocks at once, one result each, in order. Their proofs of
    /// work are scored together (one bit-sliced pass for up to 128 blocks) and they are
    /// written in one RocksDB batch: every block is acknowledged only after that write.
    /// A block may name a parent that comes earlier in the same call.
    pub fn submit_blocks(&self, blocks: &[&[u8]]) -> Vec<Result<Submitted>> {
        self.submit_blocks_from(blocks, BlockOrigin::Api)
    }

    /// `submit_blocks` for blocks of the given origin: blocks received from peers may have
    /// a single parent (D40); everything else is the same intake.
    pub fn submit_blocks_from(
        &self,
        blocks: &[&[u8]],
        origin: BlockOrigin,
    ) -> Vec<Result<Submitted>> {
        let mut results: Vec<Option<Result<Submitted>>> = blocks.iter().map(|_| None).collect();
        // Every rule but the proof of work, block by block, outside the lock.
        let mut candidates: Vec<(usize, Block)> = Vec::with_capacity(blocks.len());
        for (i, bytes) in blocks.iter().enumerate() {
            match self.check_rules(bytes, origin) {
                Ok(block) if matches!(block.payload, Some(Payload::Milestone(_))) => {
                    results[i] = Some(self.accept_milestone(block, bytes, ids::block_id(bytes)));
                }
                Ok(block) => candidates.push((i, block)),
                Err(e) => results[i] = Some(Err(e)),
            }
        }
        let scored: Vec<&[u8]> = candidates.iter().map(|(i, _)| blocks[*i]).collect();
        let pow = self.check_pow(&scored);
        let mut accepted = Vec::with_capacity(candidates.len());
        for ((i, block), verdict) in candidates.into_iter().zip(pow) {
            match verdict {
                // The ids are hashed here, before the lock that `store_blocks` holds.
                Ok(()) => accepted.push(Accepted {
                    ids: BlockIds::of(blocks[i], &block),
                    index: i,
                    block,
                }),
                Err(e) => results[i] = Some(Err(e)),
            }
        }
        for (i, result) in self.store_blocks(blocks, accepted) {
            results[i] = Some(result);
        }
        // Every index was filled above: by decoding, the milestone path, the proof of work
        // or `store_blocks`, which answers every block it accepts.
        results.into_iter().map(|r| r.expect("every block has a result")).collect()
    }

    /// Every rule `submit_block` applies except the proof of work, without writing anything:
    /// what the node checks before it mines a nonce for a block (pow.md §6), so that a block
    /// that could never be stored is refused before any mining. Milestone blocks, which are
    /// never mined, get the rules of their own block (`validate_milestone_block`) and D16.
    pub fn precheck_block(&self, bytes: &[u8]) -> Result<()> {
        self.precheck_block_from(bytes, BlockOrigin::Api)
    }

    /// `precheck_block` for a block of the given origin (D40).
    pub fn precheck_block_from(&self, bytes: &[u8], origin: BlockOrigin) -> Result<()> {
        let block = self.check_rules(bytes, origin)?;
        if matches!(block.payload, Some(Payload::Milestone(_))) {
            if self.coordinator_enabled {
                return Err(milestone_not_allowed());
            }
            return validate_milestone_block(&block);
        }
        let state = lock(&self.state);
        if state.latest.is_none() {
            return Err(not_ready());
        }
        self.check_parents_known(
            &state,
            &block.parents,
            &HashSet::new(),
            &mut ReferencedParents::default(),
        )
    }

    /// Decoding and every syntactic rule but the proof of work (validation.md §2–§7), with
    /// the parents rule of the block's origin.
    fn check_rules(&self, bytes: &[u8], origin: BlockOrigin) -> Result<Block> {
        let block = decode_block(bytes)?;
        validate_block_from(&block, bytes, &self.rules_without_pow, origin)?;
        Ok(block)
    }

    /// The proof-of-work rule (validation.md §2) for each block (`pow::trailing_zeros_many`
    /// picks per-block or batched scoring by count).
    fn check_pow(&self, blocks: &[&[u8]]) -> Vec<Result<()>> {
        let min = self.protocol.min_pow_score;
        if min == 0 {
            return blocks.iter().map(|_| Ok(())).collect();
        }
        let zeros = pow::trailing_zeros_many(blocks);
        blocks.iter().zip(zeros).map(|(b, z)| check_pow_zeros(b.len(), z, min)).collect()
    }

    /// Store one block that passed every rule as an ordinary block (no proof of work is
    /// scored: a milestone block is not mined). For the block of the snapshot's target
    /// milestone (`milestones.rs`), which the next milestone approves.
    pub(super) fn store_plain_block(&self, block: Block, bytes: &[u8]) -> Result<Submitted> {
        let accepted = Accepted { ids: BlockIds::of(bytes, &block), index: 0, block };
        let mut out = self.store_blocks(&[bytes], vec![accepted]);
        // `store_blocks` answers every block it accepts: one block, one answer.
        out.pop().map(|(_, r)| r).expect("one answer for one block")
    }

    /// Store blocks that passed every rule: under the lock, drop the ones already stored,
    /// check parents, and write the rest in one batch.
    fn store_blocks(
        &self,
        blocks: &[&[u8]],
        accepted: Vec<Accepted>,
    ) -> Vec<(usize, Result<Submitted>)> {
        let mut out = Vec::with_capacity(accepted.len());
        if accepted.is_empty() {
            return out;
        }
        let mut state = lock(&self.state);
        if state.latest.is_none() {
            return accepted.into_iter().map(|a| (a.index, Err(not_ready()))).collect();
        }
        let mut staged: Vec<NewBlock<'_>> = Vec::with_capacity(accepted.len());
        let mut for_events: Option<Vec<IntakeBlock<'_>>> = self.events_active().then(Vec::new);
        state.graph.record_tip_changes(for_events.is_some() && self.tip_changes_wanted());
        let mut staged_ids: HashSet<Id32> = HashSet::new();
        let mut written: Vec<(usize, Id32, bool)> = Vec::new();
        let mut referenced = ReferencedParents::default();
        let mut batch = self.db.batch();
        let mut transactions = Vec::new();
        for Accepted { index: i, block, ids: BlockIds { block_id, transaction_id } } in accepted {
            let known = match staged_ids.contains(&block_id) {
                true => Ok(true),
                false => self.db.exists(BLOCKS, &block_id),
            };
            match known {
                Err(e) => out.push((i, Err(e))),
                Ok(true) => written.push((i, block_id, false)),
                Ok(false) => match self.check_parents_known(
                    &state,
                    &block.parents,
                    &staged_ids,
                    &mut referenced,
                ) {
                    Err(e) => out.push((i, Err(e))),
                    Ok(()) => {
                        if let Some(transaction_id) = transaction_id {
                            batch.put(
                                TX_BLOCKS,
                                &columns::pair_key(&transaction_id, &block_id),
                                &[],
                            );
                        }
                        if let Some(list) = for_events.as_mut() {
                            let (payload_type, tag) = events::payload_facts(&block);
                            list.push(IntakeBlock {
                                id: block_id,
                                bytes: blocks[i],
                                payload_type,
                                tag,
                            });
                        }
                        staged_ids.insert(block_id);
                        if let (Some(id), Some(Payload::Transaction(tx))) =
                            (transaction_id, block.payload)
                        {
                            transactions.push((id, tx));
                        }
                        staged.push(NewBlock {
                            id: block_id,
                            bytes: blocks[i],
                            parents: block.parents,
                            milestone_index: 0,
                            roots: None,
                        });
                        written.push((i, block_id, true));
                    }
                },
            }
        }
        let cmi = state.latest.map_or(0, |l| l.index);
        let committed = if staged.is_empty() {
            Ok(())
        } else {
            self.write_blocks(&mut state, batch, staged, cmi, &mut referenced)
        };
        if let (Ok(()), Some(list)) = (&committed, for_events) {
            self.emit_blocks_stored(&mut state, list);
        }
        drop(state);
        if committed.is_ok() {
            for (id, tx) in transactions {
                self.signatures_ahead.submit(id, tx);
            }
        }
        for (i, block_id, stored) in written {
            out.push((i, committed.clone().map(|()| Submitted { block_id, stored })));
        }
        out
    }

    /// Every parent is a stored block, a solid entry point or one of `staged` (D13). A
    /// stored parent outside the pending graph is read once per batch, into `referenced`.
    pub(super) fn check_parents_known(
        &self,
        state: &State,
        parents: &[Id32],
        staged: &HashSet<Id32>,
        referenced: &mut ReferencedParents,
    ) -> Result<()> {
        let entry_points = self.entry_points();
        for (i, p) in parents.iter().enumerate() {
            if entry_points.contains(p) || state.graph.get(p).is_some() || staged.contains(p) {
                continue;
            }
            if referenced.lookup(&self.db, p)?.is_none() {
                return Err(Error::new(
                    Code::UnknownParent,
                    format!("parents[{i}]"),
                    format!("parent 0x{} is not a known block", hex::encode(p)),
                ));
            }
        }
        Ok(())
    }

    /// Add new blocks to `batch` (bytes, metadata, child links, pending entries, counters),
    /// write the batch, and only then add the blocks to memory. Blocks come parents first;
    /// a block may name a parent earlier in the list. A block that is below max depth at
    /// confirmed index `cmi` the moment it arrives (it approves a block too old, or one
    /// that is below max depth itself) is stored with metadata saying so, filed under `cmi`
    /// in `milestone_blocks`, and never enters the pending graph: no milestone can
    /// reference it.
    pub(super) fn write_blocks(
        &self,
        state: &mut State,
        mut batch: Batch<'_>,
        blocks: Vec<NewBlock<'_>>,
        cmi: u32,
        referenced: &mut ReferencedParents,
    ) -> Result<()> {
        let db = &self.db;
        let entry_points = self.entry_points();
        let arrival_ms = now_ms();
        let mut staged_roots: HashMap<Id32, ConeRoots> = HashMap::new();
        let mut entries = Vec::with_capacity(blocks.len());
        let mut below_max_depth = 0;
        let count = blocks.len() as u64;
        for (k, b) in blocks.into_iter().enumerate() {
            let roots = match b.roots {
                Some(roots) => roots,
                None => {
                    let graph = &state.graph;
                    let known = |p: &Id32| {
                        graph.get(p).map(|x| x.roots).or_else(|| staged_roots.get(p).copied())
                    };
                    cone_roots(&b.parents, known, &mut |p| referenced.index(db, &entry_points, p))?
                }
            };
            staged_roots.insert(b.id, roots);
            let score = tips::score(roots, cmi, &self.thresholds);
            let seq = state.next_seq + k as u64;
            let below = score == TipScore::BelowMaxDepth;
            let meta = BlockMeta {
                arrival_ms,
                seq,
                milestone_index: b.milestone_index,
                below_max_depth: below,
                ..Default::default()
            };
            batch.put(BLOCKS, &b.id, b.bytes);
            batch.put(BLOCK_META, &b.id, &meta.to_bytes());
            for p in &b.parents {
                batch.put(CHILDREN, &columns::pair_key(p, &b.id), &[]);
            }
            if below {
                below_max_depth += 1;
                batch.put_typed::<MilestoneBlocks>(
                    &MilestoneBlock { index: cmi, block_id: b.id },
                    &Settled::BelowMaxDepth,
                );
            } else {
                batch.put(UNREFERENCED, &columns::unreferenced_key(seq, &b.id), &[]);
                entries.push((b, seq, roots, score == TipScore::Healthy));
            }
        }
        batch.put(STATE, state_key::NEXT_SEQ, &(state.next_seq + count).to_le_bytes());
        batch.put(STATE, state_key::BLOCK_COUNT, &(state.block_count + count).to_le_bytes());
        batch.commit()?;
        state.next_seq += count;
        state.block_count += count;
        state.blocks_below_max_depth += below_max_depth;
        for (b, seq, roots, healthy) in entries {
            state.graph.insert(b.id, b.parents, seq, arrival_ms, b.milestone_index, roots, healthy);
        }
        self.publish_status(state);
        Ok(())
    }
}

/// What a batch learned about its stored parents outside the pending graph: the index of
/// the milestone that referenced each (0: none), read from its metadata once, however many
/// blocks of the batch name it. Blocks issued together share their tips, so under load a
/// batch of hundreds of blocks often names only a handful of parents.
#[derive(Default)]
pub(super) struct ReferencedParents(HashMap<Id32, u32>);

impl ReferencedParents {
    /// The parent's referencing milestone index, or None if no metadata is stored for it.
    fn lookup(&mut self, db: &Db, id: &Id32) -> Result<Option<u32>> {
        if let Some(index) = self.0.get(id) {
            return Ok(Some(*index));
        }
        let Some(meta) = db.get(BLOCK_META, id)? else { return Ok(None) };
        let index = BlockMeta::from_bytes(&meta)?.referenced_by;
        self.0.insert(*id, index);
        Ok(Some(index))
    }

    /// `referenced_index` (a solid entry point's index, or the stored metadata's), read once
    /// per batch.
    fn index(&mut self, db: &Db, entry_points: &SolidEntryPoints, id: &Id32) -> Result<u32> {
        if let Some(index) = self.0.get(id) {
            return Ok(*index);
        }
        let index = referenced_index(db, entry_points, id)?;
        self.0.insert(*id, index);
        Ok(index)
    }
}

/// A block that passed every rule and its proof of work, on its way into the store.
struct Accepted {
    /// Its position in the caller's list.
    index: usize,
    block: Block,
    ids: BlockIds,
}

struct BlockIds {
    block_id: Id32,
    /// Of its transaction payload, if it carries one.
    transaction_id: Option<Id32>,
}

impl BlockIds {
    fn of(bytes: &[u8], block: &Block) -> BlockIds {
        let transaction_id = matches!(block.payload, Some(Payload::Transaction(_)))
            .then(|| ids::transaction_id_in_block(bytes, block.parents.len()));
        BlockIds { block_id: ids::block_id(bytes), transaction_id }
    }
}
