//! `SyncStore`: the node's store as gossip sees it (`ledger_gossip::GossipStore`), over
//! `ledger_store::Store`. This file holds its state — blocks held for their parents,
//! milestones held for their predecessor, the highest milestone seen, the fork halt — the
//! events it hands to gossip, and the checks a block gets before it is held. The intake of
//! a batch is `intake.rs`, the milestone verdicts `milestones.rs`.
//!
//! Lock discipline: `pending` is held while a batch is sorted into held and ready blocks
//! and while the store's answers are taken in, but not during a store call, so that the
//! applier's milestones and the intake's blocks go into the store side by side. It stays
//! correct because a block is only stored, never un-stored, while `pending` is let go: the
//! check that a parent is missing and the holding of its child happen in one critical
//! section, and a stored parent releases its held children in a later one. `events`,
//! `halted` and `applier` are taken inside `pending`, never the other way round.

use crate::held::HeldBlocks;
use crate::queue::MilestoneQueue;
use futures::channel::mpsc::UnboundedSender;
use ledger_core::validate::{check_pow_zeros, BlockOrigin};
use ledger_core::Code;
use ledger_gossip::{BlockId, GossipStore, StoreEvent};
use ledger_store::Store;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How much the intake keeps while it waits, and how often it asks again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Blocks held for their parents at most (the oldest goes first) …
    pub held_capacity: usize,
    /// … and their bytes at most (a flood of large orphans must not take 20,000 × 32 KiB) …
    pub held_max_bytes: usize,
    /// … and for at most this long (a milestone's cone that takes longer is requested
    /// again by warp sync).
    pub held_max_age: Duration,
    /// Milestones held ahead of the next one (a warp-sync window and some).
    pub milestones_ahead: usize,
    /// How often the parents of held blocks are asked for again (`maintenance.rs`).
    pub retry_interval: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            held_capacity: 20_000,
            held_max_bytes: 64 << 20,
            held_max_age: Duration::from_secs(120),
            milestones_ahead: 512,
            retry_interval: Duration::from_secs(1),
        }
    }
}

pub(crate) struct Pending {
    pub held: HeldBlocks,
    /// Milestones whose parents are stored, waiting for their predecessor or the applier.
    pub milestones: MilestoneQueue,
    /// Milestone indexes among the held blocks (requested by warp sync, not requested again).
    pub held_milestones: BTreeMap<u32, BlockId>,
}

pub struct SyncStore {
    pub(crate) store: Arc<Store>,
    pub(crate) limits: Limits,
    pub(crate) pending: Mutex<Pending>,
    events: Mutex<Option<UnboundedSender<StoreEvent>>>,
    /// The highest milestone index seen in a well-formed milestone block carrying the
    /// required signatures (heartbeats' "latest"); the confirmed index is the store's.
    pub(crate) highest_seen: AtomicU32,
    /// The pruning index the last heartbeat announced: a pruning run moves it between
    /// milestones, and peers must hear of it (they stop asking us for what is gone).
    announced_pruning: AtomicU32,
    pub(crate) halted: Mutex<Option<String>>,
    /// Wakes the applier thread (`applier.rs`) while one is attached; without it milestones
    /// are applied on the intake's thread, in its rounds.
    applier: Mutex<Option<Sender<()>>>,
}

/// Held blocks that went (a flood of orphans expired or was released) make the intake
/// hand the allocator's free memory back to the system once they add up to this.
const GIVE_BACK_AFTER: usize = 16 << 20;

