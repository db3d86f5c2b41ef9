//! The solid entry points (ledger.md §3, snapshot.md §4): virtual blocks at the bottom of
//! the graph — solid, never stored, where every walk stops. Each belongs to a milestone
//! index (the snapshot's target; 0 at genesis; for those a pruning run installs, the
//! milestone that confirmed the block), which is the cone root index of a block that
//! approves it. Persisted in the `solid_entry_points` family when the ledger is created;
//! replaced by each pruning run (`prune/steps.rs`); kept in memory (a few, or a few
//! thousand ids).

use crate::columns::SOLID_ENTRY_POINTS;
use crate::db::{Batch, Db};
use crate::storage_error;
use ledger_core::model::Id32;
use ledger_core::Result;
use std::collections::HashMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolidEntryPoints {
    index_of: HashMap<Id32, u32>,
    /// The same ids, ascending.
    sorted: Vec<Id32>,
}

impl SolidEntryPoints {
    pub fn new(points: impl IntoIterator<Item = (Id32, u32)>) -> Self {
        let index_of: HashMap<Id32, u32> = points.into_iter().collect();
        let mut sorted: Vec<Id32> = index_of.keys().copied().collect();
        sorted.sort();
        SolidEntryPoints { index_of, sorted }
    }

    pub fn load(db: &Db) -> Result<Self> {
        let mut points = Vec::new();
        db.scan(SOLID_ENTRY_POINTS, &[], |key, value| {
            let id: Id32 = key.try_into().map_err(|_| {
                storage_error(format!("solid entry point key of {} bytes", key.len()))
            })?;
            let index = <[u8; 4]>::try_from(value).map_err(|_| {
                storage_error(format!(
                    "solid entry point 0x{} has a value of {} bytes",
                    hex::encode(id),
                    value.len()
                ))
            })?;
            points.push((id, u32::from_le_bytes(index)));
            Ok(true)
        })?;
        Ok(SolidEntryPoints::new(points))
    }

    /// Add every entry point to a batch that creates the ledger.
    pub fn put_all(&self, batch: &mut Batch<'_>) {
        for (id, index) in &self.index_of {
            batch.put(SOLID_ENTRY_POINTS, id, &index.to_le_bytes());
        }
    }

    pub fn contains(&self, id: &Id32) -> bool {
        self.index_of.contains_key(id)
    }

    /// The milestone index the entry point belongs to.
    pub fn index_of(&self, id: &Id32) -> Option<u32> {
        self.index_of.get(id).copied()
    }

    /// Every entry point with its index, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Id32, u32)> + '_ {
        self.index_of.iter().map(|(id, index)| (*id, *index))
    }

    /// All entry points, ascending byte-wise.
    pub fn sorted(&self) -> &[Id32] {
        &self.sorted
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_points_persist_with_their_index() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open_for_test(dir.path());
        let points = SolidEntryPoints::new([([9; 32], 70), ([1; 32], 70)]);
        let mut batch = db.batch();
        points.put_all(&mut batch);
        batch.commit().unwrap();
        let loaded = SolidEntryPoints::load(&db).unwrap();
        assert_eq!(loaded, points);
        assert_eq!(loaded.sorted(), &[[1; 32], [9; 32]]);
        assert_eq!(loaded.index_of(&[9; 32]), Some(70));
        assert!(!loaded.contains(&[0; 32]));
    }
}
