//! Transaction payload body (wire-format §7): the regular essence, then the unlocks.
//! The essence bytes are what signatures sign (essence hash), so they have their own writer.

use super::input::{read_input, write_input};
use super::output::{read_output, write_output};
use super::payload::{read_payload_slot, write_payload_slot};
use super::reader::{at, field, Reader};
use super::signature::{read_signature, write_signature};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

/// After the u32 type code 6: essence, unlock count, unlocks.
pub fn write_transaction_body(out: &mut Vec<u8>, tx: &TransactionPayload) {
    write_essence(out, &tx.essence);
    out.u16(tx.unlocks.len() as u16);
    for unlock in &tx.unlocks {
        write_unlock(out, unlock);
    }
}

pub fn read_transaction_body(r: &mut Reader, path: &str) -> Result<TransactionPayload> {
    let essence = read_essence(r, &field(path, "essence"))?;
    let unlocks_path = field(path, "unlocks");
    let count = r.u16(&unlocks_path)? as usize;
    // The smallest unlock (reference, alias, NFT) is 3 bytes.
    r.check_len(count, 3, &unlocks_path)?;
    let mut unlocks = Vec::with_capacity(count);
    for i in 0..count {
        unlocks.push(read_unlock(r, &at(&unlocks_path, i))?);
    }
    Ok(TransactionPayload { essence, unlocks })
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

pub fn read_essence(r: &mut Reader, path: &str) -> Result<RegularEssence> {
    let kind = r.u8(&field(path, "type"))?;
    if kind != 1 {
        return Err(Error::new(
            Code::UnknownEssenceType,
            field(path, "type"),
            format!("unknown transaction essence type {kind}"),
        ));
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
        other => {
            return Err(Error::new(
                Code::UnknownUnlockType,
                field(path, "type"),
                format!("unknown unlock type {other}"),
            ))
        }
    })
}
