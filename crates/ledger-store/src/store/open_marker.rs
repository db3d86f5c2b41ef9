//! Whether the last run closed the data directory, and the check when it did not (Hornet
//! checks its ledger state at start; issue 23, "integrity"). RocksDB's write-ahead log keeps
//! every committed batch through a crash, and every change of the node is one batch, so a
//! crash loses no committed state; the check is there for what a crash cannot explain (a
//! disk that lied, a file damaged by hand), so that a damaged ledger stops the node with one
//! line instead of giving wrong answers.
//!
//! The marker is a key of the state family, written when a store opens and deleted when it
//! is dropped: found at open, the previous run ended without closing.

use super::Store;
use crate::columns::{state_key, STATE};
use crate::db::Db;
use crate::integrity;
use ledger_core::{Code, Error, Result};
use std::time::Instant;

/// The check after a run that did not close, and what it looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartCheck {
    pub unspent_outputs: u64,
    pub milestones: u64,
    pub micros: u64,
}

/// At open: when the marker is there, check the ledger (refusing a damaged one); then set
/// the marker for this run.
pub(super) fn check_and_mark(db: &Db) -> Result<Option<StartCheck>> {
    let check = match db.get(STATE, state_key::OPEN)? {
        None => None,
        Some(_) => Some(check_ledger(db)?),
    };
    let mut batch = db.batch();
    batch.put(STATE, state_key::OPEN, &[1]);
    batch.commit()?;
    Ok(check)
}

fn check_ledger(db: &Db) -> Result<StartCheck> {
    let started = Instant::now();
    let report = integrity::check_ledger(db)?;
    if let Some(first) = report.problems.first() {
        let more = match report.problems.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        return Err(Error::new(
            Code::DatabaseDamaged,
            "",
            format!(
                "the last run did not shut down cleanly and the ledger is damaged: {first}{more}; `ledger-node tool db-health` lists every problem; start from a snapshot in a new data directory"
            ),
        ));
    }
    Ok(StartCheck {
        unspent_outputs: report.unspent_outputs,
        milestones: report.milestones,
        micros: started.elapsed().as_micros() as u64,
    })
}

impl Store {
    /// The check this open made because the last run did not close the directory; None
    /// after a clean close (or for a new directory).
    pub fn start_check(&self) -> Option<StartCheck> {
        self.start_check
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        // A store that cannot write any more (a full disk) leaves the marker: the next
        // start checks the ledger, which is what it should do then.
        let mut batch = self.db.batch();
        batch.delete(STATE, state_key::OPEN);
        let _ = batch.commit();
        // What is still only in memtables goes to table files, so that a closed directory
        // holds no write-ahead log: it takes less disk (the log keeps every overwritten
        // version; a node that synced a history had most of its bytes there) and the next
        // start replays nothing.
        let _ = self.db.flush_all();
    }
}
