//! Reading the UTXO ledger: outputs (kept after spending), the unspent set, spents, the
//! treasury.

use crate::columns::{state_key, OUTPUTS, SPENTS, STATE, UNSPENT};
use crate::db::Db;
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

/// The sum of all unspent outputs; at every milestone it must equal the token supply.
pub fn unspent_total(db: &Db) -> Result<u128> {
    let mut total: u128 = 0;
    let mut failure = None;
    db.scan(UNSPENT, &[], |key, _| {
        match db.get(OUTPUTS, key)? {
            Some(record) if record.len() > 48 => total += output_amount(&record[40..]) as u128,
            _ => {
                failure =
                    Some(format!("unspent output 0x{} has no output record", hex::encode(key)));
                return Ok(false);
            }
        }
        Ok(true)
    })?;
    match failure {
        Some(f) => Err(storage_error(f)),
        None => Ok(total),
    }
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
