//! Milestone options (wire-format §8.1): the receipt (with its treasury transaction behind a
//! u32 length, Hornet layout, D17) and the protocol parameters option.

use super::address::{read_address, write_address};
use super::payload::{read_sized_payload, write_payload};
use super::reader::{at, field, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

pub fn write_option(out: &mut Vec<u8>, option: &MilestoneOption) {
    match option {
        MilestoneOption::Receipt(receipt) => {
            out.u8(0);
            out.u32(receipt.migrated_at);
            out.u8(receipt.last as u8);
            out.u16(receipt.funds.len() as u16);
            for entry in &receipt.funds {
                out.bytes(&entry.tail_transaction_hash);
                write_address(out, &entry.address);
                out.u64(entry.deposit);
            }
            // Hornet layout (D17): the treasury transaction is preceded by its length.
            let mut tx = Vec::with_capacity(46);
            write_payload(&mut tx, &Payload::TreasuryTransaction(receipt.transaction.clone()));
            out.u32(tx.len() as u32);
            out.bytes(&tx);
        }
        MilestoneOption::ProtocolParameters {
            target_milestone_index,
            protocol_version,
            params,
        } => {
            out.u8(1);
            out.u32(*target_milestone_index);
            out.u8(*protocol_version);
            out.u16(params.len() as u16);
            out.bytes(params);
        }
    }
}

pub fn read_option(r: &mut Reader, path: &str) -> Result<MilestoneOption> {
    let kind = r.u8(&field(path, "type"))?;
    match kind {
        0 => {
            let migrated_at = r.u32(&field(path, "migratedAt"))?;
            let last = r.bool(&field(path, "final"))?;
            let funds_path = field(path, "funds");
            let count = r.u16(&funds_path)? as usize;
            r.check_len(count, 90, &funds_path)?;
            let mut funds = Vec::with_capacity(count);
            for i in 0..count {
                let p = at(&funds_path, i);
                funds.push(MigratedFundsEntry {
                    tail_transaction_hash: r.array(&field(&p, "tailTransactionHash"))?,
                    address: read_address(r, &field(&p, "address"))?,
                    deposit: r.u64(&field(&p, "deposit"))?,
                });
            }
            let tx_path = field(path, "transaction");
            let len = r.u32(&tx_path)? as usize;
            match read_sized_payload(r, len, &tx_path)? {
                Payload::TreasuryTransaction(transaction) => {
                    Ok(MilestoneOption::Receipt(ReceiptOption {
                        migrated_at,
                        last,
                        funds,
                        transaction,
                    }))
                }
                other => Err(Error::new(
                    Code::PayloadNotAllowedInReceipt,
                    field(&tx_path, "type"),
                    format!(
                        "a receipt carries a treasury transaction (type 4), not type {}",
                        other.type_code()
                    ),
                )),
            }
        }
        1 => Ok(MilestoneOption::ProtocolParameters {
            target_milestone_index: r.u32(&field(path, "targetMilestoneIndex"))?,
            protocol_version: r.u8(&field(path, "protocolVersion"))?,
            params: r.u16_prefixed(&field(path, "params"))?,
        }),
        other => Err(Error::new(
            Code::UnknownMilestoneOptionType,
            field(path, "type"),
            format!("unknown milestone option type {other}"),
        )),
    }
}
