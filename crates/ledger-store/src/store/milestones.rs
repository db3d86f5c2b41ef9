//! Milestones: issued by the embedded coordinator (ledger.md §6), accepted from a trusted
//! coordinator (follower), committed with everything they change in one batch (D25).

use super::intake::ReferencedParents;
use super::{
    lock, milestone_not_allowed, now_ms, referenced_index, IntervalStart, IssuedMilestone, Latest,
    MilestoneInterval, NewBlock, State, Store, Submitted,
};
use crate::columns::{
    self, state_key, BLOCKS, BLOCK_META, DIFFS, MILESTONES, MILESTONE_IDS, OUTPUTS, SPENTS, STATE,
    UNREFERENCED, UNSPENT,
};
use crate::events::ReferencedBlock;
use crate::graph::cone_roots;
use crate::metadata;
use crate::milestone::{self, Essence, MilestoneKeys, Previous};
use crate::milestone_blocks::{MilestoneBlock, MilestoneBlocks, Settled};
use crate::origin::GenesisStyle;
use crate::records::{BlockMeta, Diff, MilestoneRecord};
use crate::signatures_ahead::Use;
use crate::tips::{self, TipScore};
use crate::views::BlockMetadata;
use crate::white_flag::{self, Confirmation};
use crate::{index, ledger, receipts, storage_error};
use ledger_core::codec::{encode_block, encode_milestone_payload};
use ledger_core::ids;
use ledger_core::model::{Block, Id32, MilestonePayload, Payload};
use ledger_core::validate::{validate_milestone_block, MAX_PARENTS};
use ledger_core::{Code, Error, Result};
use std::collections::HashSet;
use std::time::Instant;

