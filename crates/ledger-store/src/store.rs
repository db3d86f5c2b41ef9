//! The store: one RocksDB database and the in-memory graph of unreferenced blocks, kept
//! in step under one lock.
//!
//! Lock discipline. `state` guards the graph and the counters; every write to RocksDB that
//! adds a block or applies a milestone happens while holding it, so memory and disk never
//! disagree. `issuing` serialises milestones (issued here or received from another
//! coordinator): the long part of a milestone — reading the ledger and checking every
//! transaction — runs without `state`, so block submissions go on meanwhile. They cannot
//! disturb it: the ledger only changes when a milestone commits, and the cone being
//! confirmed was fixed before the walk started.

use crate::columns::{self, state_key, BLOCKS, BLOCK_META, CHILDREN, DIFFS, MILESTONES, MILESTONE_IDS, OUTPUTS, SPENTS, STATE, TX_BLOCKS, UNREFERENCED, UNSPENT};
use crate::db::Db;
use crate::genesis;
use crate::graph::{cone_roots, ConeRoots, Graph};
use crate::ledger;
use crate::metadata;
use crate::milestone::{self, CoordinatorKeys, Essence, Previous};
use crate::records::{u32_at, u64_at, BlockMeta, Diff, MilestoneRecord};
use crate::tips::{self, TipScore, TipThresholds};
use crate::white_flag::{self, Confirmation};
use crate::{is_solid_entry_point, storage_error, SOLID_ENTRY_POINTS};
use ledger_core::codec::{decode_block, encode_block, encode_milestone_payload};
use ledger_core::ids;
use ledger_core::pow;
use ledger_core::model::*;
use ledger_core::protocol::ProtocolParameters;
use ledger_core::validate::{check_pow_zeros, validate_block, validate_milestone_block, MAX_PARENTS, MIN_PARENTS};
use ledger_core::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};


pub struct StoreOptions {
    pub protocol: ProtocolParameters,
    /// Used once, when the data directory is new.
    pub genesis_outputs: Vec<Output>,
    /// Seeds of the embedded coordinator; empty when it does not run here.
    pub coordinator_seeds: Vec<[u8; 32]>,
    /// Keys whose milestones this node accepts from elsewhere (coordinator disabled);
    /// defaults to the public keys of `coordinator_seeds`.
    pub trusted_public_keys: Vec<[u8; 32]>,
    pub coordinator_enabled: bool,
    pub sync_writes: bool,
    pub max_delta_ycri: u32,
    pub max_delta_ocri: u32,
}

pub struct Submitted {
    pub block_id: Id32,
    /// False when the block was stored before (the submission changed nothing).
    pub stored: bool,
}

pub struct IssuedMilestone {
    pub index: u32,
    pub milestone_id: Id32,
    pub block_id: Id32,
    pub timestamp: u32,
    pub referenced_blocks: usize,
    pub included_transactions: usize,
}

#[derive(Clone, Copy)]
struct Latest {
    index: u32,
    milestone_id: Id32,
    block_id: Id32,
    timestamp: u32,
}

pub struct Status {
    /// (index, timestamp, milestone id) of the latest milestone; None before milestone 1.
    pub latest_milestone: Option<(u32, u32, Id32)>,
    pub ledger_index: u32,
    pub blocks_stored: u64,
    pub referenced_by_last_milestone: u64,
    pub new_blocks_since_last_milestone: u64,
    pub pending_blocks: u64,
}

pub struct UtxoChanges {
    pub index: u32,
    pub created: Vec<OutputId>,
    pub consumed: Vec<OutputId>,
}

/// A block about to be written.
struct NewBlock<'a> {
    id: Id32,
    bytes: &'a [u8],
    parents: Vec<Id32>,
    /// The index of the milestone it carries, 0 for other blocks.
    milestone_index: u32,
}

struct State {
    graph: Graph,
    next_seq: u64,
    block_count: u64,
    latest: Option<Latest>,
    new_blocks_since_last_milestone: u64,
    referenced_by_last_milestone: u64,
}

