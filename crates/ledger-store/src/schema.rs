//! The storage schema version (style §5): written when a data directory is created and
//! checked whenever it is opened, so that a layout this build cannot read is refused with
//! a clear message instead of being misread.
//!
//! Versions:
//! * 0 — no version key (data directories of earlier builds): block metadata records of
//!   30 bytes. Readable as version 1, which only appends a flags byte.
//! * 1 — block metadata records of 31 bytes (flag: below max depth).
//! * 2 — the UTXO indexer's column families (`index/`). A directory of version 0 or 1 has
//!   none: RocksDB creates them empty when it opens, and with no index marker the index is
//!   built from the ledger (`index::bring_up_to_date`).
//! * 3 — the `solid_entry_points` family and the `origin` and `treasury` state keys
//!   (genesis styles and snapshots, D41/D44). A directory of an older version began with
//!   the built-in `ledger` genesis: the store records that origin and its two entry points
//!   on the first open (`store::persisted_origin`).
//! * 4 — the `milestone_blocks` family (every settled block under the milestone that
//!   referenced it or found it below max depth) and the `history_indexes` state key (Hornet's
//!   `SnapshotInfo`). A directory of an older version gets the family from its block
//!   metadata on the first open (`milestone_blocks::rebuild`) and the key from its origin
//!   (`history::HistoryIndexes::load`).
//! * 5 — the `receipts` family (milestones with a receipt; `receipts.rs`), a diff record may
//!   end with the treasury output its receipt spent, and the `treasury` state key is always
//!   written (also for the zero treasury). A directory of an older version has no receipts
//!   (none could be applied) and a missing treasury key there is the zero treasury: nothing
//!   to convert.
//!
//! Older versions are upgraded on the first open (the key is written); newer are refused.

use crate::columns::{state_key, STATE};
use crate::db::{Batch, Db};
use crate::records::u32_at;
use crate::storage_error;
use ledger_core::{Code, Error, Result};

/// The version this build writes and reads.
pub const VERSION: u32 = 5;

/// Add the version to the batch that creates a data directory.
pub fn write(batch: &mut Batch<'_>) {
    batch.put(STATE, state_key::SCHEMA_VERSION, &VERSION.to_le_bytes());
}

/// Check the version of an existing data directory; one of an older version is upgraded
/// (its records are readable as they are; what it lacks is built at start-up).
pub fn check(db: &Db) -> Result<()> {
    let found = match db.get(STATE, state_key::SCHEMA_VERSION)? {
        None => 0,
        Some(value) if value.len() == 4 => u32_at(&value, 0),
        Some(value) => {
            return Err(storage_error(format!(
                "the storage schema version is a value of {} bytes, not 4",
                value.len()
            )))
        }
    };
    match found {
        VERSION => Ok(()),
        0..=4 => {
            if found <= 3 {
                crate::milestone_blocks::rebuild(db)?;
            }
            let mut batch = db.batch();
            write(&mut batch);
            batch.commit()
        }
        other => Err(Error::new(
            Code::StorageVersionUnsupported,
            "dataDir",
            format!(
                "the data directory has storage schema version {other}, this ledger-node reads version {VERSION}{}",
                if other > VERSION { " (it was written by a newer ledger-node: run that version, or start with a new data directory)" } else { "" }
            ),
        )),
    }
}