impl Store {
    /// Issue the next milestone with the embedded coordinator (ledger.md §6): milestone 1
    /// at bootstrap (D12, D41), later ones confirming the cone of the chosen parents.
    /// `timestamp` overrides the clock (it still never goes back).
    pub fn issue_milestone(&self, timestamp: Option<u32>) -> Result<IssuedMilestone> {
        if !self.coordinator_enabled {
            return Err(Error::new(
                Code::CoordinatorDisabled,
                "",
                "the embedded coordinator is disabled on this node",
            ));
        }
        let _issuing = lock(&self.issuing);
        let now = timestamp.unwrap_or_else(|| (now_ms() / 1000) as u32);
        let (essence, order) = {
            let state = lock(&self.state);
            match state.latest {
                // The first milestone approves the entry points (at most 8, ascending): the
                // pair of the `ledger` style, the single `0x00…00` of the `hornet` style, or
                // a genesis snapshot's set. Nothing else can exist before it.
                None => (
                    Essence {
                        index: self.origin.first_milestone_index(),
                        timestamp: now,
                        previous_milestone_id: [0; 32],
                        parents: self
                            .entry_points()
                            .sorted()
                            .iter()
                            .take(MAX_PARENTS)
                            .copied()
                            .collect(),
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
        // TIP-29's all-zero roots for the first milestone in the `ledger` style (D12);
        // otherwise white flag's, which for the first milestone are MTH(∅) as Hornet
        // computes them (D41).
        let zero_roots = essence.index == self.origin.first_milestone_index()
            && self.origin.style == GenesisStyle::Ledger;
        let confirming = Instant::now();
        let confirmation = white_flag::confirm(
            &self.db,
            (&self.signatures_ahead, Use::Take),
            order,
            essence.index,
            essence.timestamp,
        )?;
        let confirm_micros = confirming.elapsed().as_micros() as u64;
        let essence = if zero_roots {
            essence
        } else {
            Essence {
                inclusion_root: confirmation.inclusion_root,
                applied_root: confirmation.applied_root,
                ..essence
            }
        };
        let payload = milestone::build(essence, &self.keys);
        let block = milestone::block_of(payload.clone());
        validate_milestone_block(&block)?;
        let bytes = encode_block(&block);
        let block_id = ids::block_id(&bytes);
        let committing = Instant::now();
        let issued = self.commit_milestone(block_id, &bytes, &payload, confirmation)?;
        Ok(IssuedMilestone {
            confirm_micros,
            commit_micros: committing.elapsed().as_micros() as u64,
            ..issued
        })
    }

    /// Whether milestone `m` carries the signatures this node requires of another
    /// coordinator's milestones (D42: keys applicable at its index, the threshold), without
    /// the chain: gossip uses it for milestones ahead of the confirmed one.
    pub fn check_milestone_signatures(&self, m: &MilestonePayload) -> Result<()> {
        self.signed_milestones.check(&self.milestone_keys, m)
    }

    /// The keys whose milestones this node accepts and how many must sign (D42): the
    /// configured ranges, or the followed coordinator's keys, or its own.
    pub fn milestone_keys(&self) -> &MilestoneKeys {
        &self.milestone_keys
    }

    /// This node takes its milestones from another coordinator (its own is disabled).
    pub fn follows_milestones(&self) -> bool {
        !self.coordinator_enabled
    }

    /// A milestone block of another coordinator (this node's own is disabled): it must
    /// continue the chain, carry the signatures of D42 (keys applicable at its index, at
    /// least the threshold), and its merkle roots
    /// must be the ones this node's own white flag computes. The network's first milestone
    /// (genesis index + 1) approves only entry points, and may also carry TIP-29's all-zero
    /// roots (D42): that accepts both genesis styles.
    pub(super) fn accept_milestone(
        &self,
        block: Block,
        bytes: &[u8],
        block_id: Id32,
    ) -> Result<Submitted> {
        if self.coordinator_enabled {
            return Err(milestone_not_allowed());
        }
        validate_milestone_block(&block)?;
        let Some(Payload::Milestone(payload)) = block.payload else {
            return Err(Error::new(
                Code::MilestonePayloadMissing,
                "payload",
                "not a milestone block",
            ));
        };
        if self.origin.from_snapshot
            && payload.index == self.origin.target_milestone_index
            && ids::milestone_id(&payload) == self.origin.target_milestone_id
        {
            // The block of the milestone a snapshot ends at: the node has its ledger but not
            // the block, which the next milestone approves (its parents are entry points).
            // Stored as an ordinary block, once its signatures check (Hornet stores it too).
            self.check_milestone_signatures(&payload)?;
            let block = Block { payload: Some(Payload::Milestone(payload)), ..block };
            return self.store_plain_block(block, bytes);
        }
        let _issuing = lock(&self.issuing);
        if self.db.exists(BLOCKS, &block_id)? {
            return Ok(Submitted { block_id, stored: false });
        }
        let order = {
            let state = lock(&self.state);
            let previous = match state.latest {
                Some(l) => Previous {
                    index: l.index,
                    milestone_id: l.milestone_id,
                    timestamp: l.timestamp,
                },
                None => Previous {
                    index: self.origin.target_milestone_index,
                    milestone_id: self.origin.target_milestone_id,
                    timestamp: self.origin.target_milestone_timestamp,
                },
            };
            // Signatures checked when the milestone came ahead of its cone are found checked.
            milestone::check_chain(&payload, &previous)?;
            self.check_milestone_signatures(&payload)?;
            if payload.index == self.origin.first_milestone_index()
                && !payload.parents.iter().all(|p| self.entry_points().contains(p))
            {
                return Err(Error::new(
                    Code::MilestoneParentsInvalid,
                    "payload.parents",
                    "the first milestone approves solid entry points only (D12, D41)",
                ));
            }
            self.check_parents_known(
                &state,
                &block.parents,
                &HashSet::new(),
                &mut ReferencedParents::default(),
            )?;
            self.check_parents_not_below_max_depth(&state, &block.parents)?;
            white_flag::traversal_order(&payload.parents, &state.graph)
        };
        let mut confirmation = white_flag::confirm(
            &self.db,
            (&self.signatures_ahead, Use::Take),
            order,
            payload.index,
            payload.timestamp,
        )?;
        // D42: at the first index TIP-29's all-zero roots (`ledger` style) are accepted
        // as well as white flag's MTH(∅) (`hornet` style).
        let tip29_first = payload.index == self.origin.first_milestone_index()
            && payload.inclusion_merkle_root == [0; 32]
            && payload.applied_merkle_root == [0; 32];
        if !tip29_first {
            let (inclusion, applied) = (confirmation.inclusion_root, confirmation.applied_root);
            if payload.inclusion_merkle_root != inclusion {
                return Err(Error::new(
                    Code::MilestoneMerkleRootMismatch,
                    "payload.inclusionMerkleRoot",
                    format!("this node computes 0x{}", hex::encode(inclusion)),
                ));
            }
            if payload.applied_merkle_root != applied {
                return Err(Error::new(
                    Code::MilestoneMerkleRootMismatch,
                    "payload.appliedMerkleRoot",
                    format!("this node computes 0x{}", hex::encode(applied)),
                ));
            }
        }
        // A receipt pays migrated funds out of the treasury after the cone is applied; the
        // treasury only changes under `issuing`, which is held.
        let treasury = ledger::treasury(&self.db)?;
        let milestone_id = ids::milestone_id(&payload);
        if let Some(applied) =
            receipts::apply(&payload, &milestone_id, treasury, self.protocol.token_supply)?
        {
            confirmation.created.extend(applied.created.iter().cloned());
            confirmation.receipt = Some(applied);
        }
        self.commit_milestone(block_id, bytes, &payload, confirmation)?;
        Ok(Submitted { block_id, stored: true })
    }

    /// A milestone cannot reference a block below max depth: this node has dropped it from
    /// the pending graph, so white flag would not walk it and the roots could not agree.
    /// A coordinator following the same rules never selects one (ledger.md §5).
    fn check_parents_not_below_max_depth(&self, state: &State, parents: &[Id32]) -> Result<()> {
        for (i, p) in parents.iter().enumerate() {
            if state.graph.get(p).is_some() || self.entry_points().contains(p) {
                continue;
            }
            if let Some(meta) = self.db.get(BLOCK_META, p)? {
                if BlockMeta::from_bytes(&meta)?.below_max_depth {
                    return Err(Error::new(
                        Code::MilestoneParentBelowMaxDepth,
                        format!("parents[{i}]"),
                        format!("block 0x{} is below max depth", hex::encode(p)),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Write a milestone with everything it changes in one batch (ledger.md §6 step 7, D25):
    /// its block, its record, the metadata of every block it references, the ledger
    /// changes, the new ledger index, and the blocks it leaves below max depth (they leave
    /// the pending graph; both kinds are filed under it in `milestone_blocks`). Memory
    /// follows only after the write succeeded.
    fn commit_milestone(
        &self,
        block_id: Id32,
        bytes: &[u8],
        payload: &MilestonePayload,
        c: Confirmation,
    ) -> Result<IssuedMilestone> {
        let milestone_id = ids::milestone_id(payload);
        let index = payload.index;
        if c.supply_change != 0 {
            return Err(Error::new(
                Code::LedgerInvariantBroken,
                "",
                format!("milestone {index} would change the token supply by {}", c.supply_change),
            ));
        }
        // The event's ledger part is built before taking the lock (it decodes outputs and
        // reads the spent ones); the referenced blocks' part below, from the same values
        // that are written.
        let ledger_changes = if self.events_active() {
            Some(self.milestone_ledger_changes(&c, index)?)
        } else {
            None
        };
        let mut referenced_events =
            ledger_changes.as_ref().map(|_| Vec::with_capacity(c.order.len()));
        // The indexer's part too (it also reads the spent outputs): only written under it.
        let index_changes = if self.indexer_enabled {
            Some(index::changes(&self.db, &c.created, &c.consumed, index)?)
        } else {
            None
        };
        let db = &self.db;
        let mut state = lock(&self.state);
        state.graph.record_tip_changes(ledger_changes.is_some() && self.tip_changes_wanted());
        let referenced: HashSet<Id32> = c.order.iter().copied().collect();
        let entry_points = self.entry_points();
        let entry_points = &*entry_points;
        let updates = state
            .graph
            .roots_after(&referenced, index, |p| referenced_index(db, entry_points, p))?;
        let below = state.graph.below_max_depth(&referenced, &updates, |roots| {
            tips::score(roots, index, &self.thresholds) == TipScore::BelowMaxDepth
        });
        let mut batch = self.db.batch();
        if let Some(changes) = &index_changes {
            changes.write(&mut batch);
        }
        for (position, (id, (inclusion, conflict))) in c.order.iter().zip(&c.states).enumerate() {
            let pending = state.graph.get(id).ok_or_else(|| {
                storage_error(format!(
                    "block 0x{} left the pending set during white flag",
                    hex::encode(id)
                ))
            })?;
            let meta = BlockMeta {
                arrival_ms: pending.arrival_ms,
                seq: pending.seq,
                referenced_by: index,
                white_flag_index: position as u32,
                inclusion: Some(*inclusion),
                conflict: *conflict,
                milestone_index: pending.milestone_index,
                below_max_depth: false,
            };
            batch.put(BLOCK_META, id, &meta.to_bytes());
            batch.delete(UNREFERENCED, &columns::unreferenced_key(pending.seq, id));
            batch.put_typed::<MilestoneBlocks>(
                &MilestoneBlock { index, block_id: *id },
                &Settled::Referenced,
            );
            if let Some(list) = referenced_events.as_mut() {
                list.push(ReferencedBlock {
                    block_id: *id,
                    metadata_json: metadata::block_json(id, &pending.parents, &meta, None),
                    metadata: BlockMetadata::of(id, &pending.parents, &meta, None),
                });
            }
        }
        for id in &below {
            let pending = state.graph.get(id).ok_or_else(|| {
                storage_error(format!("block 0x{} is not pending", hex::encode(id)))
            })?;
            let meta = BlockMeta {
                arrival_ms: pending.arrival_ms,
                seq: pending.seq,
                milestone_index: pending.milestone_index,
                below_max_depth: true,
                ..Default::default()
            };
            batch.put(BLOCK_META, id, &meta.to_bytes());
            batch.delete(UNREFERENCED, &columns::unreferenced_key(pending.seq, id));
            batch.put_typed::<MilestoneBlocks>(
                &MilestoneBlock { index, block_id: *id },
                &Settled::BelowMaxDepth,
            );
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
        if let Some(applied) = &c.receipt {
            diff.spent_treasury = Some(applied.spent_treasury);
            receipts::put(&mut batch, index, applied);
        }
        batch.put(DIFFS, &columns::index_key(index), &diff.to_bytes());
        let record = MilestoneRecord {
            index,
            milestone_id,
            block_id,
            timestamp: payload.timestamp,
            payload: encode_milestone_payload(payload),
        };
        batch.put(MILESTONES, &columns::index_key(index), &record.to_bytes());
        batch.put(MILESTONE_IDS, &milestone_id, &columns::index_key(index));
        batch.put(STATE, state_key::LEDGER_INDEX, &index.to_le_bytes());
        // The milestone's own block: its walk stops at the blocks it references now.
        let roots = {
            let graph = &state.graph;
            let known = |p: &Id32| {
                if referenced.contains(p) {
                    None
                } else {
                    updates.get(p).copied().or_else(|| graph.get(p).map(|x| x.roots))
                }
            };
            cone_roots(&payload.parents, known, &mut |p| {
                if referenced.contains(p) {
                    Ok(index)
                } else {
                    referenced_index(db, entry_points, p)
                }
            })?
        };
        let own = NewBlock {
            id: block_id,
            bytes,
            parents: payload.parents.clone(),
            milestone_index: index,
            roots: Some(roots),
        };
        self.write_blocks(&mut state, batch, vec![own], index, &mut ReferencedParents::default())?;

        state.graph.remove_referenced(&c.order, updates);
        state.checkpoint = None;
        state.graph.remove_below_max_depth(&below);
        state.blocks_below_max_depth += below.len() as u64;
        let previous_timestamp = state.latest.map_or(0, |l| l.timestamp);
        state.latest = Some(Latest { index, milestone_id, block_id, timestamp: payload.timestamp });
        state.referenced_total += c.order.len() as u64;
        if let Some(start) = state.interval_start {
            state.last_interval = Some(MilestoneInterval {
                index,
                new_blocks: state.next_seq - start.next_seq,
                referenced_blocks: state.referenced_total - start.referenced_total,
                seconds: payload.timestamp.saturating_sub(previous_timestamp),
            });
        }
        state.interval_start = Some(IntervalStart {
            next_seq: state.next_seq,
            referenced_total: state.referenced_total,
        });
        self.publish_status(&state);
        self.milestone_confirmed_for_pruning(index);
        if let (Some(transactions), Some(referenced_blocks)) = (ledger_changes, referenced_events) {
            self.emit_milestone_committed(
                &state,
                block_id,
                bytes,
                payload,
                record.payload,
                referenced_blocks,
                transactions,
            );
            self.emit_tip_changes(&mut state);
        }
        Ok(IssuedMilestone {
            index,
            milestone_id,
            block_id,
            timestamp: payload.timestamp,
            referenced_blocks: c.order.len(),
            included_transactions: c.included_transactions,
            confirm_micros: 0,
            commit_micros: 0,
        })
    }
}
