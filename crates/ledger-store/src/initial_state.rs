//! The first state of a ledger (ledger.md §3, snapshot.md §4), built from the built-in
//! genesis (`genesis`) or from a Hornet snapshot (`snapshot::load`) and written in one
//! batch when the data directory is created: the protocol parameters, the outputs, the
//! solid entry points, the treasury (and the receipts a delta snapshot applied), where the
//! ledger began, the ledger index and the history indexes (the snapshot's target, 0 at
//! genesis), and the UTXO indexer's entries of the outputs. Milestones are not written: a
//! snapshot's milestones above its target are undone, and those at or below it are history
//! the node does not have (Hornet does the same, `importer.go`); they come again over gossip
//! with their blocks.

use crate::columns::{state_key, OUTPUTS, STATE, UNSPENT};
use crate::db::Db;
use crate::entry_points::SolidEntryPoints;
use crate::genesis::protocol_json;
use crate::history::HistoryIndexes;
use crate::origin::Origin;
use crate::receipts::{ReceiptKey, Receipts};
use crate::records::OutputRecord;
use crate::schema;
use crate::{index, ledger};
use ledger_core::model::{OutputId, ReceiptOption};
use ledger_core::protocol::ProtocolParameters;
use ledger_core::snapshot::TreasuryOutput;
use ledger_core::Result;

pub struct InitialState {
    pub protocol: ProtocolParameters,
    pub origin: Origin,
    pub outputs: Vec<(OutputId, OutputRecord)>,
    pub entry_points: SolidEntryPoints,
    pub treasury: TreasuryOutput,
    /// Receipts of the milestones a delta snapshot applied: (milestone index, receipt).
    pub receipts: Vec<(u32, ReceiptOption)>,
}

impl InitialState {
    /// Write everything into an empty store, all or nothing.
    pub fn write(&self, db: &Db) -> Result<()> {
        let mut batch = db.batch();
        for (id, record) in &self.outputs {
            batch.put(OUTPUTS, id, &record.to_bytes());
            batch.put(UNSPENT, id, &[]);
        }
        // Indexed in the write that creates them (indexer.md §1.2), at the ledger index the
        // ledger starts from.
        index::write_changes(
            db,
            &mut batch,
            &self.outputs,
            &[],
            self.origin.target_milestone_index,
        )?;
        self.entry_points.put_all(&mut batch);
        // Always, as Hornet stores a snapshot's treasury output even with amount 0.
        batch.put(STATE, state_key::TREASURY, &ledger::treasury_bytes(&self.treasury));
        for (index, receipt) in &self.receipts {
            batch.put_typed::<Receipts>(
                &ReceiptKey { migrated_at: receipt.migrated_at, milestone_index: *index },
                receipt,
            );
        }
        batch.put(STATE, state_key::ORIGIN, &self.origin.to_bytes());
        HistoryIndexes::initial(&self.origin).put(&mut batch);
        batch.put(STATE, state_key::PROTOCOL, protocol_json(&self.protocol).as_bytes());
        batch.put(
            STATE,
            state_key::LEDGER_INDEX,
            &self.origin.target_milestone_index.to_le_bytes(),
        );
        batch.put(STATE, state_key::NEXT_SEQ, &0u64.to_le_bytes());
        batch.put(STATE, state_key::BLOCK_COUNT, &0u64.to_le_bytes());
        schema::write(&mut batch);
        batch.commit()
    }
}
