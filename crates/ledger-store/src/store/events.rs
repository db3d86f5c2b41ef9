//! The store's side of the event feed (`crate::events`): building the events at the two
//! commit points, intake (`intake::store_blocks`) and a milestone's commit
//! (`milestones::commit_milestone`), and handing them over while the state lock is held,
//! so that they leave in commit order.

use super::{parents_of, State, Store};
use crate::columns::{BLOCKS, BLOCK_META};
use crate::events::{
    self, CommittedMilestone, EventListener, ReferencedBlock, SharedListener, StoreEvent,
    StoredBlock, SubscriptionId, TipUpdate,
};
use crate::ledger;
use crate::metadata;
use crate::records::{BlockMeta, OutputRecord};
use crate::storage_error;
use crate::tips::{self, TipScore};
use crate::views::BlockMetadata;
use crate::white_flag::Confirmation;
use ledger_core::model::{Id32, MilestonePayload, OutputId};
use ledger_core::Result;
use std::collections::HashMap;

/// A block of an intake batch as the feed needs it: id, bytes and payload facts.
pub(super) struct IntakeBlock<'a> {
    pub id: Id32,
    pub bytes: &'a [u8],
    pub payload_type: u32,
    pub tag: Option<Vec<u8>>,
}

impl Store {
    /// Hand every later event to `listener` (None: stop). The listener is called with the
    /// store's lock held and must only queue the event.
    pub fn set_event_listener(&self, listener: Option<EventListener>) {
        self.events.set_listener(listener);
    }

    /// Build events (true) or skip building them while nobody takes them (false).
    pub fn set_events_active(&self, active: bool) {
        self.events.set_active(active);
    }

    /// Hand every later event to `subscriber` too (besides the listener), shared, until
    /// `unsubscribe_events`; events are built while a subscriber is registered. Called
    /// with the store's lock held: it must only queue the event.
    pub fn subscribe_events(&self, subscriber: SharedListener) -> SubscriptionId {
        self.events.subscribe(subscriber)
    }

    pub fn unsubscribe_events(&self, id: SubscriptionId) {
        self.events.unsubscribe(id);
    }

    pub(super) fn events_active(&self) -> bool {
        self.events.active()
    }

    /// Whether writes record their tip changes (the subscribers and the listener take them).
    pub(super) fn tip_changes_wanted(&self) -> bool {
        self.events.has_subscribers() || self.events.listener_active()
    }

    /// The metadata object of a pending (unreferenced) block, as `block_metadata_json`
    /// answers it: solid, with its tip score.
    pub(super) fn pending_metadata_json(
        &self,
        state: &State,
        block_id: &Id32,
        parents: &[Id32],
    ) -> Option<String> {
        self.pending_metadata(state, block_id, parents).map(|(json, _)| json)
    }

    /// `pending_metadata_json` and the same as values.
    fn pending_metadata(
        &self,
        state: &State,
        block_id: &Id32,
        parents: &[Id32],
    ) -> Option<(String, BlockMetadata)> {
        let p = state.graph.get(block_id)?;
        let cmi = state.latest.map_or(0, |l| l.index);
        let meta = BlockMeta {
            arrival_ms: p.arrival_ms,
            seq: p.seq,
            milestone_index: p.milestone_index,
            ..Default::default()
        };
        let score = Some(tips::score(p.roots, cmi, &self.thresholds));
        Some((
            metadata::block_json(block_id, parents, &meta, score),
            BlockMetadata::of(block_id, parents, &meta, score),
        ))
    }

    /// After intake wrote `blocks` (lock held): their stored events, in write order.
    pub(super) fn emit_blocks_stored(&self, state: &mut State, blocks: Vec<IntakeBlock<'_>>) {
        let stored = blocks
            .into_iter()
            .filter_map(|b| {
                let (metadata_json, metadata) = match state.graph.get(&b.id) {
                    Some(pending) => self.pending_metadata(state, &b.id, &pending.parents)?,
                    // Attached on a block below max depth: stored, never pending (D24).
                    None => {
                        let parents = parents_of(b.bytes).ok()?;
                        let meta = BlockMeta { below_max_depth: true, ..Default::default() };
                        let score = Some(TipScore::BelowMaxDepth);
                        (
                            metadata::block_json(&b.id, &parents, &meta, score),
                            BlockMetadata::of(&b.id, &parents, &meta, score),
                        )
                    }
                };
                Some(StoredBlock {
                    block_id: b.id,
                    metadata_json,
                    metadata,
                    bytes: b.bytes.to_vec(),
                    payload_type: b.payload_type,
                    tag: b.tag,
                })
            })
            .collect::<Vec<_>>();
        if !stored.is_empty() {
            self.events.emit(StoreEvent::BlocksStored(stored));
        }
        self.emit_tip_changes(state);
    }

