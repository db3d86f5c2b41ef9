//! The history indexes (Hornet's `SnapshotInfo`, `pkg/model/storage/snapshot.go`): how far
//! back the node's history reaches and which snapshot it last wrote (ledger.md §8,
//! docs/pruning.md). Persisted under `state_key::HISTORY_INDEXES`, read at open; the
//! pruning index in `Status` and in gossip heartbeats is this record's.
//!
//! * `snapshot_index` — the target of the last snapshot this node loaded or wrote to its
//!   snapshot path;
//! * `entry_point_index` — the index the solid entry points in the database belong to. A
//!   pruning run moves it to its target *before* it deletes anything (as Hornet does), so
//!   that a run stopped halfway (a crash) is finished by the next one;
//! * `pruning_index` — nothing at or below it is served: blocks, milestones, diffs and the
//!   outputs they spent are deleted (or being deleted) up to it.
//!
//! `pruning_index ≤ entry_point_index ≤ the ledger index` always holds; when the first two
//! differ, a pruning run is unfinished.

use crate::columns::{state_key, STATE};
use crate::db::{Batch, Db};
use crate::origin::Origin;
use crate::records::u32_at;
use crate::storage_error;
use ledger_core::Result;

/// Five u32 LE values in Hornet's order.
const LEN: usize = 20;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HistoryIndexes {
    /// The network's genesis milestone index (its first milestone is this + 1).
    pub genesis_milestone_index: u32,
    pub snapshot_index: u32,
    pub entry_point_index: u32,
    pub pruning_index: u32,
    /// Unix seconds of the snapshot's target milestone (0: none).
    pub snapshot_timestamp: u32,
}

impl HistoryIndexes {
    /// A new ledger: everything at the origin's target (Hornet's `SetInitialSnapshotInfo`;
    /// 0 for the built-in genesis).
    pub fn initial(origin: &Origin) -> HistoryIndexes {
        let target = origin.target_milestone_index;
        HistoryIndexes {
            genesis_milestone_index: origin.genesis_milestone_index,
            snapshot_index: target,
            entry_point_index: target,
            pruning_index: target,
            snapshot_timestamp: origin.target_milestone_timestamp,
        }
    }

    pub fn to_bytes(self) -> [u8; LEN] {
        let mut b = [0u8; LEN];
        let values = [
            self.genesis_milestone_index,
            self.snapshot_index,
            self.entry_point_index,
            self.pruning_index,
            self.snapshot_timestamp,
        ];
        for (i, v) in values.iter().enumerate() {
            b[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<HistoryIndexes> {
        if b.len() != LEN {
            return Err(storage_error(format!("history indexes record of {} bytes", b.len())));
        }
        let h = HistoryIndexes {
            genesis_milestone_index: u32_at(b, 0),
            snapshot_index: u32_at(b, 4),
            entry_point_index: u32_at(b, 8),
            pruning_index: u32_at(b, 12),
            snapshot_timestamp: u32_at(b, 16),
        };
        if h.pruning_index > h.entry_point_index {
            return Err(storage_error(format!(
                "history indexes: pruning index {} above the entry point index {}",
                h.pruning_index, h.entry_point_index
            )));
        }
        Ok(h)
    }

    /// A pruning run stopped before its end (its entry points are in, its deletions not all).
    pub fn pruning_unfinished(&self) -> bool {
        self.entry_point_index > self.pruning_index
    }

    pub fn put(&self, batch: &mut Batch<'_>) {
        batch.put(STATE, state_key::HISTORY_INDEXES, &self.to_bytes());
    }

    /// The persisted record. A data directory of an older build has none: its history
    /// reaches back to where the ledger began, which is recorded now, once.
    pub fn load(db: &Db, origin: &Origin) -> Result<HistoryIndexes> {
        if let Some(bytes) = db.get(STATE, state_key::HISTORY_INDEXES)? {
            return HistoryIndexes::from_bytes(&bytes);
        }
        let initial = HistoryIndexes::initial(origin);
        let mut batch = db.batch();
        initial.put(&mut batch);
        batch.commit()?;
        Ok(initial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::origin::GenesisStyle;

    #[test]
    fn the_record_round_trips_in_hornets_layout() {
        let h = HistoryIndexes {
            genesis_milestone_index: 1,
            snapshot_index: 2,
            entry_point_index: 4,
            pruning_index: 3,
            snapshot_timestamp: 5,
        };
        let bytes = h.to_bytes();
        assert_eq!(hex::encode(bytes), "0100000002000000040000000300000005000000");
        assert_eq!(HistoryIndexes::from_bytes(&bytes).unwrap(), h);
        assert!(h.pruning_unfinished());
        assert!(HistoryIndexes::from_bytes(&bytes[..19]).is_err());
        let backwards = HistoryIndexes { pruning_index: 9, ..h };
        assert_eq!(
            HistoryIndexes::from_bytes(&backwards.to_bytes()).unwrap_err().code,
            ledger_core::Code::StorageFailure
        );
    }

    #[test]
    fn an_older_directory_gets_the_origins_indexes_once() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open_for_test(dir.path());
        let origin = Origin {
            style: GenesisStyle::Hornet,
            from_snapshot: true,
            genesis_milestone_index: 3,
            target_milestone_index: 70,
            target_milestone_timestamp: 1_700_000_000,
            target_milestone_id: [7; 32],
        };
        let h = HistoryIndexes::load(&db, &origin).unwrap();
        assert_eq!(
            h,
            HistoryIndexes {
                genesis_milestone_index: 3,
                snapshot_index: 70,
                entry_point_index: 70,
                pruning_index: 70,
                snapshot_timestamp: 1_700_000_000,
            }
        );
        assert!(db.get(STATE, state_key::HISTORY_INDEXES).unwrap().is_some());
        // Persisted: another origin no longer changes it.
        assert_eq!(HistoryIndexes::load(&db, &Origin::built_in(GenesisStyle::Ledger)).unwrap(), h);
    }
}
