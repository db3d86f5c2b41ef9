//! `GossipStore for SyncStore`: received blocks into the store (gossip.md §6, D46).
//!
//! A batch goes through the store's batched intake (`Store::submit_blocks_from` with the
//! peer origin: 1..8 parents, D40), which needs every parent known (D13). A block whose
//! parents are not all stored or in the batch before it is checked as far as it can be
//! without them and held (`held.rs`) while gossip asks peers for the parents; once the last
//! one is stored it is submitted in a following round (`rounds.rs`). A stored milestone
//! releases the next one if it was held (`milestones.rs`); with the applier attached,
//! milestones are applied on its thread (`applier.rs`). Every block stored here becomes a
//! `Solid` event for gossip to broadcast.

use crate::facts::facts;
use crate::rounds::Ready;
use crate::sync_store::{lock, SyncStore};
use futures::channel::mpsc::unbounded;
use futures::stream::{BoxStream, StreamExt};
use ledger_gossip::{BlockId, GossipStore, Intake, ReceivedBlock, StoreEvent, SyncState};
use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

impl GossipStore for SyncStore {
    fn contains_block(&self, id: &BlockId) -> bool {
        self.known(id)
    }

    fn block_bytes(&self, id: &BlockId) -> Option<Vec<u8>> {
        self.store.block(id.as_bytes()).ok().flatten()
    }

    fn awaits_milestone(&self, id: &BlockId) -> bool {
        self.store.awaits_milestone(id.as_bytes())
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
            if pending.held.contains(&b.id)
                || batch_ids.contains(&b.id)
                || pending.milestones.has_block(&b.id)
            {
                verdicts[slot] = Some(Intake::AlreadyStored);
                continue;
            }
            let Some(facts) = facts(&b.bytes) else {
                // Too short to name its parents: the store says what is wrong with it.
                ready.push(Ready {
                    slot: Some(slot),
                    id: b.id,
                    bytes: b.bytes.clone(),
                    parents: Vec::new(),
                    milestone: None,
                });
                continue;
            };
            if let Some(index) = facts.milestone {
                if halted {
                    verdicts[slot] = Some(Intake::Ignored);
                    continue;
                }
                // An old milestone this node has (or a fork of one): nothing to do. Except the
                // block of the snapshot's target milestone on a node that started from the
                // snapshot: its milestone is in the ledger, but the block is not stored, and
                // the next milestone approves it. The store takes it once its id is the
                // target's (snapshot.md, "Starting from a snapshot").
                let snapshot_target = index == self.store.origin().target_milestone_index
                    && index > 0
                    && !self.known(&b.id);
                if index <= self.confirmed_index() && !snapshot_target {
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
                    parents: facts.parents,
                    milestone: facts.milestone,
                });
                continue;
            }
            verdicts[slot] =
                Some(match self.check_without_parents(&b.bytes, facts.milestone.is_some()) {
                    Err(reason) => Intake::Invalid(reason),
                    Ok(()) => {
                        // A parent held here already waits for its own parents, which were
                        // asked for when it came: the block waits for it without a request.
                        // So does a milestone waiting to be applied (`queue.rs`).
                        let to_request: Vec<BlockId> = missing
                            .iter()
                            .filter(|p| {
                                !pending.held.contains(p) && !pending.milestones.has_block(p)
                            })
                            .copied()
                            .collect();
                        pending.held.hold(b.id, b.bytes.clone(), missing, now);
                        // A milestone's cone is requested with "keep" only when its signatures
                        // are the trusted ones (gossip.md §6.1); others wait like any block.
                        let signed =
                            facts.milestone.and_then(|_| self.signed_milestone_index(&b.bytes));
                        if let Some(index) = signed {
                            pending.held_milestones.insert(index, b.id);
                            self.saw_milestone(index);
                        }
                        Intake::Stored { missing_parents: to_request, milestone: signed }
                    }
                });
        }

        drop(self.store_ready(ready, pending, &mut verdicts));
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
        pending.milestones.has_index(index)
            || pending.held_milestones.get(&index).is_some_and(|id| pending.held.contains(id))
    }

    fn events(&self) -> BoxStream<'static, StoreEvent> {
        let (tx, rx) = unbounded();
        self.set_events(tx);
        rx.boxed()
    }
}