/// Return the allocator's free pages to the system. glibc's malloc keeps freed small
/// chunks in its arenas (one per thread that allocated), so the held blocks of a flood,
/// gone, still counted in the node's resident memory for good (issue 24: 120 MB).
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of the allocator; no pointer is involved.
    unsafe {
        libc::malloc_trim(0);
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section leaves its data consistent between statements (maps that
    // are filled or emptied whole), so a panic elsewhere does not make it unusable.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A store error as one line for a verdict or a log line.
pub(crate) fn describe(e: &ledger_core::Error) -> String {
    if e.path.is_empty() {
        format!("{}: {}", e.code, e.detail)
    } else {
        format!("{}: {}: {}", e.code, e.path, e.detail)
    }
}

impl SyncStore {
    pub fn new(store: Arc<Store>, limits: Limits) -> SyncStore {
        SyncStore {
            store,
            pending: Mutex::new(Pending {
                held: HeldBlocks::new(
                    limits.held_capacity,
                    limits.held_max_bytes,
                    limits.held_max_age,
                ),
                milestones: MilestoneQueue::default(),
                held_milestones: BTreeMap::new(),
            }),
            limits,
            events: Mutex::new(None),
            highest_seen: AtomicU32::new(0),
            announced_pruning: AtomicU32::new(0),
            halted: Mutex::new(None),
            applier: Mutex::new(None),
        }
    }

    /// Milestones go to the applier thread woken through `wake` from now on.
    pub(crate) fn attach_applier(&self, wake: Sender<()>) {
        *lock(&self.applier) = Some(wake);
    }

    /// Milestones are applied in the intake's rounds again; the applier thread ends.
    pub(crate) fn detach_applier(&self) {
        *lock(&self.applier) = None;
    }

    pub(crate) fn applier_attached(&self) -> bool {
        lock(&self.applier).is_some()
    }

    pub(crate) fn wake_applier(&self) {
        if let Some(wake) = lock(&self.applier).as_ref() {
            // A stopped applier is a detached one: nothing to wake.
            let _ = wake.send(());
        }
    }

    /// The store underneath.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Why the node stopped taking milestones (a fork), if it did.
    pub fn halted(&self) -> Option<String> {
        lock(&self.halted).clone()
    }

    pub fn confirmed_index(&self) -> u32 {
        self.store.status().latest_milestone.map_or(0, |(index, _, _)| index)
    }

    pub(crate) fn pruning_index(&self) -> u32 {
        self.store.status().pruning_index
    }

    /// Blocks held for their parents, and milestones held for their predecessor.
    pub fn held_counts(&self) -> (usize, usize) {
        let pending = lock(&self.pending);
        (pending.held.len(), pending.milestones.len())
    }

    /// Bytes of the blocks held for their parents.
    pub fn held_bytes(&self) -> usize {
        lock(&self.pending).held.bytes()
    }

    /// Parents still missing for held blocks, after forgetting blocks held too long.
    pub fn missing_parents(&self) -> Vec<BlockId> {
        let mut pending = lock(&self.pending);
        let Pending { held, held_milestones, .. } = &mut *pending;
        held.expire(Instant::now());
        held_milestones.retain(|_, id| held.contains(id));
        let missing = held.missing();
        let give_back = held.fallen_from_peak() >= GIVE_BACK_AFTER;
        if give_back {
            held.reset_peak();
        }
        drop(pending);
        if give_back {
            release_free_memory();
        }
        missing
    }

    /// A block the API or the coordinator stored: broadcast it; a milestone also changes
    /// the indexes heartbeats report.
    pub(crate) fn local_block(&self, id: [u8; 32], bytes: Vec<u8>, milestone: bool) {
        self.emit(StoreEvent::Local { id: BlockId(id), bytes });
        if milestone {
            self.sync_changed();
        }
    }

    /// Blocks one API batch stored (no milestone among them): broadcast them.
    pub(crate) fn local_blocks(&self, blocks: Vec<([u8; 32], Vec<u8>)>) {
        let mut events = lock(&self.events);
        let Some(tx) = events.as_ref() else { return };
        for (id, bytes) in blocks {
            if tx.unbounded_send(StoreEvent::Local { id: BlockId(id), bytes }).is_err() {
                *events = None;
                return;
            }
        }
    }

    /// Confirmed, latest or pruning index moved: peers get a heartbeat, and the store learns
    /// whether it may prune (Hornet prunes only while the node is synced: confirmed equals
    /// latest, so a follower catching up keeps what it may still need to solidify).
    pub(crate) fn sync_changed(&self) {
        let state = self.sync_state();
        self.announced_pruning.store(state.pruned, Relaxed);
        self.store.set_synced_for_pruning(state.confirmed >= state.latest);
        self.emit(StoreEvent::SyncChanged(state));
    }

    /// Whether a pruning run moved the pruning index since the last heartbeat; if so, peers
    /// are told (called from the maintenance round).
    pub(crate) fn announce_pruning(&self) {
        if self.pruning_index() != self.announced_pruning.load(Relaxed) {
            self.sync_changed();
        }
    }

    pub(crate) fn emit(&self, event: StoreEvent) {
        let mut events = lock(&self.events);
        if let Some(tx) = events.as_ref() {
            if tx.unbounded_send(event).is_err() {
                *events = None;
            }
        }
    }

    /// Where gossip's `events()` stream is fed from (one subscriber: gossip).
    pub(crate) fn set_events(&self, tx: UnboundedSender<StoreEvent>) {
        *lock(&self.events) = Some(tx);
    }

    pub(crate) fn known(&self, id: &BlockId) -> bool {
        self.store.is_solid_entry_point(id.as_bytes())
            || matches!(self.store.has_block(id.as_bytes()), Ok(true))
    }

    /// The checks a block with missing parents gets before it is held: every rule but the
    /// parents' presence (the store's precheck reports `unknown-parent`, or `not-ready` on
    /// a follower before milestone 1, only after the other rules passed) and the proof of
    /// work of a non-milestone block.
    pub(crate) fn check_without_parents(
        &self,
        bytes: &[u8],
        milestone: bool,
    ) -> Result<(), String> {
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
}