    /// After a write's own event: the tip changes the graph recorded during it, with each
    /// block's `tip-score-updates` payload when the listener takes them (its metadata now,
    /// as Hornet reads it when a tip is added or removed).
    pub(super) fn emit_tip_changes(&self, state: &mut State) {
        let mut changes = state.graph.take_tip_changes();
        if changes.is_empty() {
            return;
        }
        if self.events.listener_active() {
            changes.updates = changes
                .added
                .iter()
                .chain(&changes.removed)
                .filter_map(|id| {
                    let m = self.tip_metadata(state, id)?;
                    Some(TipUpdate { block_id: *id, metadata_json: metadata::tip_update_json(&m) })
                })
                .collect();
        }
        self.events.emit(StoreEvent::TipsChanged(changes));
    }

    /// A tip's metadata under the lock: from the pending graph, else as stored (referenced
    /// or below max depth); None when it is gone.
    fn tip_metadata(&self, state: &State, id: &Id32) -> Option<BlockMetadata> {
        if let Some(p) = state.graph.get(id) {
            let cmi = state.latest.map_or(0, |l| l.index);
            let meta = BlockMeta { milestone_index: p.milestone_index, ..Default::default() };
            let score = tips::score(p.roots, cmi, &self.thresholds);
            return Some(BlockMetadata::of(id, &p.parents, &meta, Some(score)));
        }
        let bytes = self.db.get(BLOCKS, id).ok()??;
        let parents = parents_of(&bytes).ok()?;
        let meta = BlockMeta::from_bytes(&self.db.get(BLOCK_META, id).ok()??).ok()?;
        let score = meta.below_max_depth.then_some(TipScore::BelowMaxDepth);
        Some(BlockMetadata::of(id, &parents, &meta, score))
    }

    /// Before a milestone's commit, outside the lock: its ledger changes per applied
    /// transaction. Spent outputs booked by earlier milestones are read once here.
    pub(super) fn milestone_ledger_changes(
        &self,
        c: &Confirmation,
        index: u32,
    ) -> Result<Vec<events::AppliedTransaction>> {
        let created_here: HashMap<&OutputId, &OutputRecord> =
            c.created.iter().map(|(id, r)| (id, r)).collect();
        events::applied_transactions(
            &self.protocol.bech32_hrp,
            index,
            &c.created,
            &c.consumed,
            |id| match created_here.get(id) {
                Some(record) => Ok((*record).clone()),
                None => ledger::output(&self.db, id)?.ok_or_else(|| {
                    storage_error(format!("spent output 0x{} has no record", hex::encode(id)))
                }),
            },
        )
    }

    /// After a milestone's commit (lock held, memory updated): its event.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_milestone_committed(
        &self,
        state: &State,
        block_id: Id32,
        bytes: &[u8],
        payload: &MilestonePayload,
        payload_bytes: Vec<u8>,
        referenced: Vec<ReferencedBlock>,
        transactions: Vec<events::AppliedTransaction>,
    ) {
        let Some((metadata_json, metadata)) =
            self.pending_metadata(state, &block_id, &payload.parents)
        else {
            return;
        };
        let block = StoredBlock {
            block_id,
            bytes: bytes.to_vec(),
            metadata_json,
            metadata,
            payload_type: 7,
            tag: None,
        };
        self.events.emit(StoreEvent::MilestoneCommitted(Box::new(CommittedMilestone {
            index: payload.index,
            timestamp: payload.timestamp,
            milestone_id: ledger_core::ids::milestone_id(payload),
            block,
            payload: payload_bytes,
            referenced,
            transactions,
        })));
    }
}
