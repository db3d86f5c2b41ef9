//! Blocks whose parents are known, through the store in rounds: each round is one store
//! call; what the blocks it stored release (held children, the next milestone) goes into
//! the next round. The intake (`intake.rs`) runs them for a batch from peers, the applier
//! (`applier.rs`) for what a milestone it applied released.
//!
//! The store applies the milestones of a call before its other blocks. A milestone whose
//! parent is an ordinary block of the same call would find that parent missing, be refused
//! (`unknown-parent`) and be lost as the node's own failure, until a request for it was
//! retried (issue 23: warp sync stopped for seconds at such milestones). So a round never
//! submits a milestone beside one of its parents: it waits for the next round, with
//! whatever in the round builds on it (`split_round`).
//!
//! With the applier attached, a milestone carrying the required signatures is not
//! submitted in a round at all: it is queued (`queue.rs`) for the applier thread, so that
//! its white flag and commit run beside the intake of the next blocks (issue 23: they were
//! a third of a warp sync's intake thread). A block of the round approving a queued
//! milestone is held for it, and released when the applier has stored it.

use crate::facts::facts;
use crate::sync_store::{lock, Pending, SyncStore};
use ledger_core::validate::BlockOrigin;
use ledger_gossip::{BlockId, Intake, StoreEvent};
use std::collections::HashSet;
use std::sync::MutexGuard;
use std::time::Instant;

/// A block on its way into the store: where its verdict goes (None: a held block released
/// later, whose verdict was given when it was held).
pub(crate) struct Ready {
    pub slot: Option<usize>,
    pub id: BlockId,
    pub bytes: Vec<u8>,
    /// As its bytes name them (`facts.rs`), read once for every round it waits.
    pub parents: Vec<BlockId>,
    pub milestone: Option<u32>,
}

impl Ready {
    /// A block released from holding (or a milestone from waiting): its verdict was given.
    fn released(id: BlockId, bytes: Vec<u8>) -> Ready {
        let (parents, milestone) =
            facts(&bytes).map_or((Vec::new(), None), |f| (f.parents, f.milestone));
        Ready { slot: None, id, bytes, parents, milestone }
    }
}

impl SyncStore {
    /// Store `ready` (parents known: stored, or earlier in the list) and everything it
    /// releases; verdicts go to `verdicts` by slot.
    /// `pending` is let go during each store call (`sync_store.rs`, lock discipline) and
    /// handed back locked.
    pub(crate) fn store_ready<'a>(
        &'a self,
        mut ready: Vec<Ready>,
        mut pending: MutexGuard<'a, Pending>,
        verdicts: &mut [Option<Intake>],
    ) -> MutexGuard<'a, Pending> {
        let applier = self.applier_attached();
        while !ready.is_empty() {
            let (round, later) = split_round(std::mem::take(&mut ready));
            let round =
                if applier { self.queue_milestones(round, &mut pending, verdicts) } else { round };
            let mut next: Vec<Ready> = later;
            if round.is_empty() {
                ready = next;
                continue;
            }
            drop(pending);
            let bytes: Vec<&[u8]> = round.iter().map(|r| r.bytes.as_slice()).collect();
            let results = self.store.submit_blocks_from(&bytes, BlockOrigin::Peer);
            pending = lock(&self.pending);
            let mut applied_milestone = false;
            for (r, result) in round.into_iter().zip(results) {
                let verdict = match result {
                    Ok(submitted) if submitted.stored => {
                        next.extend(self.released_by(&r.id, &mut pending));
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
                give_verdict(verdicts, r.slot, &r.id, verdict);
            }
            if applied_milestone {
                if let Some((_, id, bytes)) = self.next_waiting_milestone(&mut pending) {
                    next.push(Ready::released(id, bytes));
                }
                self.sync_changed();
            }
            ready = next;
        }
        pending
    }

    /// The held blocks that waited only for `id`, which is stored now.
    pub(crate) fn released_by(&self, id: &BlockId, pending: &mut Pending) -> Vec<Ready> {
        pending.held.arrived(id).into_iter().map(|r| Ready::released(r.id, r.bytes)).collect()
    }

    /// With the applier attached: the round's milestones that carry the required
    /// signatures go to the applier's queue (a milestone ahead of the next one waits there
    /// as it always did), and the round's blocks approving a queued milestone are held for
    /// it. What is left is submitted now.
    fn queue_milestones(
        &self,
        round: Vec<Ready>,
        pending: &mut Pending,
        verdicts: &mut [Option<Intake>],
    ) -> Vec<Ready> {
        if !round.iter().any(|r| r.milestone.is_some()) && pending.milestones.is_idle() {
            return round;
        }
        let mut submit = Vec::with_capacity(round.len());
        let mut queued = false;
        for r in round {
            // Not the block of a snapshot's target milestone (at the confirmed index): the
            // store takes that one as an ordinary block.
            let signed = r
                .milestone
                .filter(|&index| index > self.confirmed_index())
                .and_then(|_| self.signed_milestone_index(&r.bytes));
            if let Some(index) = signed {
                let verdict = if pending.milestones.len() < self.limits.milestones_ahead {
                    // "Latest" rises for a milestone ahead of the next one; the next one
                    // raises it once applied, with the confirmed index: a synced node stays
                    // synced while it applies it (it broadcasts, it may prune).
                    if index > self.confirmed_index() + 1 {
                        self.saw_milestone(index);
                    }
                    pending.milestones.insert(index, r.id, r.bytes);
                    queued = true;
                    Intake::Stored { missing_parents: Vec::new(), milestone: Some(index) }
                } else {
                    Intake::Ignored
                };
                give_verdict(verdicts, r.slot, &r.id, verdict);
                continue;
            }
            let waiting_for: Vec<BlockId> =
                r.parents.iter().filter(|p| pending.milestones.has_block(p)).copied().collect();
            if waiting_for.is_empty() {
                submit.push(r);
                continue;
            }
            // Checked as far as it can be before its parent is stored, like any block held.
            let verdict = match self.check_without_parents(&r.bytes, r.milestone.is_some()) {
                Err(reason) => Intake::Invalid(reason),
                Ok(()) => {
                    pending.held.hold(r.id, r.bytes, waiting_for, Instant::now());
                    Intake::Stored { missing_parents: Vec::new(), milestone: None }
                }
            };
            give_verdict(verdicts, r.slot, &r.id, verdict);
        }
        if queued {
            self.wake_applier();
        }
        submit
    }
}

/// `verdict` to its slot, or, for a released block whose verdict was given when it was
/// held, a log line if it was refused now.
fn give_verdict(
    verdicts: &mut [Option<Intake>],
    slot: Option<usize>,
    id: &BlockId,
    verdict: Intake,
) {
    match slot {
        Some(slot) => verdicts[slot] = Some(verdict),
        None => {
            if let Intake::Invalid(reason) | Intake::Failed(reason) = &verdict {
                eprintln!(
                    "ledger-node gossip: held block {id} refused when its parents arrived: {reason}"
                );
            }
        }
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
        let waits = r
            .parents
            .iter()
            .any(|p| waiting.contains(p) || (r.milestone.is_some() && plain.contains(p)));
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
