//! `GossipStore for SyncStore`: received blocks into the store (gossip.md §6, D46).
//!
//! A batch goes through the store's batched intake (`Store::submit_blocks_from` with the
//! peer origin: 1..8 parents, D40), which needs every parent known (D13). A block whose
//! parents are not all stored or in the batch before it is checked as far as it can be
//! without them and held (`held.rs`) while gossip asks peers for the parents; once the last
//! one is stored it is submitted in a following round of the same call. A stored milestone
//! releases the next one if it was held (`milestones.rs`). Every block stored here becomes
//! a `Solid` event for gossip to broadcast.
//!
//! The store applies the milestones of a call before its other blocks. A milestone whose
//! parent is an ordinary block of the same call would find that parent missing, be refused
//! (`unknown-parent`) and be lost as the node's own failure, until a request for it was
//! retried (issue 23: warp sync stopped for seconds at such milestones). So a round of
//! the intake never submits a milestone beside one of its parents: it waits for the next
//! round, with whatever in the round builds on it (`split_round`).

use crate::facts::facts;
use crate::sync_store::{lock, SyncStore};
use futures::channel::mpsc::unbounded;
use futures::stream::{BoxStream, StreamExt};
use ledger_core::codec::decode_block_header;
use ledger_core::validate::BlockOrigin;
use ledger_gossip::{BlockId, GossipStore, Intake, ReceivedBlock, StoreEvent, SyncState};
use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// A block on its way into the store: where its verdict goes (None: a held block released
/// later, whose verdict was given when it was held).
struct Ready {
    slot: Option<usize>,
    id: BlockId,
    bytes: Vec<u8>,
    milestone: Option<u32>,
}

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
                        let to_request: Vec<BlockId> =
                            missing.iter().filter(|p| !pending.held.contains(p)).copied().collect();
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

        while !ready.is_empty() {
            let (round, later) = split_round(std::mem::take(&mut ready));
            let bytes: Vec<&[u8]> = round.iter().map(|r| r.bytes.as_slice()).collect();
            let results = self.store.submit_blocks_from(&bytes, BlockOrigin::Peer);
            let mut next: Vec<Ready> = later;
            let mut applied_milestone = false;
            for (r, result) in round.into_iter().zip(results) {
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
                if let Some((index, id, bytes)) = self.next_waiting_milestone(&mut pending) {
                    next.push(Ready { slot: None, id, bytes, milestone: Some(index) });
                }
                self.sync_changed();
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
        self.set_events(tx);
        rx.boxed()
    }
}

/// One store call's worth of `ready` (in order), and what waits for the next round: a
/// milestone with a parent among the ordinary blocks of the call (the store would apply it
/// before storing them), and every block with a parent among those waiting. The first block
/// never waits, so each round stores something.
fn split_round(ready: Vec<Ready>) -> (Vec<Ready>, Vec<Ready>) {
    let mut plain: HashSet<BlockId> = HashSet::new();
    let mut waiting: HashSet<BlockId> = HashSet::new();
    let (mut round, mut later) = (Vec::with_capacity(ready.len()), Vec::new());
    for r in ready {
        let parents = decode_block_header(&r.bytes).map(|h| h.parents).unwrap_or_default();
        let waits = parents
            .iter()
            .map(|p| BlockId(*p))
            .any(|p| waiting.contains(&p) || (r.milestone.is_some() && plain.contains(&p)));
        if waits {
            waiting.insert(r.id);
            later.push(r);
        } else {
            if r.milestone.is_none() {
                plain.insert(r.id);
            }
            round.push(r);
        }
    }
    (round, later)
}
