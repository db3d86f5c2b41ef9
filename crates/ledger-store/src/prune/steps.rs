//! The batches of a pruning run, each written under the store's lock and each leaving a
//! database that opens and answers consistently (prune/mod.rs). Reads happen before the
//! lock is taken: what a step deletes is settled history that nothing else changes.

use super::{aborted, PruneReport, ENTRY_POINT_LOOK_BACK, MAX_STEP_DELETES};
use crate::columns::{
    self, BLOCKS, BLOCK_META, CHILDREN, DIFFS, MILESTONES, MILESTONE_BLOCKS, MILESTONE_IDS,
    OUTPUTS, SOLID_ENTRY_POINTS, SPENTS, TX_BLOCKS,
};
use crate::entry_points::SolidEntryPoints;
use crate::milestone_blocks;
use crate::records::{Diff, MilestoneRecord};
use crate::storage_error;
use crate::store::{parents_of, Store};
use ledger_core::ids;
use ledger_core::model::Id32;
use ledger_core::Result;

/// The transaction payload's type code.
const TRANSACTION_PAYLOAD: u32 = 6;

impl Store {
    /// Step 2 of a run: the entry points of `target` join the stored ones (the old ones
    /// stay until the run's last step), and the entry point index moves to `target`, in
    /// one batch; then memory takes the union. Returns the microseconds the lock was held.
    pub(super) fn install_entry_points(&self, new: &[(Id32, u32)], target: u32) -> Result<u64> {
        let mut batch = self.db().batch();
        for (id, index) in new {
            batch.put(SOLID_ENTRY_POINTS, id, &index.to_le_bytes());
        }
        let union = {
            let current = self.entry_points();
            SolidEntryPoints::new(current.iter().chain(new.iter().copied()))
        };
        self.commit_history_step(
            batch,
            0,
            |history| history.entry_point_index = target,
            Some(union),
        )
    }

    /// Step 4 of a run: the stored entry points older than `target` − 15 go. The run's
    /// target set has indexes in `target` − 15 ..= `target`, and every older entry point
    /// belongs to an earlier run or the origin: their indexes are at most that run's
    /// target, which was at least 16 below this one (a run needs its target's 16 milestones
    /// above the pruning index). So what remains is exactly the target's set, also when a
    /// crash between the steps left only the index to go by.
    pub(super) fn replace_entry_points(&self, target: u32) -> Result<u64> {
        let oldest = target.saturating_sub(ENTRY_POINT_LOOK_BACK);
        let current = self.entry_points();
        type EntryPoints = Vec<(Id32, u32)>;
        let (kept, dropped): (EntryPoints, EntryPoints) =
            current.iter().partition(|(_, index)| *index >= oldest);
        if kept.is_empty() {
            return Err(storage_error(format!(
                "pruning to {target} would leave no solid entry point"
            )));
        }
        let mut batch = self.db().batch();
        for (id, _) in &dropped {
            batch.delete(SOLID_ENTRY_POINTS, id);
        }
        self.commit_history_step(batch, 0, |_| {}, Some(SolidEntryPoints::new(kept)))
    }

    /// Step 3 of a run for milestone `m`: its blocks, then the outputs it spent, then its
    /// diff, its milestone and its `milestone_blocks` range, in batches of at most
    /// `MAX_STEP_DELETES` deletions. The first batch moves the pruning index to `m`. Done
    /// again after a stop, it finds only what is left (every deletion is idempotent).
    pub(super) fn prune_milestone(
        &self,
        m: u32,
        abort: &dyn Fn() -> bool,
        report: &mut PruneReport,
    ) -> Result<()> {
        let prefix = milestone_blocks::prefix(m);
        let mut from = prefix.to_vec();
        loop {
            let mut chunk: Vec<Id32> = Vec::new();
            let mut next = None;
            self.db().scan_from(MILESTONE_BLOCKS, &from, &prefix, |key, _| {
                if chunk.len() * 8 >= MAX_STEP_DELETES {
                    next = Some(key.to_vec());
                    return Ok(false);
                }
                let id: Id32 = key[4..].try_into().map_err(|_| {
                    storage_error(format!("milestone block key of {} bytes", key.len()))
                })?;
                chunk.push(id);
                Ok(true)
            })?;
            if chunk.is_empty() {
                break;
            }
            let mut batch = self.db().batch();
            let mut deleted = 0u64;
            for id in &chunk {
                // A block a stopped run deleted already has no bytes left: nothing to do.
                let Some(bytes) = self.db().get(BLOCKS, id)? else { continue };
                let parents = parents_of(&bytes)?;
                for p in &parents {
                    batch.delete(CHILDREN, &columns::pair_key(p, id));
                }
                if let Some(tx) = transaction_id(&bytes, parents.len()) {
                    batch.delete(TX_BLOCKS, &columns::pair_key(&tx, id));
                }
                batch.delete(BLOCKS, id);
                batch.delete(BLOCK_META, id);
                deleted += 1;
            }
            let micros = self.commit_history_step(batch, deleted, |h| h.pruning_index = m, None)?;
            report.note_step(micros);
            report.blocks += deleted;
            if abort() {
                return Err(aborted());
            }
            match next {
                Some(key) => from = key,
                None => break,
            }
        }
        let diff = match self.db().get(DIFFS, &columns::index_key(m))? {
            Some(bytes) => Diff::from_bytes(&bytes)?,
            None => Diff::default(),
        };
        for chunk in diff.consumed.chunks(MAX_STEP_DELETES / 2) {
            let mut batch = self.db().batch();
            for id in chunk {
                batch.delete(OUTPUTS, id);
                batch.delete(SPENTS, id);
            }
            let micros = self.commit_history_step(batch, 0, |h| h.pruning_index = m, None)?;
            report.note_step(micros);
            report.outputs += chunk.len() as u64;
            if abort() {
                return Err(aborted());
            }
        }
        let mut batch = self.db().batch();
        batch.delete(DIFFS, &columns::index_key(m));
        if let Some(bytes) = self.db().get(MILESTONES, &columns::index_key(m))? {
            let record = MilestoneRecord::from_bytes(&bytes)?;
            batch.delete(MILESTONE_IDS, &record.milestone_id);
            batch.delete(MILESTONES, &columns::index_key(m));
        }
        batch.delete_range(MILESTONE_BLOCKS, &prefix, &milestone_blocks::prefix(m + 1));
        let micros = self.commit_history_step(batch, 0, |h| h.pruning_index = m, None)?;
        report.note_step(micros);
        if abort() {
            return Err(aborted());
        }
        Ok(())
    }
}

impl PruneReport {
    fn note_step(&mut self, micros: u64) {
        self.steps += 1;
        self.longest_step_micros = self.longest_step_micros.max(micros);
    }
}

/// The id of the transaction a stored block carries, read from its header (version,
/// parents, payload length, payload type) without decoding it.
fn transaction_id(bytes: &[u8], parents: usize) -> Option<Id32> {
    let at = 2 + 32 * parents;
    let length = u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?);
    let kind = u32::from_le_bytes(bytes.get(at + 4..at + 8)?.try_into().ok()?);
    (length >= 4 && kind == TRANSACTION_PAYLOAD && bytes.len() >= at + 4 + 8)
        .then(|| ids::transaction_id_in_block(bytes, parents))
}
