//! Reads that answer with the structured views of `crate::views` (for the INX server): block
//! metadata, an output's state, one milestone's ledger changes, the unspent outputs from one
//! snapshot, a milestone's cone in white-flag order, the treasury.

use super::{lock, parents_of, Store};
use crate::columns::{state_key, BLOCKS, BLOCK_META, DIFFS, MILESTONES, OUTPUTS, STATE, UNSPENT};
use crate::ledger;
use crate::records::{u32_at, BlockMeta, Diff, MilestoneRecord, OutputRecord, SpentRecord};
use crate::storage_error;
use crate::tips::TipScore;
use crate::views::{BlockMetadata, LedgerDiff, LedgerOutput, LedgerSpent, OutputState};
use ledger_core::codec::decode_milestone_payload;
use ledger_core::model::{Id32, OutputId};
use ledger_core::snapshot::TreasuryOutput;
use ledger_core::Result;
use std::collections::HashSet;

impl Store {
    /// The metadata of a stored block (what `block_metadata_json` answers, as values);
    /// None for unknown ids and the entry points.
    pub fn block_metadata(&self, block_id: &Id32) -> Result<Option<BlockMetadata>> {
        let Some(bytes) = self.db.get(BLOCKS, block_id)? else { return Ok(None) };
        let parents = parents_of(&bytes)?;
        let state = lock(&self.state);
        if let Some(p) = state.graph.get(block_id) {
            let cmi = state.latest.map_or(0, |l| l.index);
            let meta = BlockMeta { milestone_index: p.milestone_index, ..Default::default() };
            let score = crate::tips::score(p.roots, cmi, &self.thresholds);
            return Ok(Some(BlockMetadata::of(block_id, &parents, &meta, Some(score))));
        }
        drop(state);
        let Some(meta) = self.db.get(BLOCK_META, block_id)? else { return Ok(None) };
        let meta = BlockMeta::from_bytes(&meta)?;
        let score = meta.below_max_depth.then_some(TipScore::BelowMaxDepth);
        Ok(Some(BlockMetadata::of(block_id, &parents, &meta, score)))
    }

    /// An output booked by a milestone, unspent or spent, with the ledger index it is read
    /// at (one milestone: under the lock). None while no milestone has booked it.
    pub fn output_state(&self, output_id: &OutputId) -> Result<Option<(u32, OutputState)>> {
        let state = lock(&self.state);
        let Some(record) = ledger::output(&self.db, output_id)? else { return Ok(None) };
        let spent = ledger::spent(&self.db, output_id)?;
        let ledger_index = state.latest.map_or(0, |l| l.index);
        drop(state);
        let output = LedgerOutput::of(output_id, record);
        let found = match spent {
            None => OutputState::Unspent(output),
            Some(s) => OutputState::Spent(LedgerSpent::of(output, &s)),
        };
        Ok(Some((ledger_index, found)))
    }

    /// The ledger changes milestone `index` applied (its UTXO diff with every output's
    /// record), in white-flag order; None when no diff is stored for it (not applied yet,
    /// or before the ledger's first milestone).
    pub fn ledger_diff(&self, index: u32) -> Result<Option<LedgerDiff>> {
        let snapshot = self.db.snapshot();
        let Some(bytes) = snapshot.get(DIFFS, &crate::columns::index_key(index))? else {
            return Ok(None);
        };
        let diff = Diff::from_bytes(&bytes)?;
        let output = |id: &OutputId| -> Result<LedgerOutput> {
            let record = snapshot.get(OUTPUTS, id)?.ok_or_else(|| {
                storage_error(format!("output 0x{} has no record", hex::encode(id)))
            })?;
            Ok(LedgerOutput::of(id, OutputRecord::from_bytes(&record)?))
        };
        let created = diff.created.iter().map(output).collect::<Result<Vec<_>>>()?;
        let consumed = diff
            .consumed
            .iter()
            .map(|id| {
                let spent = snapshot.get(crate::columns::SPENTS, id)?.ok_or_else(|| {
                    storage_error(format!("spent output 0x{} has no spent record", hex::encode(id)))
                })?;
                Ok(LedgerSpent::of(output(id)?, &SpentRecord::from_bytes(&spent)?))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Some(LedgerDiff { index, consumed, created }))
    }

    /// Every unspent output in output-id order, from one snapshot of the database, with the
    /// ledger index of that snapshot: milestones go on being applied meanwhile, and none
    /// of them shows in the walk. `each` returns false to stop.
    pub fn for_each_unspent_output(
        &self,
        mut each: impl FnMut(u32, LedgerOutput) -> bool,
    ) -> Result<()> {
        let snapshot = self.db.snapshot();
        let ledger_index = match snapshot.get(STATE, state_key::LEDGER_INDEX)? {
            Some(b) if b.len() == 4 => u32_at(&b, 0),
            Some(b) => return Err(storage_error(format!("ledger index of {} bytes", b.len()))),
            None => 0,
        };
        let mut iter = snapshot.iter(UNSPENT, vec![0xff; 35]);
        iter.seek_to_first();
        while iter.valid() {
            let id: OutputId = match iter.key() {
                Some(key) if key.len() == 34 => key.try_into().expect("34 bytes"),
                _ => return Err(storage_error("unspent key of the wrong size")),
            };
            let record = snapshot.get(OUTPUTS, &id)?.ok_or_else(|| {
                storage_error(format!("unspent output 0x{} has no record", hex::encode(id)))
            })?;
            if !each(ledger_index, LedgerOutput::of(&id, OutputRecord::from_bytes(&record)?)) {
                return Ok(());
            }
            iter.next();
        }
        iter.status().map_err(storage_error)
    }

    /// The blocks milestone `index` referenced, in white-flag order, with their metadata:
    /// a walk of its past cone from its parents that stops at blocks referenced by earlier
    /// milestones and at the solid entry points. None for a milestone that is not stored.
    pub fn milestone_cone(&self, index: u32) -> Result<Option<Vec<BlockMetadata>>> {
        let Some(record) = self.db.get(MILESTONES, &crate::columns::index_key(index))? else {
            return Ok(None);
        };
        let record = MilestoneRecord::from_bytes(&record)?;
        let payload = decode_milestone_payload(&record.payload)?;
        let mut seen: HashSet<Id32> = HashSet::new();
        let mut stack: Vec<Id32> = payload.parents.clone();
        let mut cone = Vec::new();
        let entry_points = self.entry_points();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) || entry_points.contains(&id) {
                continue;
            }
            let bytes = self.db.get(BLOCKS, &id)?.ok_or_else(|| {
                storage_error(format!(
                    "block 0x{} of milestone {index}'s cone is missing",
                    hex::encode(id)
                ))
            })?;
            let Some(meta) = self.db.get(BLOCK_META, &id)? else {
                return Err(storage_error(format!("block 0x{} has no metadata", hex::encode(id))));
            };
            let meta = BlockMeta::from_bytes(&meta)?;
            if meta.referenced_by != index {
                continue;
            }
            let parents = parents_of(&bytes)?;
            stack.extend(parents.iter().copied());
            cone.push(BlockMetadata::of(&id, &parents, &meta, None));
        }
        cone.sort_by_key(|m| m.white_flag_index);
        Ok(Some(cone))
    }

    /// The unspent treasury output and the ledger index it is read at (amount 0 and a zero
    /// milestone id when the ledger never had one, as on the dev network).
    pub fn treasury(&self) -> Result<(u32, TreasuryOutput)> {
        let state = lock(&self.state);
        let treasury = ledger::treasury(&self.db)?;
        Ok((state.latest.map_or(0, |l| l.index), treasury))
    }
}
