//! Reading the UTXO ledger: outputs (kept after spending), the unspent set, spents, the
//! treasury.

use crate::columns::{state_key, OUTPUTS, SPENTS, STATE, UNSPENT};
use crate::db::{Db, RawIter};
use crate::records::{output_amount, OutputRecord, SpentRecord};
use crate::storage_error;
use ledger_core::model::OutputId;
use ledger_core::snapshot::TreasuryOutput;
use ledger_core::Result;

pub fn output(db: &Db, id: &OutputId) -> Result<Option<OutputRecord>> {
    db.get(OUTPUTS, id)?.map(|b| OutputRecord::from_bytes(&b)).transpose()
}

pub fn is_unspent(db: &Db, id: &OutputId) -> Result<bool> {
    db.exists(UNSPENT, id)
}

pub fn spent(db: &Db, id: &OutputId) -> Result<Option<SpentRecord>> {
    db.get(SPENTS, id)?.map(|b| SpentRecord::from_bytes(&b)).transpose()
}

/// How far the output records are stepped through before a seek: the spent outputs kept
/// between two unspent ones (until pruning) are usually few, and a step costs a fraction
/// of a seek.
const STEPS_BEFORE_SEEK: usize = 8;

/// The sum of all unspent outputs, from one snapshot; at every milestone it must equal the
/// token supply. The unspent ids and the output records are both in id order, so one pass
/// walks both (the check runs at every start: a lookup each took seconds at a million
/// outputs).
pub fn unspent_total(db: &Db) -> Result<u128> {
    let snapshot = db.snapshot();
    // Above every 34-byte output id.
    let mut unspent = snapshot.iter(UNSPENT, vec![0xff; 35]);
    let mut records = snapshot.iter(OUTPUTS, vec![0xff; 35]);
    unspent.seek_to_first();
    records.seek_to_first();
    let mut total: u128 = 0;
    while let Some(id) = unspent.key() {
        match record_at(&mut records, id)? {
            Some(record) if record.len() > 48 => total += output_amount(&record[40..]) as u128,
            _ => {
                return Err(storage_error(format!(
                    "unspent output 0x{} has no output record",
                    hex::encode(id)
                )))
            }
        }
        unspent.next();
    }
    unspent.status().map_err(storage_error)?;
    Ok(total)
}

/// Move `records` forward to `id` (never back: ids come in ascending order) and answer the
/// record there, if that is its key.
fn record_at<'r>(records: &'r mut RawIter<'_>, id: &[u8]) -> Result<Option<&'r [u8]>> {
    let behind = |records: &RawIter<'_>| records.key().is_some_and(|key| key < id);
    let mut steps = 0;
    while behind(records) && steps < STEPS_BEFORE_SEEK {
        records.next();
        steps += 1;
    }
    if behind(records) {
        records.seek(id);
    }
    records.status().map_err(storage_error)?;
    Ok(if records.key() == Some(id) { records.value() } else { None })
}

/// The unspent treasury output (amount 0 when there is none; the dev network has none).
pub fn treasury(db: &Db) -> Result<TreasuryOutput> {
    match db.get(STATE, state_key::TREASURY)? {
        None => Ok(TreasuryOutput::default()),
        Some(b) if b.len() == 40 => Ok(TreasuryOutput {
            milestone_id: b[..32].try_into().expect("32 bytes"),
            amount: u64::from_le_bytes(b[32..].try_into().expect("8 bytes")),
        }),
        Some(b) => Err(storage_error(format!("treasury record of {} bytes", b.len()))),
    }
}

pub fn treasury_bytes(t: &TreasuryOutput) -> [u8; 40] {
    let mut b = [0u8; 40];
    b[..32].copy_from_slice(&t.milestone_id);
    b[32..].copy_from_slice(&t.amount.to_le_bytes());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(amount: u64) -> Vec<u8> {
        // A basic output's type byte, then its amount (all `output_amount` reads).
        let mut output = vec![3];
        output.extend_from_slice(&amount.to_le_bytes());
        OutputRecord { block_id: [1; 32], milestone_index: 1, milestone_timestamp: 1, output }
            .to_bytes()
    }

    fn id(n: u16) -> OutputId {
        let mut id = [0u8; 34];
        id[..2].copy_from_slice(&n.to_be_bytes());
        id
    }

    #[test]
    fn the_unspent_total_walks_past_runs_of_spent_records_and_names_a_missing_one() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open_for_test(dir.path());
        // 1,000 output records, of which these are unspent: neighbours (steps), and gaps of
        // 3 and of 100 spent records (a seek).
        let unspent: [u16; 6] = [0, 1, 2, 6, 107, 999];
        let mut batch = db.batch();
        for n in 0..1000u16 {
            batch.put(OUTPUTS, &id(n), &record(u64::from(n) + 1));
        }
        for n in unspent {
            batch.put(UNSPENT, &id(n), &[]);
        }
        batch.commit().unwrap();
        let expected: u128 = unspent.iter().map(|&n| u128::from(n) + 1).sum();
        assert_eq!(unspent_total(&db).unwrap(), expected);

        // An unspent id whose record is gone, between two that have theirs.
        let mut batch = db.batch();
        batch.put(UNSPENT, &id(2000), &[]);
        batch.put(UNSPENT, &id(2001), &[]);
        batch.put(OUTPUTS, &id(2001), &record(5));
        batch.commit().unwrap();
        let err = unspent_total(&db).unwrap_err();
        assert!(err.detail.contains(&hex::encode(id(2000))), "{}", err.detail);
    }
}
