//! Unlock conditions (wire-format §7.4): a u8 count, then each condition as its type byte
//! and fixed fields.

use super::address::{read_address, write_address};
use super::reader::{at, field, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

pub fn write_unlock_conditions(out: &mut Vec<u8>, conditions: &[UnlockCondition]) {
    out.u8(conditions.len() as u8);
    for uc in conditions {
        out.u8(uc.type_code());
        match uc {
            UnlockCondition::Address(a)
            | UnlockCondition::StateControllerAddress(a)
            | UnlockCondition::GovernorAddress(a)
            | UnlockCondition::ImmutableAliasAddress(a) => write_address(out, a),
            UnlockCondition::StorageDepositReturn { return_address, amount } => {
                write_address(out, return_address);
                out.u64(*amount);
            }
            UnlockCondition::Timelock { unix_time } => out.u32(*unix_time),
            UnlockCondition::Expiration { return_address, unix_time } => {
                write_address(out, return_address);
                out.u32(*unix_time);
            }
        }
    }
}

pub fn read_unlock_conditions(r: &mut Reader, path: &str) -> Result<Vec<UnlockCondition>> {
    let count = r.u8(path)? as usize;
    r.check_len(count, 5, path)?;
    let mut list = Vec::with_capacity(count);
    for i in 0..count {
        let p = at(path, i);
        let kind = r.u8(&field(&p, "type"))?;
        list.push(match kind {
            0 => UnlockCondition::Address(read_address(r, &field(&p, "address"))?),
            1 => UnlockCondition::StorageDepositReturn {
                return_address: read_address(r, &field(&p, "returnAddress"))?,
                amount: r.u64(&field(&p, "amount"))?,
            },
            2 => UnlockCondition::Timelock { unix_time: r.u32(&field(&p, "unixTime"))? },
            3 => UnlockCondition::Expiration {
                return_address: read_address(r, &field(&p, "returnAddress"))?,
                unix_time: r.u32(&field(&p, "unixTime"))?,
            },
            4 => UnlockCondition::StateControllerAddress(read_address(r, &field(&p, "address"))?),
            5 => UnlockCondition::GovernorAddress(read_address(r, &field(&p, "address"))?),
            6 => UnlockCondition::ImmutableAliasAddress(read_address(r, &field(&p, "address"))?),
            other => {
                return Err(Error::new(
                    Code::UnknownUnlockConditionType,
                    field(&p, "type"),
                    format!("unknown unlock condition type {other}"),
                ))
            }
        });
    }
    Ok(list)
}
