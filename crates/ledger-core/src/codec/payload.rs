//! Payloads (wire-format §6–§8): the optional payload slot, tagged data, transactions and
//! treasury transactions. Milestones live in milestone.rs.

use super::address::{read_signature, write_signature};
use super::milestone::{read_milestone, write_milestone};
use super::output::{read_output, write_output};
use super::reader::{at, field, Reader};
use super::writer::Write;
use crate::error::{Error, Result};
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
        Payload::Transaction(tx) => {
            write_essence(out, &tx.essence);
            out.u16(tx.unlocks.len() as u16);
            for unlock in &tx.unlocks {
                write_unlock(out, unlock);
            }
        }
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
    r.check_len(len, 1, path)?;
    let slot = r.take(len, path)?;
    let mut inner = Reader::new(slot);
    let payload = read_payload(&mut inner, path).map_err(|e| {
        if e.code == "truncated-bytes" {
            Error::new("payload-length-mismatch", path, format!("the payload does not fit its declared length {len}"))
        } else {
            e
        }
    })?;
    if inner.remaining() != 0 {
        return Err(Error::new(
            "payload-length-mismatch",
            path,
            format!("declared payload length {len} but the payload takes {}", inner.position()),
        ));
    }
    Ok(Some(payload))
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
        6 => {
            let essence = read_essence(r, &field(path, "essence"))?;
            let unlocks_path = field(path, "unlocks");
            let count = r.u16(&unlocks_path)? as usize;
            r.check_len(count, 3, &unlocks_path)?;
            let mut unlocks = Vec::with_capacity(count);
            for i in 0..count {
                unlocks.push(read_unlock(r, &at(&unlocks_path, i))?);
            }
            Payload::Transaction(Box::new(TransactionPayload { essence, unlocks }))
        }
        7 => Payload::Milestone(Box::new(read_milestone(r, path)?)),
        other => return Err(Error::new("unknown-payload-type", field(path, "type"), format!("unknown payload type {other}"))),
    })
}

pub fn write_essence(out: &mut Vec<u8>, essence: &RegularEssence) {
    out.u8(1);
    out.u64(essence.network_id);
    out.u16(essence.inputs.len() as u16);
    for input in &essence.inputs {
        write_input(out, input);
    }
    out.bytes(&essence.inputs_commitment);
    out.u16(essence.outputs.len() as u16);
    for output in &essence.outputs {
        write_output(out, output);
    }
    write_payload_slot(out, essence.payload.as_ref());
}

fn read_essence(r: &mut Reader, path: &str) -> Result<RegularEssence> {
    let kind = r.u8(&field(path, "type"))?;
    if kind != 1 {
        return Err(Error::new("unknown-essence-type", field(path, "type"), format!("unknown transaction essence type {kind}")));
    }
    let network_id = r.u64(&field(path, "networkId"))?;
    let inputs_path = field(path, "inputs");
    let count = r.u16(&inputs_path)? as usize;
    r.check_len(count, 33, &inputs_path)?;
    let mut inputs = Vec::with_capacity(count);
    for i in 0..count {
        inputs.push(read_input(r, &at(&inputs_path, i))?);
    }
    let inputs_commitment = r.array(&field(path, "inputsCommitment"))?;
    let outputs_path = field(path, "outputs");
    let count = r.u16(&outputs_path)? as usize;
    r.check_len(count, 9, &outputs_path)?;
    let mut outputs = Vec::with_capacity(count);
    for i in 0..count {
        outputs.push(read_output(r, &at(&outputs_path, i))?);
    }
    let payload = read_payload_slot(r, &field(path, "payload"))?;
    Ok(RegularEssence { network_id, inputs, inputs_commitment, outputs, payload })
}

pub fn write_input(out: &mut Vec<u8>, input: &Input) {
    match input {
        Input::Utxo { transaction_id, output_index } => {
            out.u8(0);
            out.bytes(transaction_id);
            out.u16(*output_index);
        }
        Input::Treasury { milestone_id } => {
            out.u8(1);
            out.bytes(milestone_id);
        }
    }
}

pub fn read_input(r: &mut Reader, path: &str) -> Result<Input> {
    let kind = r.u8(&field(path, "type"))?;
    match kind {
        0 => Ok(Input::Utxo {
            transaction_id: r.array(&field(path, "transactionId"))?,
            output_index: r.u16(&field(path, "transactionOutputIndex"))?,
        }),
        1 => Ok(Input::Treasury { milestone_id: r.array(&field(path, "milestoneId"))? }),
        other => Err(Error::new("unknown-input-type", field(path, "type"), format!("unknown input type {other}"))),
    }
}

fn write_unlock(out: &mut Vec<u8>, unlock: &Unlock) {
    match unlock {
        Unlock::Signature(s) => {
            out.u8(0);
            write_signature(out, s);
        }
        Unlock::Reference(i) | Unlock::Alias(i) | Unlock::Nft(i) => {
            out.u8(match unlock {
                Unlock::Reference(_) => 1,
                Unlock::Alias(_) => 2,
                _ => 3,
            });
            out.u16(*i);
        }
    }
}

fn read_unlock(r: &mut Reader, path: &str) -> Result<Unlock> {
    let kind = r.u8(&field(path, "type"))?;
    Ok(match kind {
        0 => Unlock::Signature(read_signature(r, &field(path, "signature"))?),
        1 => Unlock::Reference(r.u16(&field(path, "reference"))?),
        2 => Unlock::Alias(r.u16(&field(path, "reference"))?),
        3 => Unlock::Nft(r.u16(&field(path, "reference"))?),
        other => return Err(Error::new("unknown-unlock-type", field(path, "type"), format!("unknown unlock type {other}"))),
    })
}

/// Treasury transaction body (after its u32 type 4): treasury input, treasury output.
pub fn write_treasury_transaction_body(out: &mut Vec<u8>, t: &TreasuryTransaction) {
    write_input(out, &t.input);
    write_output(out, &t.output);
}

pub fn read_treasury_transaction_body(r: &mut Reader, path: &str) -> Result<TreasuryTransaction> {
    let input = read_input(r, &field(path, "input"))?;
    let output = read_output(r, &field(path, "output"))?;
    Ok(TreasuryTransaction { input, output })
}
