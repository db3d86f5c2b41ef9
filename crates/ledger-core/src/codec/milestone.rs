//! Milestone payload (wire-format §8): essence, options (receipt, protocol parameters),
//! signatures. The milestone id hashes the essence alone.

use super::address::{read_address, read_signature, write_address, write_signature};
use super::payload::{read_payload, write_payload};
use super::reader::{at, field, Reader};
use super::writer::Write;
use crate::error::{Error, Result};
use crate::model::*;

/// Fields 2–10: index through options.
pub fn write_milestone_essence(out: &mut Vec<u8>, m: &MilestonePayload) {
    out.u32(m.index);
    out.u32(m.timestamp);
    out.u8(m.protocol_version);
    out.bytes(&m.previous_milestone_id);
    out.u8(m.parents.len() as u8);
    for p in &m.parents {
        out.bytes(p);
    }
    out.bytes(&m.inclusion_merkle_root);
    out.bytes(&m.applied_merkle_root);
    out.u16(m.metadata.len() as u16);
    out.bytes(&m.metadata);
    out.u8(m.options.len() as u8);
    for option in &m.options {
        write_option(out, option);
    }
}

/// Milestone body after its u32 type code: essence then signatures.
pub fn write_milestone(out: &mut Vec<u8>, m: &MilestonePayload) {
    write_milestone_essence(out, m);
    out.u8(m.signatures.len() as u8);
    for s in &m.signatures {
        write_signature(out, s);
    }
}

pub fn read_milestone(r: &mut Reader, path: &str) -> Result<MilestonePayload> {
    let index = r.u32(&field(path, "index"))?;
    let timestamp = r.u32(&field(path, "timestamp"))?;
    let protocol_version = r.u8(&field(path, "protocolVersion"))?;
    let previous_milestone_id = r.array(&field(path, "previousMilestoneId"))?;
    let parents_path = field(path, "parents");
    let count = r.u8(&parents_path)? as usize;
    r.check_len(count, 32, &parents_path)?;
    let mut parents = Vec::with_capacity(count);
    for i in 0..count {
        parents.push(r.array(&at(&parents_path, i))?);
    }
    let inclusion_merkle_root = r.array(&field(path, "inclusionMerkleRoot"))?;
    let applied_merkle_root = r.array(&field(path, "appliedMerkleRoot"))?;
    let metadata = r.u16_prefixed(&field(path, "metadata"))?;
    let options_path = field(path, "options");
    let count = r.u8(&options_path)? as usize;
    r.check_len(count, 1, &options_path)?;
    let mut options = Vec::with_capacity(count);
    for i in 0..count {
        options.push(read_option(r, &at(&options_path, i))?);
    }
    let signatures_path = field(path, "signatures");
    let count = r.u8(&signatures_path)? as usize;
    r.check_len(count, 97, &signatures_path)?;
    let mut signatures = Vec::with_capacity(count);
    for i in 0..count {
        signatures.push(read_signature(r, &at(&signatures_path, i))?);
    }
    Ok(MilestonePayload {
        index,
        timestamp,
        protocol_version,
        previous_milestone_id,
        parents,
        inclusion_merkle_root,
        applied_merkle_root,
        metadata,
        options,
        signatures,
    })
}

fn write_option(out: &mut Vec<u8>, option: &MilestoneOption) {
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
        MilestoneOption::ProtocolParameters { target_milestone_index, protocol_version, params } => {
            out.u8(1);
            out.u32(*target_milestone_index);
            out.u8(*protocol_version);
            out.u16(params.len() as u16);
            out.bytes(params);
        }
    }
}

fn read_option(r: &mut Reader, path: &str) -> Result<MilestoneOption> {
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
            r.check_len(len, 1, &tx_path)?;
            let mut inner = Reader::new(r.take(len, &tx_path)?);
            let payload = read_payload(&mut inner, &tx_path)?;
            inner.finish(&tx_path)?;
            match payload {
                Payload::TreasuryTransaction(transaction) => {
                    Ok(MilestoneOption::Receipt(ReceiptOption { migrated_at, last, funds, transaction }))
                }
                other => Err(Error::new(
                    "payload-not-allowed-in-receipt",
                    field(&tx_path, "type"),
                    format!("a receipt carries a treasury transaction (type 4), not type {}", other.type_code()),
                )),
            }
        }
        1 => Ok(MilestoneOption::ProtocolParameters {
            target_milestone_index: r.u32(&field(path, "targetMilestoneIndex"))?,
            protocol_version: r.u8(&field(path, "protocolVersion"))?,
            params: r.u16_prefixed(&field(path, "params"))?,
        }),
        other => Err(Error::new(
            "unknown-milestone-option-type",
            field(path, "type"),
            format!("unknown milestone option type {other}"),
        )),
    }
}