pub struct Store {
    db: Db,
    protocol: ProtocolParameters,
    /// The protocol with the PoW check off: intake scores proofs of work for a whole batch.
    rules_without_pow: ProtocolParameters,
    keys: CoordinatorKeys,
    coordinator_enabled: bool,
    trusted_keys: Vec<[u8; 32]>,
    thresholds: TipThresholds,
    state: Mutex<State>,
    issuing: Mutex<()>,
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave RocksDB half-written (batches are
    // atomic) and memory is only changed after a successful write, so the data is usable.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Store {
    /// Open (or create, with its genesis) the store in `path`. Refuses a data directory
    /// whose persisted protocol differs from `options.protocol`, and a ledger whose unspent
    /// outputs do not add up to the token supply.
    pub fn open(path: &Path, options: StoreOptions) -> Result<Store> {
        let db = Db::open(path, options.sync_writes)?;
        match db.get(STATE, state_key::PROTOCOL)? {
            Some(text) => {
                let persisted = genesis::protocol_from_json(&String::from_utf8_lossy(&text))?;
                let differences = genesis::protocol_differences(&persisted, &options.protocol);
                if !differences.is_empty() {
                    return Err(Error::new("protocol-mismatch", "protocol", differences.join("; ")));
                }
            }
            None => genesis::create(&db, &options.protocol, &options.genesis_outputs)?,
        }
        let total = ledger::unspent_total(&db)?;
        if total != options.protocol.token_supply as u128 {
            return Err(Error::new(
                "ledger-invariant-broken",
                "",
                format!("the unspent outputs hold {total}, the token supply is {}: the ledger is inconsistent", options.protocol.token_supply),
            ));
        }
        let keys = CoordinatorKeys::new(options.coordinator_seeds);
        if options.coordinator_enabled && keys.is_empty() {
            return Err(Error::new("coordinator-keys-missing", "coordinator.privateKeys", "the embedded coordinator needs at least one key"));
        }
        let trusted_keys = if options.trusted_public_keys.is_empty() { keys.public_keys() } else { options.trusted_public_keys };
        let thresholds = TipThresholds {
            max_delta_ycri: options.max_delta_ycri,
            max_delta_ocri: options.max_delta_ocri,
            below_max_depth: options.protocol.below_max_depth as u32,
        };
        let state = load_state(&db)?;
        Ok(Store {
            db,
            rules_without_pow: ProtocolParameters { min_pow_score: 0, ..options.protocol.clone() },
            protocol: options.protocol,
            keys,
            coordinator_enabled: options.coordinator_enabled,
            trusted_keys,
            thresholds,
            state: Mutex::new(state),
            issuing: Mutex::new(()),
        })
    }

    pub fn protocol(&self) -> &ProtocolParameters {
        &self.protocol
    }

    /// Milestone 1 exists: blocks can be accepted and tips selected.
    pub fn is_ready(&self) -> bool {
        lock(&self.state).latest.is_some()
    }

    // ----- blocks -------------------------------------------------------------------

    /// Validate and store a serialized block (validation.md §1 steps 3–6). Blocks with a
    /// milestone payload are refused while the embedded coordinator runs (D16); otherwise
    /// they are milestones of another coordinator and are checked and applied.
    pub fn submit_block(&self, bytes: &[u8]) -> Result<Submitted> {
        self.submit_blocks(&[bytes]).pop().expect("one result per block")
    }

    /// `submit_block` for many blocks at once, one result each, in order. Their proofs of
    /// work are scored together (one bit-sliced pass for up to 128 blocks) and they are
    /// written in one RocksDB batch: every block is acknowledged only after that write.
    /// A block may name a parent that comes earlier in the same call.
    pub fn submit_blocks(&self, blocks: &[&[u8]]) -> Vec<Result<Submitted>> {
        let mut results: Vec<Option<Result<Submitted>>> = blocks.iter().map(|_| None).collect();
        // Every rule but the proof of work, block by block, outside the lock.
        let mut candidates: Vec<(usize, Block)> = Vec::with_capacity(blocks.len());
        for (i, bytes) in blocks.iter().enumerate() {
            match decode_block(bytes).and_then(|block| validate_block(&block, bytes, &self.rules_without_pow).map(|()| block)) {
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
                Ok(()) => accepted.push((i, block)),
                Err(e) => results[i] = Some(Err(e)),
            }
        }
        for (i, result) in self.store_blocks(blocks, accepted) {
            results[i] = Some(result);
        }
        results.into_iter().map(|r| r.expect("every block has a result")).collect()
    }

    /// The proof-of-work rule (validation.md §2) for each block: together through the
    /// bit-sliced lanes when there are several, else with the scalar scorer.
    fn check_pow(&self, blocks: &[&[u8]]) -> Vec<Result<()>> {
        let min = self.protocol.min_pow_score;
        if min == 0 {
            return blocks.iter().map(|_| Ok(())).collect();
        }
        let zeros = if blocks.len() >= 4 { pow::trailing_zeros_many(blocks) } else { blocks.iter().map(|b| pow::trailing_zeros(b)).collect() };
        blocks.iter().zip(zeros).map(|(b, z)| check_pow_zeros(b.len(), z, min)).collect()
    }

    /// Store blocks that passed every rule: under the lock, drop the ones already stored,
    /// check parents, and write the rest in one batch.
    fn store_blocks(&self, blocks: &[&[u8]], accepted: Vec<(usize, Block)>) -> Vec<(usize, Result<Submitted>)> {
        let mut out = Vec::with_capacity(accepted.len());
        if accepted.is_empty() {
            return out;
        }
        let mut state = lock(&self.state);
        if state.latest.is_none() {
            return accepted.into_iter().map(|(i, _)| (i, Err(not_ready()))).collect();
        }
        let mut staged: Vec<NewBlock<'_>> = Vec::with_capacity(accepted.len());
        let mut staged_ids: HashSet<Id32> = HashSet::new();
        let mut written: Vec<(usize, Id32, bool)> = Vec::new();
        let mut batch = self.db.batch();
        for (i, block) in accepted {
            let block_id = ids::block_id(blocks[i]);
            let known = match staged_ids.contains(&block_id) {
                true => Ok(true),
                false => self.db.exists(BLOCKS, &block_id),
            };
            match known {
                Err(e) => out.push((i, Err(e))),
                Ok(true) => written.push((i, block_id, false)),
                Ok(false) => match self.check_parents_known(&state, &block.parents, &staged_ids) {
                    Err(e) => out.push((i, Err(e))),
                    Ok(()) => {
                        if let Some(Payload::Transaction(tx)) = &block.payload {
                            batch.put(TX_BLOCKS, &columns::pair_key(&ids::transaction_id(tx), &block_id), &[]);
                        }
                        staged_ids.insert(block_id);
                        staged.push(NewBlock { id: block_id, bytes: blocks[i], parents: block.parents, milestone_index: 0 });
                        written.push((i, block_id, true));
                    }
                },
            }
        }
        let committed = if staged.is_empty() { Ok(()) } else { self.write_blocks(&mut state, batch, staged) };
        for (i, block_id, stored) in written {
            out.push((i, committed.clone().map(|()| Submitted { block_id, stored })));
        }
        out
    }

    /// Every parent is a stored block, an entry point or one of `staged` (D13).
    fn check_parents_known(&self, state: &State, parents: &[Id32], staged: &HashSet<Id32>) -> Result<()> {
        for (i, p) in parents.iter().enumerate() {
            if !is_solid_entry_point(p) && state.graph.get(p).is_none() && !staged.contains(p) && !self.db.exists(BLOCK_META, p)? {
                return Err(Error::new("unknown-parent", format!("parents[{i}]"), format!("parent 0x{} is not a known block", hex::encode(p))));
            }
        }
        Ok(())
    }

    /// The block's bytes; None for unknown ids and the entry points.
    pub fn block(&self, block_id: &Id32) -> Result<Option<Vec<u8>>> {
        self.db.get(BLOCKS, block_id)
    }

    /// The block metadata object of api.md §2.7 as JSON text.
    pub fn block_metadata_json(&self, block_id: &Id32) -> Result<Option<String>> {
        let Some(bytes) = self.db.get(BLOCKS, block_id)? else { return Ok(None) };
        let parents = parents_of(&bytes)?;
        let state = lock(&self.state);
        let (meta, score) = match state.graph.get(block_id) {
            Some(p) => {
                let cmi = state.latest.map_or(0, |l| l.index);
                let meta = BlockMeta { arrival_ms: p.arrival_ms, seq: p.seq, milestone_index: p.milestone_index, ..Default::default() };
                (meta, Some(tips::score(p.roots, cmi, &self.thresholds)))
            }
            None => {
                drop(state);
                let Some(meta) = self.db.get(BLOCK_META, block_id)? else { return Ok(None) };
                (BlockMeta::from_bytes(&meta)?, None)
            }
        };
        Ok(Some(metadata::block_json(block_id, &parents, &meta, score)))
    }

    // ----- tips ---------------------------------------------------------------------

    /// 2..8 parents for a new block (ledger.md §5): the newest healthy tips, filled from
    /// the milestones and entry points, sorted.
    pub fn select_tips(&self) -> Result<Vec<Id32>> {
        let state = lock(&self.state);
        let Some(latest) = state.latest else { return Err(not_ready()) };
        let mut chosen: Vec<Id32> = Vec::with_capacity(MAX_PARENTS);
        for (id, p) in state.graph.newest_childless() {
            if chosen.len() == MAX_PARENTS {
                break;
            }
            if tips::score(p.roots, latest.index, &self.thresholds) == TipScore::Healthy {
                chosen.push(*id);
            }
        }
        drop(state);
        self.fill_and_sort(chosen, latest.index)
    }

    /// The coordinator's parents (ledger.md §6 step 1): the previous milestone's block and
    /// up to 7 of the oldest healthy tips, so that nothing is left behind to go lazy.
    fn coordinator_parents(&self, state: &State, latest: &Latest) -> Result<Vec<Id32>> {
        let mut chosen = vec![latest.block_id];
        for (id, p) in state.graph.oldest_childless() {
            if chosen.len() == MAX_PARENTS {
                break;
            }
            if *id != latest.block_id && tips::score(p.roots, latest.index, &self.thresholds) == TipScore::Healthy {
                chosen.push(*id);
            }
        }
        self.fill_and_sort(chosen, latest.index)
    }

    /// §5 step 2 and 3: while fewer than two, add the latest milestone's block, its
    /// parents, the previous milestone's block and its parents, … then the entry points.
    fn fill_and_sort(&self, mut chosen: Vec<Id32>, latest_index: u32) -> Result<Vec<Id32>> {
        let mut index = latest_index;
        while chosen.len() < MIN_PARENTS && index > 0 {
            let record = self.milestone_by_index(index)?.ok_or_else(|| storage_error(format!("milestone {index} is missing")))?;
            let parents = parents_of_milestone_payload(&record.payload)?;
            for candidate in std::iter::once(record.block_id).chain(parents) {
                if chosen.len() < MIN_PARENTS && !chosen.contains(&candidate) {
                    chosen.push(candidate);
                }
            }
            index -= 1;
        }
        for sep in SOLID_ENTRY_POINTS {
            if chosen.len() < MIN_PARENTS && !chosen.contains(&sep) {
                chosen.push(sep);
            }
        }
        chosen.sort();
        Ok(chosen)
    }

    // ----- milestones ---------------------------------------------------------------

    /// Issue the next milestone with the embedded coordinator (ledger.md §6): milestone 1
    /// at bootstrap (D12), later ones confirming the cone of the chosen parents.
    /// `timestamp` overrides the clock (it still never goes back).
    pub fn issue_milestone(&self, timestamp: Option<u32>) -> Result<IssuedMilestone> {
        if !self.coordinator_enabled {
            return Err(Error::new("coordinator-disabled", "", "the embedded coordinator is disabled on this node"));
        }
        let _issuing = lock(&self.issuing);
        let now = timestamp.unwrap_or_else(|| (now_ms() / 1000) as u32);
        let (essence, order) = {
            let state = lock(&self.state);
            match state.latest {
                None => (
                    Essence {
                        index: 1,
                        timestamp: now,
                        previous_milestone_id: [0; 32],
                        parents: SOLID_ENTRY_POINTS.to_vec(),
                        inclusion_root: [0; 32],
                        applied_root: [0; 32],
                    },
                    Vec::new(),
                ),
                Some(latest) => {
                    let parents = self.coordinator_parents(&state, &latest)?;
                    let order = white_flag::traversal_order(&parents, &state.graph);
                    let essence = Essence {
                        index: latest.index + 1,
                        timestamp: now.max(latest.timestamp + 1),
                        previous_milestone_id: latest.milestone_id,
                        parents,
                        inclusion_root: [0; 32],
                        applied_root: [0; 32],
                    };
                    (essence, order)
                }
            }
        };
        let first = essence.index == 1;
        let confirmation = white_flag::confirm(&self.db, order, essence.index, essence.timestamp)?;
        let essence = if first { essence } else { Essence { inclusion_root: confirmation.inclusion_root, applied_root: confirmation.applied_root, ..essence } };
        let payload = milestone::build(essence, &self.keys);
        let block = milestone::block_of(payload);
        validate_milestone_block(&block)?;
        let bytes = encode_block(&block);
        let block_id = ids::block_id(&bytes);
        let Some(Payload::Milestone(payload)) = block.payload else { unreachable!("block_of wraps a milestone") };
        self.commit_milestone(block_id, &bytes, &payload, confirmation)
    }

    /// A milestone block of another coordinator (this node's own is disabled): it must
    /// continue the chain, carry exactly the trusted keys' signatures, and its merkle roots
    /// must be the ones this node's own white flag computes.
    fn accept_milestone(&self, block: Block, bytes: &[u8], block_id: Id32) -> Result<Submitted> {
        if self.coordinator_enabled {
            return Err(Error::new("milestone-not-allowed", "payload", "milestone payloads are only issued by this node's coordinator (D16)"));
        }
        validate_milestone_block(&block)?;
        let Some(Payload::Milestone(payload)) = block.payload else { unreachable!("checked by the caller") };
        let _issuing = lock(&self.issuing);
        if self.db.exists(BLOCKS, &block_id)? {
            return Ok(Submitted { block_id, stored: false });
        }
        let order = {
            let state = lock(&self.state);
            let previous = match state.latest {
                Some(l) => Previous { index: l.index, milestone_id: l.milestone_id, timestamp: l.timestamp },
                None => Previous { index: 0, milestone_id: [0; 32], timestamp: 0 },
            };
            milestone::check_foreign(&payload, &previous, &self.trusted_keys)?;
            self.check_parents_known(&state, &block.parents, &HashSet::new())?;
            white_flag::traversal_order(&payload.parents, &state.graph)
        };
        let confirmation = white_flag::confirm(&self.db, order, payload.index, payload.timestamp)?;
        let (inclusion, applied) = if payload.index == 1 { ([0; 32], [0; 32]) } else { (confirmation.inclusion_root, confirmation.applied_root) };
        if payload.inclusion_merkle_root != inclusion {
            return Err(Error::new("milestone-merkle-root-mismatch", "payload.inclusionMerkleRoot", format!("this node computes 0x{}", hex::encode(inclusion))));
        }
        if payload.applied_merkle_root != applied {
            return Err(Error::new("milestone-merkle-root-mismatch", "payload.appliedMerkleRoot", format!("this node computes 0x{}", hex::encode(applied))));
        }
        self.commit_milestone(block_id, bytes, &payload, confirmation)?;
        Ok(Submitted { block_id, stored: true })
    }

    /// Write a milestone with everything it changes in one batch (ledger.md §6 step 7, D25):
    /// its block, its record, the metadata of every block it references, the ledger
    /// changes and the new ledger index. Memory follows only after the write succeeded.
    fn commit_milestone(&self, block_id: Id32, bytes: &[u8], payload: &MilestonePayload, c: Confirmation) -> Result<IssuedMilestone> {
        let milestone_id = ids::milestone_id(payload);
        let index = payload.index;
        if c.supply_change != 0 {
            return Err(Error::new("ledger-invariant-broken", "", format!("milestone {index} would change the token supply by {}", c.supply_change)));
        }
        let mut state = lock(&self.state);
        let mut batch = self.db.batch();
        for (position, (id, (inclusion, conflict))) in c.order.iter().zip(&c.states).enumerate() {
            let pending = state.graph.get(id).ok_or_else(|| storage_error(format!("block 0x{} left the pending set during white flag", hex::encode(id))))?;
            let meta = BlockMeta {
                arrival_ms: pending.arrival_ms,
                seq: pending.seq,
                referenced_by: index,
                white_flag_index: position as u32,
                inclusion: Some(*inclusion),
                conflict: *conflict,
                milestone_index: pending.milestone_index,
            };
            batch.put(BLOCK_META, id, &meta.to_bytes());
            batch.delete(UNREFERENCED, &columns::unreferenced_key(pending.seq, id));
        }
        let mut diff = Diff::default();
        for (id, record) in &c.created {
            batch.put(OUTPUTS, id, &record.to_bytes());
            batch.put(UNSPENT, id, &[]);
            diff.created.push(*id);
        }
        // After the creations: an output created and spent by this milestone ends spent.
        for (id, spent) in &c.consumed {
            batch.put(SPENTS, id, &spent.to_bytes());
            batch.delete(UNSPENT, id);
            diff.consumed.push(*id);
        }
        batch.put(DIFFS, &columns::index_key(index), &diff.to_bytes());
        let record = MilestoneRecord { index, milestone_id, block_id, timestamp: payload.timestamp, payload: encode_milestone_payload(payload) };
        batch.put(MILESTONES, &columns::index_key(index), &record.to_bytes());
        batch.put(MILESTONE_IDS, &milestone_id, &columns::index_key(index));
        batch.put(STATE, state_key::LEDGER_INDEX, &index.to_le_bytes());
        self.write_blocks(&mut state, batch, vec![NewBlock { id: block_id, bytes, parents: payload.parents.clone(), milestone_index: index }])?;

        let db = &self.db;
        state.graph.remove_referenced(&c.order, index, |p| referenced_index(db, p))?;
        state.latest = Some(Latest { index, milestone_id, block_id, timestamp: payload.timestamp });
        state.referenced_by_last_milestone = c.order.len() as u64;
        state.new_blocks_since_last_milestone = 0;
        Ok(IssuedMilestone {
            index,
            milestone_id,
            block_id,
            timestamp: payload.timestamp,
            referenced_blocks: c.order.len(),
            included_transactions: c.included_transactions,
        })
    }

    /// Add new blocks to `batch` (bytes, metadata, child links, pending entries, counters),
    /// write the batch, and only then add the blocks to memory. Blocks come parents first;
    /// a block may name a parent earlier in the list.
    fn write_blocks(&self, state: &mut State, mut batch: crate::db::Batch<'_>, blocks: Vec<NewBlock<'_>>) -> Result<()> {
        let db = &self.db;
        let arrival_ms = now_ms();
        let mut staged_roots: HashMap<Id32, ConeRoots> = HashMap::new();
        let mut entries = Vec::with_capacity(blocks.len());
        for (k, b) in blocks.into_iter().enumerate() {
            let graph = &state.graph;
            let known = |p: &Id32| graph.get(p).map(|x| x.roots).or_else(|| staged_roots.get(p).copied());
            let roots = cone_roots(&b.parents, known, &mut |p| referenced_index(db, p))?;
            staged_roots.insert(b.id, roots);
            let seq = state.next_seq + k as u64;
            let meta = BlockMeta { arrival_ms, seq, milestone_index: b.milestone_index, ..Default::default() };
            batch.put(BLOCKS, &b.id, b.bytes);
            batch.put(BLOCK_META, &b.id, &meta.to_bytes());
            for p in &b.parents {
                batch.put(CHILDREN, &columns::pair_key(p, &b.id), &[]);
            }
            batch.put(UNREFERENCED, &columns::unreferenced_key(seq, &b.id), &[]);
            entries.push((b, seq, roots));
        }
        let count = entries.len() as u64;
        batch.put(STATE, state_key::NEXT_SEQ, &(state.next_seq + count).to_le_bytes());
        batch.put(STATE, state_key::BLOCK_COUNT, &(state.block_count + count).to_le_bytes());
        batch.commit()?;
        state.next_seq += count;
        state.block_count += count;
        state.new_blocks_since_last_milestone += count;
        for (b, seq, roots) in entries {
            state.graph.insert(b.id, b.parents, seq, arrival_ms, b.milestone_index, roots);
        }
        Ok(())
    }

    pub fn milestone_by_index(&self, index: u32) -> Result<Option<MilestoneRecord>> {
        self.db.get(MILESTONES, &columns::index_key(index))?.map(|b| MilestoneRecord::from_bytes(&b)).transpose()
    }

    pub fn milestone_by_id(&self, milestone_id: &Id32) -> Result<Option<MilestoneRecord>> {
        match self.db.get(MILESTONE_IDS, milestone_id)? {
            Some(index) if index.len() == 4 => self.milestone_by_index(u32::from_be_bytes(index[..4].try_into().expect("4 bytes"))),
            _ => Ok(None),
        }
    }

    pub fn utxo_changes(&self, index: u32) -> Result<Option<UtxoChanges>> {
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
            found.push(key[32..64].try_into().expect("32 bytes"));
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

    pub fn status(&self) -> Status {
        let state = lock(&self.state);
        Status {
            latest_milestone: state.latest.map(|l| (l.index, l.timestamp, l.milestone_id)),
            ledger_index: state.latest.map_or(0, |l| l.index),
            blocks_stored: state.block_count,
            referenced_by_last_milestone: state.referenced_by_last_milestone,
            new_blocks_since_last_milestone: state.new_blocks_since_last_milestone,
            pending_blocks: state.graph.len() as u64,
        }
    }

    /// The sum of all unspent outputs (equal to the token supply in a consistent ledger).
    pub fn unspent_total(&self) -> Result<u128> {
        let _state = lock(&self.state);
        ledger::unspent_total(&self.db)
    }

    pub fn approximate_size_bytes(&self) -> u64 {
        self.db.approximate_size()
    }
}

fn not_ready() -> Error {
    Error::new("not-ready", "", "no milestone has been issued yet")
}

/// The milestone that referenced a block that is not pending (0 for the entry points).
fn referenced_index(db: &Db, id: &Id32) -> Result<u32> {
    if is_solid_entry_point(id) {
        return Ok(0);
    }
    match db.get(BLOCK_META, id)? {
        Some(meta) => Ok(BlockMeta::from_bytes(&meta)?.referenced_by),
        None => Err(storage_error(format!("block 0x{} has no metadata", hex::encode(id)))),
    }
}

/// The parents of a stored block, read from its header without decoding the payload.
fn parents_of(bytes: &[u8]) -> Result<Vec<Id32>> {
    let count = *bytes.get(1).ok_or_else(|| storage_error("stored block too short"))? as usize;
    if bytes.len() < 2 + 32 * count {
        return Err(storage_error("stored block too short"));
    }
    Ok((0..count).map(|i| bytes[2 + 32 * i..2 + 32 * (i + 1)].try_into().expect("32 bytes")).collect())
}

fn parents_of_milestone_payload(payload: &[u8]) -> Result<Vec<Id32>> {
    let m = ledger_core::codec::decode_milestone_payload(payload).map_err(|e| storage_error(format!("stored milestone does not decode: {e}")))?;
    Ok(m.parents)
}

/// Rebuild memory from disk: counters, the latest milestone, and the pending graph in
/// arrival order (parents before children) with fresh cone roots.
fn load_state(db: &Db) -> Result<State> {
    let read_u64 = |key: &[u8]| -> Result<u64> { Ok(db.get(STATE, key)?.filter(|b| b.len() == 8).map_or(0, |b| u64_at(&b, 0))) };
    let ledger_index = db.get(STATE, state_key::LEDGER_INDEX)?.filter(|b| b.len() == 4).map_or(0, |b| u32_at(&b, 0));
    let latest = match db.last(MILESTONES)? {
        None => None,
        Some((_, value)) => {
            let r = MilestoneRecord::from_bytes(&value)?;
            Some(Latest { index: r.index, milestone_id: r.milestone_id, block_id: r.block_id, timestamp: r.timestamp })
        }
    };
    if latest.map_or(0, |l| l.index) != ledger_index {
        return Err(storage_error(format!("ledger index {ledger_index} disagrees with the latest stored milestone")));
    }
    let mut graph = Graph::default();
    let mut pending = Vec::new();
    db.scan(UNREFERENCED, &[], |key, _| {
        pending.push(<[u8; 32]>::try_from(&key[8..40]).map_err(storage_error)?);
        Ok(true)
    })?;
    for id in pending {
        let bytes = db.get(BLOCKS, &id)?.ok_or_else(|| storage_error(format!("pending block 0x{} is not stored", hex::encode(id))))?;
        let meta = BlockMeta::from_bytes(&db.get(BLOCK_META, &id)?.unwrap_or_default())?;
        graph.insert(id, parents_of(&bytes)?, meta.seq, meta.arrival_ms, meta.milestone_index, ConeRoots::at(0));
    }
    graph.compute_all_roots(|p| referenced_index(db, p))?;
    let new_blocks = graph.len() as u64;
    Ok(State {
        graph,
        next_seq: read_u64(state_key::NEXT_SEQ)?,
        block_count: read_u64(state_key::BLOCK_COUNT)?,
        latest,
        new_blocks_since_last_milestone: new_blocks,
        referenced_by_last_milestone: 0,
    })
}
