//! Milestones: issued by the embedded coordinator (ledger.md §6), accepted from a trusted
//! coordinator (follower), committed with everything they change in one batch (D25).

use super::{lock, now_ms, referenced_index, IssuedMilestone, Latest, NewBlock, Store, Submitted};
use crate::columns::{self, state_key, BLOCKS, BLOCK_META, DIFFS, MILESTONES, MILESTONE_IDS, OUTPUTS, SPENTS, STATE, UNREFERENCED, UNSPENT};
use crate::events::ReferencedBlock;
use crate::metadata;
use crate::milestone::{self, Essence, Previous};
use crate::records::{BlockMeta, Diff, MilestoneRecord};
use crate::white_flag::{self, Confirmation};
use crate::{storage_error, SOLID_ENTRY_POINTS};
use ledger_core::codec::{encode_block, encode_milestone_payload};
use ledger_core::ids;
use ledger_core::model::{Block, Id32, MilestonePayload, Payload};
use ledger_core::validate::validate_milestone_block;
use ledger_core::{Error, Result};
use std::collections::HashSet;

impl Store {

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
    pub(super) fn accept_milestone(&self, block: Block, bytes: &[u8], block_id: Id32) -> Result<Submitted> {
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
        // The event's ledger part is built before taking the lock (it decodes outputs and
        // reads the spent ones); the referenced blocks' part below, from the same values
        // that are written.
        let ledger_changes = if self.events_active() { Some(self.milestone_ledger_changes(&c, index)?) } else { None };
        let mut referenced_events = ledger_changes.as_ref().map(|_| Vec::with_capacity(c.order.len()));
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
            if let Some(list) = referenced_events.as_mut() {
                list.push(ReferencedBlock { block_id: *id, metadata_json: metadata::block_json(id, &pending.parents, &meta, None) });
            }
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
        if let (Some(transactions), Some(referenced)) = (ledger_changes, referenced_events) {
            self.emit_milestone_committed(&state, block_id, bytes, payload, record.payload, referenced, transactions);
        }
        Ok(IssuedMilestone {
            index,
            milestone_id,
            block_id,
            timestamp: payload.timestamp,
            referenced_blocks: c.order.len(),
            included_transactions: c.included_transactions,
        })
    }
}
