//! The store behind gossip: `ledger_gossip::GossipStore` over `ledger_store::Store`.
//!
//! Intake goes through the store's batched intake (`Store::submit_blocks_from` with the
//! peer origin: 1..8 parents, D40), which needs every parent known (D13). Gossiped blocks
//! may come before their parents (D46), so a block with missing parents is checked as far
//! as it can be without them (every rule but the parents' presence, and its proof of work)
//! and held (`ledger_gossip::held`, bounded) while gossip asks peers for the parents; it is
//! submitted once the last one is stored.
//! A milestone further ahead than the next one is held the same way until its predecessor
//! is applied. Milestones go through the store's follower path (`accept_milestone`: keys,
//! chain, white-flag roots recomputed, D42); roots that differ from the node's own white
//! flag are a fork: the node stops taking milestones and reports it (unhealthy).
//!
//! Blocks stored here, and the blocks the API and the coordinator store (`local_block`,
//! fed by the binding's store tasks), become `Local` events for gossip to broadcast.

use futures::channel::mpsc::{unbounded, UnboundedSender};
use futures::stream::{BoxStream, StreamExt};
use ledger_core::codec::decode_block;
use ledger_core::model::Payload;
use ledger_core::validate::{check_pow_zeros, BlockOrigin};
use ledger_core::Code;
use ledger_gossip::held::{parents_of, HeldBlocks};
use ledger_gossip::{BlockId, GossipStore, Intake, ReceivedBlock, StoreEvent, SyncState};
use ledger_store::Store;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Held blocks at most, and for at most this long (a milestone's cone that takes longer is
/// requested again by warp sync).
pub const HELD_CAPACITY: usize = 20_000;
pub const HELD_MAX_AGE: Duration = Duration::from_secs(120);
/// Milestones held ahead of the next one (a warp-sync window and some).
const MILESTONES_AHEAD: usize = 512;

struct Pending {
    held: HeldBlocks,
    /// Milestones whose parents are stored but whose predecessor is not applied yet.
    milestones: BTreeMap<u32, (BlockId, Vec<u8>)>,
    /// Milestone indexes among the held blocks (requested by warp sync, not requested again).
    held_milestones: BTreeMap<u32, BlockId>,
}

pub struct NodeStore {
    store: Arc<Store>,
    pending: Mutex<Pending>,
    events: Mutex<Option<UnboundedSender<StoreEvent>>>,
    /// The highest milestone index seen in a well-formed milestone block (heartbeats'
    /// "latest"); the confirmed index is the store's.
    highest_seen: AtomicU32,
    halted: Mutex<Option<String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What a block's bytes say before validation: parents and the milestone index it carries.
struct Facts {
    parents: Vec<BlockId>,
    milestone: Option<u32>,
}

/// The milestone payload's type code (wire-format: a block's payload starts with it).
const MILESTONE_PAYLOAD: u32 = 7;

fn facts(bytes: &[u8]) -> Option<Facts> {
    let parents = parents_of(bytes)?;
    // Only a block whose payload says "milestone" is decoded here; the store decodes and
    // validates every block anyway, so the others need not be decoded twice.
    let at = 2 + 32 * parents.len();
    let payload_type =
        bytes.get(at + 4..at + 8).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
    let milestone = match payload_type {
        Some(MILESTONE_PAYLOAD) => match decode_block(bytes) {
            Ok(block) => match block.payload {
                Some(Payload::Milestone(m)) => Some(m.index),
                _ => None,
            },
            Err(_) => None,
        },
        _ => None,
    };
    Some(Facts { parents, milestone })
}

fn describe(e: &ledger_core::Error) -> String {
    if e.path.is_empty() {
        format!("{}: {}", e.code, e.detail)
    } else {
        format!("{}: {}: {}", e.code, e.path, e.detail)
    }
}

impl NodeStore {
    pub fn new(store: Arc<Store>) -> NodeStore {
        NodeStore {
            store,
            pending: Mutex::new(Pending {
                held: HeldBlocks::new(HELD_CAPACITY, HELD_MAX_AGE),
                milestones: BTreeMap::new(),
                held_milestones: BTreeMap::new(),
            }),
            events: Mutex::new(None),
            highest_seen: AtomicU32::new(0),
            halted: Mutex::new(None),
        }
    }

    /// The index of a milestone block that carries the signatures the store requires of the
    /// followed coordinator (D42: keys applicable at its index, the threshold), checked
    /// before its predecessor is applied; None otherwise, and always on a coordinator. A
    /// milestone held ahead of the confirmed one raises "latest" only when signed so, so
    /// that a peer cannot make the node believe it is behind with a forged index.
    fn signed_milestone_index(&self, bytes: &[u8]) -> Option<u32> {
        if !self.store.follows_milestones() {
            return None;
        }
        let Ok(block) = decode_block(bytes) else { return None };
        let Some(Payload::Milestone(m)) = block.payload else { return None };
        self.store.check_milestone_signatures(&m).ok().map(|()| m.index)
    }

    /// Why the node stopped taking milestones (a fork), if it did.
    pub fn halted(&self) -> Option<String> {
        lock(&self.halted).clone()
    }

    pub fn confirmed_index(&self) -> u32 {
        self.store.status().latest_milestone.map_or(0, |(index, _, _)| index)
    }

    fn pruning_index(&self) -> u32 {
        self.store.status().pruning_index
    }

    /// Blocks held for their parents, and milestones held for their predecessor.
    pub fn held_counts(&self) -> (usize, usize) {
        let pending = lock(&self.pending);
        (pending.held.len(), pending.milestones.len())
    }

    /// Parents still missing for held blocks, after forgetting blocks held too long.
    pub fn missing_parents(&self) -> Vec<BlockId> {
        let mut pending = lock(&self.pending);
        let Pending { held, held_milestones, .. } = &mut *pending;
        held.expire(Instant::now());
        held_milestones.retain(|_, id| held.contains(id));
        held.missing()
    }

    /// A block the API or the coordinator stored: broadcast it; a milestone also changes
    /// the indexes heartbeats report.
    pub fn local_block(&self, id: [u8; 32], bytes: Vec<u8>, milestone: bool) {
        self.emit(StoreEvent::Local { id: BlockId(id), bytes });
        if milestone {
            self.emit(StoreEvent::SyncChanged(self.sync_state()));
        }
    }

    /// Blocks one API batch stored (no milestone among them): broadcast them.
    pub fn local_blocks(&self, blocks: Vec<([u8; 32], Vec<u8>)>) {
        let mut events = lock(&self.events);
        let Some(tx) = events.as_ref() else { return };
        for (id, bytes) in blocks {
            if tx.unbounded_send(StoreEvent::Local { id: BlockId(id), bytes }).is_err() {
                *events = None;
                return;
            }
        }
    }

    fn emit(&self, event: StoreEvent) {
        let mut events = lock(&self.events);
        if let Some(tx) = events.as_ref() {
            if tx.unbounded_send(event).is_err() {
                *events = None;
            }
        }
    }

    fn known(&self, id: &BlockId) -> bool {
        self.store.is_solid_entry_point(id.as_bytes())
            || matches!(self.store.has_block(id.as_bytes()), Ok(true))
    }

    /// The checks a block with missing parents gets before it is held: every rule but the
    /// parents' presence (the store's precheck reports `unknown-parent`, or `not-ready` on
    /// a follower before milestone 1, only after the other rules passed) and the proof of
    /// work of a non-milestone block.
    fn check_without_parents(&self, bytes: &[u8], milestone: bool) -> Result<(), String> {
        match self.store.precheck_block_from(bytes, BlockOrigin::Peer) {
            Ok(()) => {}
            Err(e) if e.code == Code::UnknownParent || e.code == Code::NotReady => {}
            Err(e) => return Err(describe(&e)),
        }
        if !milestone {
            let min = self.store.protocol().min_pow_score;
            if min > 0 {
                let zeros = ledger_core::pow::trailing_zeros(bytes);
                check_pow_zeros(bytes.len(), zeros, min).map_err(|e| describe(&e))?;
            }
        }
        Ok(())
    }

    fn saw_milestone(&self, index: u32) {
        if self.highest_seen.fetch_max(index, Relaxed) < index {
            self.emit(StoreEvent::SyncChanged(self.sync_state()));
        }
    }

    fn halt(&self, reason: String) {
        let mut halted = lock(&self.halted);
        if halted.is_none() {
            eprintln!("ledger-node gossip: FORK: {reason}; this node stops following the network's milestones");
            *halted = Some(reason);
        }
    }

    /// The verdict on a block the store refused.
    fn refused(
        &self,
        e: ledger_core::Error,
        id: BlockId,
        bytes: Vec<u8>,
        milestone: Option<u32>,
        pending: &mut Pending,
    ) -> Intake {
        match (e.code, milestone) {
            (Code::NotReady, _) => Intake::Failed(describe(&e)),
            (Code::UnknownParent, _) => Intake::Failed(describe(&e)),
            (Code::MilestoneIndexMismatch, Some(index)) => {
                if index > self.confirmed_index() + 1 && pending.milestones.len() < MILESTONES_AHEAD
                {
                    let signed = self.signed_milestone_index(&bytes);
                    pending.milestones.insert(index, (id, bytes));
                    if signed.is_some() {
                        self.saw_milestone(index);
                    }
                    Intake::Stored { missing_parents: Vec::new(), milestone: signed }
                } else {
                    Intake::Ignored
                }
            }
            (Code::MilestoneMerkleRootMismatch, Some(index)) => {
                self.halt(format!("milestone {index} ({id}): {}", describe(&e)));
                Intake::Ignored
            }
            // A milestone this node cannot accept (another coordinator's keys, a coordinator
            // node, a broken chain) stays unstored; it may be valid elsewhere: no punishment.
            (code, Some(_))
                if code.as_str().starts_with("milestone-") || code == Code::StorageFailure =>
            {
                Intake::Ignored
            }
            (Code::StorageFailure, None) => Intake::Failed(describe(&e)),
            _ => Intake::Invalid(describe(&e)),
        }
    }
}

/// A block on its way into the store: where its verdict goes (None: a held block released
/// later, whose verdict was given when it was held).
struct Ready {
    slot: Option<usize>,
    id: BlockId,
    bytes: Vec<u8>,
    milestone: Option<u32>,
}

impl GossipStore for NodeStore {
    fn contains_block(&self, id: &BlockId) -> bool {
        self.known(id)
    }

    fn block_bytes(&self, id: &BlockId) -> Option<Vec<u8>> {
        self.store.block(id.as_bytes()).ok().flatten()
    }

    fn milestone_block(&self, index: u32) -> Option<Vec<u8>> {
        let record = self.store.milestone_by_index(index).ok().flatten()?;
        self.store.block(&record.block_id).ok().flatten()
    }

    fn submit_blocks(&self, blocks: &[ReceivedBlock]) -> Vec<Intake> {
        let mut verdicts: Vec<Option<Intake>> = blocks.iter().map(|_| None).collect();
        let mut ready: Vec<Ready> = Vec::new();
        let mut batch_ids: HashSet<BlockId> = HashSet::new();
        // Parents found stored, for the rest of the batch: blocks of one burst share most
        // of their parents (the same tips), and each lookup is a RocksDB read.
        let mut known_parents: HashSet<BlockId> = HashSet::new();
        let halted = self.halted().is_some();
        let now = Instant::now();
        let mut pending = lock(&self.pending);
        for (slot, b) in blocks.iter().enumerate() {
            if pending.held.contains(&b.id) || batch_ids.contains(&b.id) {
                verdicts[slot] = Some(Intake::AlreadyStored);
                continue;
            }
            let Some(facts) = facts(&b.bytes) else {
                // Too short to name its parents: the store says what is wrong with it.
                ready.push(Ready {
                    slot: Some(slot),
                    id: b.id,
                    bytes: b.bytes.clone(),
                    milestone: None,
                });
                continue;
            };
            if let Some(index) = facts.milestone {
                if halted {
                    verdicts[slot] = Some(Intake::Ignored);
                    continue;
                }
                if index <= self.confirmed_index() {
                    // An old milestone this node has (or a fork of one): nothing to do.
                    verdicts[slot] = Some(if self.known(&b.id) {
                        Intake::AlreadyStored
                    } else {
                        Intake::Ignored
                    });
                    continue;
                }
            }
            let mut missing: Vec<BlockId> = Vec::new();
            for p in &facts.parents {
                if batch_ids.contains(p) || known_parents.contains(p) {
                    continue;
                }
                if self.known(p) {
                    known_parents.insert(*p);
                } else {
                    missing.push(*p);
                }
            }
            if missing.is_empty() {
                batch_ids.insert(b.id);
                ready.push(Ready {
                    slot: Some(slot),
                    id: b.id,
                    bytes: b.bytes.clone(),
                    milestone: facts.milestone,
                });
                continue;
            }
            verdicts[slot] =
                Some(match self.check_without_parents(&b.bytes, facts.milestone.is_some()) {
                    Err(reason) => Intake::Invalid(reason),
                    Ok(()) => {
                        pending.held.hold(b.id, b.bytes.clone(), missing.clone(), now);
                        // A milestone's cone is requested with "keep" only when its signatures
                        // are the trusted ones (gossip.md §6.1); others wait like any block.
                        let signed =
                            facts.milestone.and_then(|_| self.signed_milestone_index(&b.bytes));
                        if let Some(index) = signed {
                            pending.held_milestones.insert(index, b.id);
                            self.saw_milestone(index);
                        }
                        Intake::Stored { missing_parents: missing, milestone: signed }
                    }
                });
        }

        while !ready.is_empty() {
            let bytes: Vec<&[u8]> = ready.iter().map(|r| r.bytes.as_slice()).collect();
            let results = self.store.submit_blocks_from(&bytes, BlockOrigin::Peer);
            let mut next: Vec<Ready> = Vec::new();
            let mut applied_milestone = false;
            for (r, result) in std::mem::take(&mut ready).into_iter().zip(results) {
                let verdict = match result {
                    Ok(submitted) if submitted.stored => {
                        for released in pending.held.arrived(&r.id) {
                            let milestone = facts(&released.bytes).and_then(|f| f.milestone);
                            next.push(Ready {
                                slot: None,
                                id: released.id,
                                bytes: released.bytes,
                                milestone,
                            });
                        }
                        if let Some(index) = r.milestone {
                            pending.held_milestones.remove(&index);
                            self.saw_milestone(index);
                            applied_milestone = true;
                        }
                        self.emit(StoreEvent::Solid { id: r.id, bytes: r.bytes });
                        Intake::Stored { missing_parents: Vec::new(), milestone: r.milestone }
                    }
                    Ok(_) => Intake::AlreadyStored,
                    Err(e) => self.refused(e, r.id, r.bytes, r.milestone, &mut pending),
                };
                match r.slot {
                    Some(slot) => verdicts[slot] = Some(verdict),
                    None => {
                        if let Intake::Invalid(reason) | Intake::Failed(reason) = &verdict {
                            eprintln!("ledger-node gossip: held block {} refused when its parents arrived: {reason}", r.id);
                        }
                    }
                }
            }
            if applied_milestone {
                let confirmed = self.confirmed_index();
                // The milestone after the one just applied may be waiting.
                if let Some((id, bytes)) = pending.milestones.remove(&(confirmed + 1)) {
                    next.push(Ready { slot: None, id, bytes, milestone: Some(confirmed + 1) });
                }
                pending.milestones.retain(|&index, _| index > confirmed);
                self.emit(StoreEvent::SyncChanged(self.sync_state()));
            }
            ready = next;
        }
        verdicts
            .into_iter()
            .map(|v| v.unwrap_or_else(|| Intake::Failed("no verdict".into())))
            .collect()
    }

    fn sync_state(&self) -> SyncState {
        let confirmed = self.confirmed_index();
        SyncState {
            confirmed,
            latest: self.highest_seen.load(Relaxed).max(confirmed),
            pruned: self.pruning_index(),
        }
    }

    /// Applied, or held here (waiting for its predecessor, or for its cone while held blocks
    /// last): stored soon, not worth requesting again.
    fn has_milestone(&self, index: u32) -> bool {
        if index <= self.confirmed_index() {
            return true;
        }
        let pending = lock(&self.pending);
        pending.milestones.contains_key(&index)
            || pending.held_milestones.get(&index).is_some_and(|id| pending.held.contains(id))
    }

    fn events(&self) -> BoxStream<'static, StoreEvent> {
        let (tx, rx) = unbounded();
        *lock(&self.events) = Some(tx);
        rx.boxed()
    }
}
