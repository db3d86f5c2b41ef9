//! Milestones from peers (D42, D43, gossip.md §6–§7): the store applies only the next one,
//! so one further ahead is held until its predecessor is applied; "latest" (heartbeats,
//! warp sync's target) rises only for a milestone carrying the signatures the store
//! requires, so that a peer cannot make the node believe it is behind with a forged index;
//! and a milestone whose merkle roots differ from this node's own white flag is a fork —
//! the node stops taking milestones and says so (unhealthy, gossip-fork e2e test).

use crate::sync_store::{describe, lock, Pending, SyncStore};
use ledger_core::codec::decode_block;
use ledger_core::model::Payload;
use ledger_core::Code;
use ledger_gossip::{BlockId, Intake};
use std::sync::atomic::Ordering::Relaxed;

impl SyncStore {
    /// The index of a milestone block that carries the signatures the store requires of the
    /// followed coordinator (D42: keys applicable at its index, the threshold), checked
    /// before its predecessor is applied; None otherwise, and always on a coordinator.
    pub(crate) fn signed_milestone_index(&self, bytes: &[u8]) -> Option<u32> {
        if !self.store.follows_milestones() {
            return None;
        }
        let Ok(block) = decode_block(bytes) else { return None };
        let Some(Payload::Milestone(m)) = block.payload else { return None };
        self.store.check_milestone_signatures(&m).ok().map(|()| m.index)
    }

    /// A signed milestone (or an applied one) at `index`: "latest" may rise, and peers hear of it.
    pub(crate) fn saw_milestone(&self, index: u32) {
        if self.highest_seen.fetch_max(index, Relaxed) < index {
            self.sync_changed();
        }
    }

    pub(crate) fn halt(&self, reason: String) {
        let mut halted = lock(&self.halted);
        if halted.is_none() {
            eprintln!("ledger-node gossip: FORK: {reason}; this node stops following the network's milestones");
            *halted = Some(reason);
        }
    }

    /// The verdict on a block the store refused; a milestone ahead of the next one is kept
    /// in `pending` until its predecessor is applied.
    pub(crate) fn refused(
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
                if index > self.confirmed_index() + 1
                    && pending.milestones.len() < self.limits.milestones_ahead
                {
                    let signed = self.signed_milestone_index(&bytes);
                    pending.milestones.insert(index, id, bytes);
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
                if code.as_str().starts_with("milestone-")
                    || matches!(code, Code::StorageFailure | Code::StorageFull) =>
            {
                Intake::Ignored
            }
            // The node's own failure, a full disk included: the peer did nothing wrong.
            (Code::StorageFailure | Code::StorageFull, None) => Intake::Failed(describe(&e)),
            _ => Intake::Invalid(describe(&e)),
        }
    }

    /// After a milestone was applied: the one after it, if it was waiting, goes next;
    /// milestones at or below the confirmed index are of no use any more.
    pub(crate) fn next_waiting_milestone(
        &self,
        pending: &mut Pending,
    ) -> Option<(u32, BlockId, Vec<u8>)> {
        let confirmed = self.confirmed_index();
        let next =
            pending.milestones.remove(confirmed + 1).map(|(id, bytes)| (confirmed + 1, id, bytes));
        pending.milestones.drop_through(confirmed);
        next
    }
}
