//! The UTXO indexer (indexer.md, D28, D39): which unspent outputs of the confirmed ledger
//! meet a query's conditions, in created-time order, a page at a time.
//!
//! Three column families, one typed column each: `outputs` (every indexed output with the
//! fields filters test), `fields` (one key per address-like field, tag and native-token
//! holding, ending in the sort key), `chains` (alias, NFT and foundry ids to their current
//! output). `write_changes` adds a milestone's ledger changes to the milestone's own batch,
//! so the index never lags the ledger; `rebuild` derives it from the ledger when it is
//! missing, of another format, or behind (the indexer was switched off); `query` answers a
//! page from one snapshot; `filters` lists the query's filters once, for the binding and
//! the HTTP layer.

mod chains;
mod entry;
mod fields;
mod filters;
mod outputs;
mod query;
mod rebuild;
mod scan;
mod sort_key;

pub use chains::IndexerChains;
pub use entry::{ChainId, IndexedOutput, OutputKind};
pub use fields::{field_prefix, has_field_prefix};
pub use filters::{FilterField, FilterKind, FILTER_FIELDS};
pub use query::{OutputFilter, OutputPage, OutputQuery, OutputsOf};
pub use rebuild::{bring_up_to_date, is_current, verify};
pub use sort_key::SortKey;

use crate::columns::{state_key, STATE};
use crate::db::{Batch, Db, Snapshot};
use crate::records::{OutputRecord, SpentRecord};
use crate::{ledger, storage_error};
use fields::{Field, FieldKey, IndexerFields};
use ledger_core::codec::decode_output;
use ledger_core::model::OutputId;
use ledger_core::{Code, Error, Result};
use outputs::IndexerOutputs;
use std::collections::HashSet;

/// The layout of the three families; a different value on disk means "rebuild".
const FORMAT: u32 = 1;

/// The index changes of one milestone (or of the genesis): outputs it created appear,
/// outputs it consumed disappear, outputs it did both to never show up (indexer.md §1.2).
/// Computed before the milestone's batch is assembled (it reads the records of consumed
/// outputs from the committed ledger and decodes outputs), written into it by `write`.
pub struct IndexChanges {
    removed: Vec<Entry>,
    added: Vec<Entry>,
    ledger_index: u32,
}

pub fn changes(
    db: &Db,
    created: &[(OutputId, OutputRecord)],
    consumed: &[(OutputId, SpentRecord)],
    ledger_index: u32,
) -> Result<IndexChanges> {
    let created_here: HashSet<&OutputId> = created.iter().map(|(id, _)| id).collect();
    let consumed_here: HashSet<&OutputId> = consumed.iter().map(|(id, _)| id).collect();
    let mut removed = Vec::with_capacity(consumed.len());
    for (id, _) in consumed.iter().filter(|(id, _)| !created_here.contains(id)) {
        let record = ledger::output(db, id)?.ok_or_else(|| {
            storage_error(format!("consumed output 0x{} has no output record", hex::encode(id)))
        })?;
        removed.extend(Entry::of(id, &record)?);
    }
    let mut added = Vec::with_capacity(created.len());
    for (id, record) in created.iter().filter(|(id, _)| !consumed_here.contains(id)) {
        added.extend(Entry::of(id, record)?);
    }
    Ok(IndexChanges { removed, added, ledger_index })
}

impl IndexChanges {
    /// Into the milestone's batch, with the marker saying which ledger index the index
    /// now reflects. Removals before additions: a chain continued under this milestone
    /// keeps the entry its new output writes.
    pub fn write(&self, batch: &mut Batch) {
        for entry in &self.removed {
            entry.remove(batch);
        }
        for entry in &self.added {
            entry.add(batch);
        }
        batch.put(STATE, state_key::INDEXED_LEDGER, &marker(self.ledger_index));
    }
}

/// `changes` and `write` in one step, where nothing else waits on the batch.
pub fn write_changes(
    db: &Db,
    batch: &mut Batch,
    created: &[(OutputId, OutputRecord)],
    consumed: &[(OutputId, SpentRecord)],
    ledger_index: u32,
) -> Result<()> {
    changes(db, created, consumed, ledger_index)?.write(batch);
    Ok(())
}

fn marker(ledger_index: u32) -> [u8; 8] {
    let mut value = [0u8; 8];
    value[..4].copy_from_slice(&FORMAT.to_le_bytes());
    value[4..].copy_from_slice(&ledger_index.to_le_bytes());
    value
}

/// Every key one output has in the three families.
struct Entry {
    kind: OutputKind,
    sort_key: SortKey,
    fields: IndexedOutput,
    chain: Option<ChainId>,
}

impl Entry {
    /// None for outputs the indexer does not serve (treasury).
    fn of(id: &OutputId, record: &OutputRecord) -> Result<Option<Entry>> {
        let output = decode_output(&record.output).map_err(|e| {
            storage_error(format!("stored output 0x{} does not decode: {e}", hex::encode(id)))
        })?;
        let Some(kind) = OutputKind::of(&output) else { return Ok(None) };
        Ok(Some(Entry {
            kind,
            sort_key: SortKey::new(record.milestone_timestamp, id),
            fields: IndexedOutput::of(&output),
            chain: ChainId::of(&output, id),
        }))
    }

    fn add(&self, batch: &mut Batch) {
        batch.put_typed::<IndexerOutputs>(&(self.kind, self.sort_key), &self.fields);
        for field in Field::all_of(&self.fields) {
            batch.put_typed::<IndexerFields>(
                &FieldKey { kind: self.kind, field, sort_key: self.sort_key },
                &(),
            );
        }
        if let Some(chain) = &self.chain {
            batch.put_typed::<IndexerChains>(chain, &self.sort_key.output_id());
        }
    }

    fn remove(&self, batch: &mut Batch) {
        batch.delete_typed::<IndexerOutputs>(&(self.kind, self.sort_key));
        for field in Field::all_of(&self.fields) {
            batch.delete_typed::<IndexerFields>(&FieldKey {
                kind: self.kind,
                field,
                sort_key: self.sort_key,
            });
        }
        if let Some(chain) = &self.chain {
            batch.delete_typed::<IndexerChains>(chain);
        }
    }
}

/// The ledger index of a snapshot; queries before the first milestone are refused (503).
fn ledger_index(snapshot: &Snapshot<'_>) -> Result<u32> {
    let index = match snapshot.get(STATE, state_key::LEDGER_INDEX)? {
        Some(b) if b.len() == 4 => u32::from_le_bytes(b[..].try_into().expect("4 bytes")),
        Some(b) => return Err(storage_error(format!("ledger index record of {} bytes", b.len()))),
        None => 0,
    };
    if index == 0 {
        return Err(Error::new(Code::NotReady, "", "no confirmed milestone yet"));
    }
    Ok(index)
}

/// One page of a query, from one snapshot (indexer.md §1.2).
pub fn query(db: &Db, query: &OutputQuery) -> Result<OutputPage> {
    let snapshot = db.snapshot();
    let index = ledger_index(&snapshot)?;
    query::run(&snapshot, query, index)
}

/// The unspent output of a chain (indexer.md §3.4), with the ledger index.
pub fn chain_output(db: &Db, chain: &ChainId) -> Result<(u32, Option<OutputId>)> {
    let snapshot = db.snapshot();
    let index = ledger_index(&snapshot)?;
    Ok((index, snapshot.get_typed::<IndexerChains>(chain)?))
}
