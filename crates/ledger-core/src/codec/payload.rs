//! Payloads (wire-format §3, §6): the optional payload slot every block and essence has,
//! dispatch on the u32 type code, and tagged data. Transactions, milestones and treasury
//! transactions have their own files.

use super::milestone::{read_milestone, write_milestone};
use super::reader::{field, Reader};
use super::transaction::{read_transaction_body, write_transaction_body};
use super::treasury::{read_treasury_transaction_body, write_treasury_transaction_body};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

/// A payload with its u32 type code, without the length of an enclosing slot.
pub fn write_payload(out: &mut Vec<u8>, payload: &Payload) {
    out.u32(payload.type_code());
    match payload {
        Payload::TreasuryTransaction(t) => write_treasury_transaction_body(out, t),
        Payload::TaggedData(t) => {
            out.u8(t.tag.len() as u8);
            out.bytes(&t.tag);
            out.u32(t.data.len() as u32);
            out.bytes(&t.data);
        }
        Payload::Transaction(tx) => write_transaction_body(out, tx),
        Payload::Milestone(m) => write_milestone(out, m),
    }
}

/// The optional payload slot: u32 length (0 = none) then the payload.
pub fn write_payload_slot(out: &mut Vec<u8>, payload: Option<&Payload>) {
    match payload {
        None => out.u32(0),
        Some(p) => {
            let len_at = out.len();
            out.u32(0);
            write_payload(out, p);
            let len = (out.len() - len_at - 4) as u32;
            out[len_at..len_at + 4].copy_from_slice(&len.to_le_bytes());
        }
    }
}

pub fn read_payload_slot(r: &mut Reader, path: &str) -> Result<Option<Payload>> {
    let len = r.u32(path)? as usize;
    if len == 0 {
        return Ok(None);
    }
    read_sized_payload(r, len, path).map(Some)
}

/// A payload that must take exactly `len` bytes (the length was read before it): a
/// payload slot, or the treasury transaction of a receipt. Reading past the declared
/// length, or stopping short of it, is a `payload-length-mismatch`.
pub fn read_sized_payload(r: &mut Reader, len: usize, path: &str) -> Result<Payload> {
    r.check_len(len, 1, path)?;
    let slot = r.take(len, path)?;
    let mut inner = r.nested(slot, path)?;
    let payload = read_payload(&mut inner, path).map_err(|e| {
        if e.code == Code::TruncatedBytes {
            Error::new(
                Code::PayloadLengthMismatch,
                path,
                format!("the payload does not fit its declared length {len}"),
            )
        } else {
            e
        }
    })?;
    if inner.remaining() != 0 {
        return Err(Error::new(
            Code::PayloadLengthMismatch,
            path,
            format!("declared payload length {len} but the payload takes {}", inner.position()),
        ));
    }
    Ok(payload)
}

pub fn read_payload(r: &mut Reader, path: &str) -> Result<Payload> {
    let kind = r.u32(&field(path, "type"))?;
    Ok(match kind {
        4 => Payload::TreasuryTransaction(read_treasury_transaction_body(r, path)?),
        5 => {
            let tag = r.u8_prefixed(&field(path, "tag"))?;
            let data = r.u32_prefixed(&field(path, "data"))?;
            Payload::TaggedData(TaggedData { tag, data })
        }
        6 => Payload::Transaction(Box::new(read_transaction_body(r, path)?)),
        7 => Payload::Milestone(Box::new(read_milestone(r, path)?)),
        other => {
            return Err(Error::new(
                Code::UnknownPayloadType,
                field(path, "type"),
                format!("unknown payload type {other}"),
            ))
        }
    })
}
