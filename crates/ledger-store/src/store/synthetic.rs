//! Ledgers written without blocks or transactions, for benchmarks and property tests
//! (feature `synthetic-ledger`; the node never enables it). Outputs are booked and spent
//! with the same records as a milestone commit and indexed by the same batch code
//! (`index::write_changes`), so large or arbitrary ledgers take seconds to generate.
//! The ledger index does not move; the caller keeps amounts balanced (`Store::open`
//! checks the supply).

use super::{lock, Store};
use crate::columns::{OUTPUTS, SPENTS, UNSPENT};
use crate::index;
use crate::records::{OutputRecord, SpentRecord};
use ledger_core::codec::encode_output;
use ledger_core::model::{Output, OutputId};
use ledger_core::{Code, Error, Result};
use std::collections::HashSet;

/// One synthetic booking: outputs created at `timestamp` (their created time for the
/// indexer) and unspent outputs consumed.
pub struct SyntheticChanges {
    pub timestamp: u32,
    pub created: Vec<(OutputId, Output)>,
    pub consumed: Vec<OutputId>,
}

impl Store {
    pub fn book_synthetic(&self, changes: SyntheticChanges) -> Result<()> {
        let _issuing = lock(&self.issuing);
        let state = lock(&self.state);
        let index = state.latest.map_or(0, |l| l.index);
        let created: Vec<(OutputId, OutputRecord)> = changes
            .created
            .iter()
            .map(|(id, output)| {
                (
                    *id,
                    OutputRecord {
                        block_id: [0; 32],
                        milestone_index: index,
                        milestone_timestamp: changes.timestamp,
                        output: encode_output(output),
                    },
                )
            })
            .collect();
        let new: HashSet<&OutputId> = created.iter().map(|(id, _)| id).collect();
        for id in &changes.consumed {
            if !new.contains(id) && !self.db.exists(UNSPENT, id)? {
                return Err(Error::new(
                    Code::SyntheticLedger,
                    "consumed",
                    format!("0x{} is not unspent", hex::encode(id)),
                ));
            }
        }
        let consumed: Vec<(OutputId, SpentRecord)> = changes
            .consumed
            .iter()
            .map(|id| {
                (
                    *id,
                    SpentRecord {
                        transaction_id: [0xee; 32],
                        milestone_index: index,
                        milestone_timestamp: changes.timestamp,
                    },
                )
            })
            .collect();
        let mut batch = self.db.batch();
        if self.indexer_enabled {
            index::write_changes(&self.db, &mut batch, &created, &consumed, index)?;
        }
        for (id, record) in &created {
            batch.put(OUTPUTS, id, &record.to_bytes());
            batch.put(UNSPENT, id, &[]);
        }
        for (id, spent) in &consumed {
            batch.put(SPENTS, id, &spent.to_bytes());
            batch.delete(UNSPENT, id);
        }
        batch.commit()
    }
}
