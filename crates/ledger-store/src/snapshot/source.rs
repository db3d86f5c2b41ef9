//! What a snapshot is made of, read from one RocksDB snapshot of the store (snapshot.md §8):
//! every read of one export sees the database as it was at one moment, which is always a
//! milestone boundary (a milestone's ledger changes, its diff and the ledger index are one
//! batch). Milestones keep committing meanwhile; nothing here takes the store's locks.
//!
//! Outputs come as stored bytes and are written as they are. A diff's outputs are found in
//! `outputs`, which keeps spent outputs (until pruning removes those of the milestone that
//! spent them), and the spender of each consumed output in `spents`.

use super::limits::Limits;
use super::ExportContext;
use crate::columns::{self, state_key, DIFFS, MILESTONES, OUTPUTS, SPENTS, STATE, UNSPENT};
use crate::db::{Db, Snapshot};
use crate::genesis::protocol_from_json;
use crate::records::{u32_at, Diff, MilestoneRecord, OutputRecord, SpentRecord};
use crate::storage_error;
use ledger_core::model::{Id32, OutputId};
use ledger_core::protocol::ProtocolParameters;
use ledger_core::snapshot::{
    write_raw_milestone_diff, RawMilestoneDiff, RawOutputRecord, TreasuryOutput,
};
use ledger_core::{Code, Error, Result};

/// Unspent outputs are looked up in batches of this many ids.
const OUTPUT_BATCH: usize = 1024;

pub struct Source<'a> {
    snap: Snapshot<'a>,
}

/// One milestone's diff with everything the file needs, read from the store.
pub struct StoredDiff {
    /// The milestone payload as stored (type code first).
    pub milestone: Vec<u8>,
    pub spent_treasury: Option<TreasuryOutput>,
    pub created: Vec<(OutputId, OutputRecord)>,
    /// Each consumed output and the transaction that spent it.
    pub consumed: Vec<(OutputId, OutputRecord, Id32)>,
}

impl StoredDiff {
    /// The diff record (Hornet's `MilestoneDiff.MarshalBinary`) appended to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        fn raw<'a>((id, r): (&'a OutputId, &'a OutputRecord)) -> RawOutputRecord<'a> {
            RawOutputRecord {
                output_id: id,
                block_id: &r.block_id,
                milestone_index_booked: r.milestone_index,
                milestone_timestamp_booked: r.milestone_timestamp,
                output: &r.output,
            }
        }
        write_raw_milestone_diff(
            out,
            &RawMilestoneDiff {
                milestone: &self.milestone,
                spent_treasury: self.spent_treasury,
                created: self.created.iter().map(|(id, r)| raw((id, r))).collect(),
                consumed: self
                    .consumed
                    .iter()
                    .map(|(id, r, spender)| (raw((id, r)), *spender))
                    .collect(),
            },
        );
    }
}

