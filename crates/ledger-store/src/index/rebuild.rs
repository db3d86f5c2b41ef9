//! The index derived from the ledger: at start-up when it is missing, of another format
//! or behind the ledger index (the indexer was off while milestones were committed), and
//! a full comparison of index and ledger for tests and checks.

use super::chains::IndexerChains;
use super::fields::{Field, FieldKey, IndexerFields};
use super::outputs::IndexerOutputs;
use super::{marker, Entry, FORMAT};
use crate::columns::{
    state_key, TypedColumn, INDEXER_CHAINS, INDEXER_FIELDS, INDEXER_OUTPUTS, OUTPUTS, STATE,
    UNSPENT,
};
use crate::db::Db;
use crate::records::OutputRecord;
use crate::storage_error;
use ledger_core::Result;
use std::collections::BTreeMap;

/// Outputs per batch while rebuilding: bounded memory on a large ledger.
const REBUILD_BATCH: usize = 20_000;

fn ledger_index(db: &Db) -> Result<u32> {
    match db.get(STATE, state_key::LEDGER_INDEX)? {
        Some(b) if b.len() == 4 => Ok(u32::from_le_bytes(b[..].try_into().expect("4 bytes"))),
        Some(b) => Err(storage_error(format!("ledger index record of {} bytes", b.len()))),
        None => Ok(0),
    }
}

/// Rebuild the index unless it already reflects the current ledger in the current format.
/// Returns the number of outputs indexed when it rebuilt.
pub fn bring_up_to_date(db: &Db) -> Result<Option<u64>> {
    if is_current(db)? {
        return Ok(None);
    }
    rebuild(db).map(Some)
}

/// Whether the index reflects the current ledger in the current format. It is behind when the
/// node ran without it (`--no-indexer`): never served then, and rebuilt at the next start with it.
pub fn is_current(db: &Db) -> Result<bool> {
    let ledger_index = ledger_index(db)?;
    Ok(db.get(STATE, state_key::INDEXED_LEDGER)?.as_deref() == Some(&marker(ledger_index)[..]))
}

/// Clear the three families and index every unspent output. The marker goes first and
/// comes back last, so a crash half-way leaves an index that is rebuilt again.
pub fn rebuild(db: &Db) -> Result<u64> {
    let ledger_index = ledger_index(db)?;
    let mut batch = db.batch();
    batch.delete(STATE, state_key::INDEXED_LEDGER);
    for cf in [INDEXER_OUTPUTS, INDEXER_FIELDS, INDEXER_CHAINS] {
        batch.clear(cf);
    }
    batch.commit()?;
    let mut batch = db.batch();
    let mut count = 0u64;
    db.scan(UNSPENT, &[], |key, _| {
        let id: [u8; 34] = key
            .try_into()
            .map_err(|_| storage_error(format!("unspent key of {} bytes", key.len())))?;
        let record = OutputRecord::from_bytes(&db.get(OUTPUTS, &id)?.ok_or_else(|| {
            storage_error(format!("unspent output 0x{} has no output record", hex::encode(id)))
        })?)?;
        if let Some(entry) = Entry::of(&id, &record)? {
            entry.add(&mut batch);
        }
        count += 1;
        if count.is_multiple_of(REBUILD_BATCH as u64) {
            std::mem::replace(&mut batch, db.batch()).commit()?;
        }
        Ok(true)
    })?;
    batch.put(STATE, state_key::INDEXED_LEDGER, &marker(ledger_index));
    batch.commit()?;
    Ok(count)
}

/// Compare the three families with what the unspent outputs of the ledger give, key by
/// key; the first difference is the error. Reads everything: for tests and checks.
pub fn verify(db: &Db) -> Result<()> {
    let mut expected: BTreeMap<(&str, Vec<u8>), Vec<u8>> = BTreeMap::new();
    db.scan(UNSPENT, &[], |key, _| {
        let id: [u8; 34] =
            key.try_into().map_err(|_| storage_error("unspent key of the wrong size"))?;
        let record = OutputRecord::from_bytes(
            &db.get(OUTPUTS, &id)?.ok_or_else(|| storage_error("unspent output without record"))?,
        )?;
        if let Some(e) = Entry::of(&id, &record)? {
            expected.insert(
                (INDEXER_OUTPUTS, IndexerOutputs::encode_key(&(e.kind, e.sort_key))),
                IndexerOutputs::encode_value(&e.fields),
            );
            for field in Field::all_of(&e.fields) {
                expected.insert(
                    (
                        INDEXER_FIELDS,
                        IndexerFields::encode_key(&FieldKey {
                            kind: e.kind,
                            field,
                            sort_key: e.sort_key,
                        }),
                    ),
                    Vec::new(),
                );
            }
            if let Some(chain) = &e.chain {
                expected.insert(
                    (INDEXER_CHAINS, IndexerChains::encode_key(chain)),
                    IndexerChains::encode_value(&id),
                );
            }
        }
        Ok(true)
    })?;
    let mut actual = BTreeMap::new();
    // Every stored record must also decode through its typed column.
    fn decodes<C: TypedColumn>(key: &[u8], value: &[u8]) -> Result<()> {
        C::decode_key(key)?;
        C::decode_value(value)?;
        Ok(())
    }
    type Check = fn(&[u8], &[u8]) -> Result<()>;
    let checks: [(&str, Check); 3] = [
        (INDEXER_OUTPUTS, decodes::<IndexerOutputs>),
        (INDEXER_FIELDS, decodes::<IndexerFields>),
        (INDEXER_CHAINS, decodes::<IndexerChains>),
    ];
    for (cf, check) in checks {
        db.scan(cf, &[], |key, value| {
            check(key, value)?;
            actual.insert((cf, key.to_vec()), value.to_vec());
            Ok(true)
        })?;
    }
    if let Some(((cf, key), _)) = expected.iter().find(|(k, v)| actual.get(*k) != Some(*v)) {
        return Err(storage_error(format!("{cf} lacks or differs at key {}", hex::encode(key))));
    }
    if let Some(((cf, key), _)) = actual.iter().find(|(k, _)| !expected.contains_key(*k)) {
        return Err(storage_error(format!(
            "{cf} holds key {} of no unspent output",
            hex::encode(key)
        )));
    }
    let ledger_index = ledger_index(db)?;
    if db.get(STATE, state_key::INDEXED_LEDGER)?.as_deref() != Some(&marker(ledger_index)[..]) {
        return Err(storage_error(format!(
            "the index is not marked as reflecting ledger index {ledger_index} (format {FORMAT})"
        )));
    }
    Ok(())
}