impl<'a> Source<'a> {
    /// The database as of now.
    pub fn of(db: &'a Db) -> Source<'a> {
        Source { snap: db.snapshot() }
    }

    pub fn ledger_index(&self) -> Result<u32> {
        match self.snap.get(STATE, state_key::LEDGER_INDEX)? {
            Some(v) if v.len() == 4 => Ok(u32_at(&v, 0)),
            Some(v) => {
                Err(storage_error(format!("the ledger index is a value of {} bytes", v.len())))
            }
            None => Ok(0),
        }
    }

    pub fn protocol(&self) -> Result<ProtocolParameters> {
        let text = self
            .snap
            .get(STATE, state_key::PROTOCOL)?
            .ok_or_else(|| storage_error("the ledger has no protocol parameters"))?;
        protocol_from_json(&String::from_utf8_lossy(&text))
    }

    /// The unspent treasury output (the zero one when none was ever recorded).
    pub fn treasury(&self) -> Result<TreasuryOutput> {
        match self.snap.get(STATE, state_key::TREASURY)? {
            None => Ok(TreasuryOutput::default()),
            Some(b) if b.len() == 40 => Ok(TreasuryOutput {
                milestone_id: b[..32].try_into().expect("32 bytes"),
                amount: u64::from_le_bytes(b[32..].try_into().expect("8 bytes")),
            }),
            Some(b) => Err(storage_error(format!("treasury record of {} bytes", b.len()))),
        }
    }

    pub fn milestone(&self, index: u32) -> Result<Option<MilestoneRecord>> {
        self.snap
            .get(MILESTONES, &columns::index_key(index))?
            .map(|b| MilestoneRecord::from_bytes(&b))
            .transpose()
    }

    /// The ledger index and the target milestone of a snapshot about to be written from
    /// this source, once `target` is within Hornet's limits for `context`; `increasing`:
    /// the target must be newer than the last snapshot (a delta's always is).
    pub fn checked_target(
        &self,
        context: &ExportContext,
        target: u32,
        increasing: bool,
    ) -> Result<(u32, MilestoneRecord)> {
        let ledger_index = self.ledger_index()?;
        Limits {
            confirmed_index: ledger_index,
            pruning_index: context.pruning_index,
            snapshot_index: context.snapshot_index,
            threshold_past: context.threshold(),
            threshold_future: context.threshold(),
            increasing,
        }
        .check(target)?;
        let milestone = self.milestone(target)?.ok_or_else(|| {
            Error::new(
                Code::SnapshotHistoryMissing,
                "index",
                format!("target milestone ({target}) not found"),
            )
        })?;
        Ok((ledger_index, milestone))
    }

    /// Every unspent output in output id order (the order of Hornet's unspent prefix),
    /// handed to `each` with its record; how many there were.
    pub fn for_each_unspent(
        &self,
        mut each: impl FnMut(&OutputId, &OutputRecord) -> Result<()>,
    ) -> Result<u64> {
        let mut iter = self.snap.iter(UNSPENT, vec![0xff; 35]);
        iter.seek_to_first();
        let mut ids: Vec<OutputId> = Vec::with_capacity(OUTPUT_BATCH);
        let mut count = 0u64;
        let mut flush = |ids: &mut Vec<OutputId>| -> Result<()> {
            let keys: Vec<Vec<u8>> = ids.iter().map(|id| id.to_vec()).collect();
            for (id, record) in ids.iter().zip(self.snap.multi_get(OUTPUTS, &keys, true)?) {
                let record = record.ok_or_else(|| {
                    storage_error(format!("unspent output 0x{} has no record", hex::encode(id)))
                })?;
                each(id, &OutputRecord::from_bytes(&record)?)?;
            }
            count += ids.len() as u64;
            ids.clear();
            Ok(())
        };
        while iter.valid() {
            let key = iter.key().unwrap_or_default();
            let id: OutputId = key
                .try_into()
                .map_err(|_| storage_error(format!("unspent key of {} bytes", key.len())))?;
            ids.push(id);
            if ids.len() == OUTPUT_BATCH {
                flush(&mut ids)?;
            }
            iter.next();
        }
        iter.status().map_err(storage_error)?;
        flush(&mut ids)?;
        Ok(count)
    }

    /// Milestone `index`'s diff with its milestone and outputs; None when its diff or its
    /// milestone is not stored (below the pruning index, or before the first milestone).
    pub fn diff(&self, index: u32) -> Result<Option<StoredDiff>> {
        let Some(diff) = self.snap.get(DIFFS, &columns::index_key(index))? else {
            return Ok(None);
        };
        let Some(milestone) = self.milestone(index)? else { return Ok(None) };
        let diff = Diff::from_bytes(&diff)?;
        let output = |id: &OutputId| -> Result<OutputRecord> {
            let bytes = self.snap.get(OUTPUTS, id)?.ok_or_else(|| {
                storage_error(format!(
                    "output 0x{} of milestone {index}'s diff has no record",
                    hex::encode(id)
                ))
            })?;
            OutputRecord::from_bytes(&bytes)
        };
        let mut created = Vec::with_capacity(diff.created.len());
        for id in &diff.created {
            created.push((*id, output(id)?));
        }
        let mut consumed = Vec::with_capacity(diff.consumed.len());
        for id in &diff.consumed {
            let spent = self.snap.get(SPENTS, id)?.ok_or_else(|| {
                storage_error(format!(
                    "output 0x{} consumed by milestone {index} has no spent record",
                    hex::encode(id)
                ))
            })?;
            let spent = SpentRecord::from_bytes(&spent)?;
            consumed.push((*id, output(id)?, spent.transaction_id));
        }
        Ok(Some(StoredDiff {
            milestone: milestone.payload,
            spent_treasury: diff.spent_treasury,
            created,
            consumed,
        }))
    }
}
