//! Payloads ↔ JSON (wire-format §6–§8).

use super::output::{address_from_json, bounded_hex, output_from_json_at};
use super::read::*;
use crate::error::{Code, Error, Result};
use crate::model::*;
use serde_json::Value;

/// How deep payloads may nest, as in the binary decoder (codec::reader::MAX_PAYLOAD_DEPTH).
const MAX_PAYLOAD_DEPTH: u8 = 8;

pub fn payload_from_json(v: &Value, path: &str) -> Result<Payload> {
    crate::path::precise(|| payload_at(v, path, 1))
}

/// `depth` counts this payload: 1 for a block's payload, 2 for the one in its essence, …
fn payload_at(v: &Value, path: &str, depth: u8) -> Result<Payload> {
    if depth > MAX_PAYLOAD_DEPTH {
        return Err(Error::new(
            Code::PayloadNestingTooDeep,
            path,
            format!("payloads nest at most {MAX_PAYLOAD_DEPTH} deep"),
        ));
    }
    let o = object(v, path)?;
    let kind = field_integer(o, "type", u32::MAX as u64, path)?;
    Ok(match kind {
        4 => Payload::TreasuryTransaction(treasury_transaction_from_json(o, path)?),
        5 => Payload::TaggedData(TaggedData {
            tag: bounded_hex(o, "tag", path, u8::MAX as usize, Code::TagTooLong)?,
            data: optional_hex(o, "data", path)?,
        }),
        6 => Payload::Transaction(Box::new(transaction_from_json(o, path, depth)?)),
        7 => Payload::Milestone(Box::new(milestone_at(o, path, depth)?)),
        other => {
            return Err(Error::new(
                Code::UnknownPayloadType,
                path_of(path, "type"),
                format!("unknown payload type {other}"),
            ))
        }
    })
}

fn transaction_from_json(o: &Obj, path: &str, depth: u8) -> Result<TransactionPayload> {
    let essence_path = path_of(path, "essence");
    let e = object(required(o, "essence", path)?, &essence_path)?;
    let essence_type = field_integer(e, "type", 255, &essence_path)?;
    if essence_type != 1 {
        return Err(Error::new(
            Code::UnknownEssenceType,
            path_of(&essence_path, "type"),
            format!("unknown transaction essence type {essence_type}"),
        ));
    }
    let network_id = u64_decimal(
        required(e, "networkId", &essence_path)?,
        &path_of(&essence_path, "networkId"),
        Code::NetworkIdNotDecimal,
        Code::NetworkIdNotDecimal,
    )?;
    let inputs_path = path_of(&essence_path, "inputs");
    let inputs = capped(
        array(required(e, "inputs", &essence_path)?, &inputs_path)?,
        u16::MAX as usize,
        &inputs_path,
        Code::TooManyInputs,
    )?
    .iter()
    .enumerate()
    .map(|(i, v)| input_from_json(v, &path_at(&inputs_path, i)))
    .collect::<Result<Vec<_>>>()?;
    let inputs_commitment = field_fixed_hex(e, "inputsCommitment", &essence_path)?;
    let outputs_path = path_of(&essence_path, "outputs");
    let outputs = capped(
        array(required(e, "outputs", &essence_path)?, &outputs_path)?,
        u16::MAX as usize,
        &outputs_path,
        Code::TooManyOutputs,
    )?
    .iter()
    .enumerate()
    .map(|(i, v)| output_from_json_at(v, &path_at(&outputs_path, i)))
    .collect::<Result<Vec<_>>>()?;
    let payload = match optional(e, "payload") {
        None => None,
        Some(v) => Some(payload_at(v, &path_of(&essence_path, "payload"), depth + 1)?),
    };
    let unlocks_path = path_of(path, "unlocks");
    let unlocks = capped(
        array(required(o, "unlocks", path)?, &unlocks_path)?,
        u16::MAX as usize,
        &unlocks_path,
        Code::UnlocksCountMismatch,
    )?
    .iter()
    .enumerate()
    .map(|(i, v)| unlock_from_json(v, &path_at(&unlocks_path, i)))
    .collect::<Result<Vec<_>>>()?;
    Ok(TransactionPayload {
        essence: RegularEssence { network_id, inputs, inputs_commitment, outputs, payload },
        unlocks,
    })
}

/// A list whose wire count has a maximum; a longer one cannot be encoded and is reported
/// with the reason of the rule it breaks as well.
fn capped<'a>(items: &'a [Value], max: usize, path: &str, too_many: Code) -> Result<&'a [Value]> {
    if items.len() > max {
        return Err(Error::new(
            too_many,
            path,
            format!("at most {max} entries fit the wire format"),
        ));
    }
    Ok(items)
}

fn input_from_json(v: &Value, path: &str) -> Result<Input> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    match kind {
        0 => Ok(Input::Utxo {
            transaction_id: field_fixed_hex(o, "transactionId", path)?,
            output_index: field_integer(o, "transactionOutputIndex", u16::MAX as u64, path)? as u16,
        }),
        1 => Ok(Input::Treasury { milestone_id: field_fixed_hex(o, "milestoneId", path)? }),
        other => Err(Error::new(
            Code::UnknownInputType,
            path_of(path, "type"),
            format!("unknown input type {other}"),
        )),
    }
}

fn signature_from_json(v: &Value, path: &str) -> Result<Ed25519Signature> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    if kind != 0 {
        return Err(Error::new(
            Code::UnknownSignatureType,
            path_of(path, "type"),
            format!("unknown signature type {kind}"),
        ));
    }
    Ok(Ed25519Signature {
        public_key: field_fixed_hex(o, "publicKey", path)?,
        signature: field_fixed_hex(o, "signature", path)?,
    })
}

fn unlock_from_json(v: &Value, path: &str) -> Result<Unlock> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    let reference =
        || Ok::<u16, Error>(field_integer(o, "reference", u16::MAX as u64, path)? as u16);
    Ok(match kind {
        0 => Unlock::Signature(signature_from_json(
            required(o, "signature", path)?,
            &path_of(path, "signature"),
        )?),
        1 => Unlock::Reference(reference()?),
        2 => Unlock::Alias(reference()?),
        3 => Unlock::Nft(reference()?),
        other => {
            return Err(Error::new(
                Code::UnknownUnlockType,
                path_of(path, "type"),
                format!("unknown unlock type {other}"),
            ))
        }
    })
}

fn treasury_transaction_from_json(o: &Obj, path: &str) -> Result<TreasuryTransaction> {
    let input_path = path_of(path, "input");
    let output_path = path_of(path, "output");
    Ok(TreasuryTransaction {
        input: input_from_json(required(o, "input", path)?, &input_path)?,
        output: output_from_json_at(required(o, "output", path)?, &output_path)?,
    })
}

pub fn milestone_from_json(o: &Obj, path: &str) -> Result<MilestonePayload> {
    crate::path::precise(|| milestone_at(o, path, 1))
}

fn milestone_at(o: &Obj, path: &str, depth: u8) -> Result<MilestonePayload> {
    let ids = |key: &str| -> Result<Vec<Id32>> {
        let p = path_of(path, key);
        capped(array(required(o, key, path)?, &p)?, 255, &p, Code::ParentsTooMany)?
            .iter()
            .enumerate()
            .map(|(i, v)| fixed_hex(v, &path_at(&p, i)))
            .collect()
    };
    let options_path = path_of(path, "options");
    let options = capped(
        optional_array(o, "options", path)?,
        255,
        &options_path,
        Code::MilestoneOptionsDuplicate,
    )?
    .iter()
    .enumerate()
    .map(|(i, v)| option_from_json(v, &path_at(&options_path, i), depth))
    .collect::<Result<Vec<_>>>()?;
    let signatures_path = path_of(path, "signatures");
    let signatures = capped(
        optional_array(o, "signatures", path)?,
        255,
        &signatures_path,
        Code::NumberOutOfRange,
    )?
    .iter()
    .enumerate()
    .map(|(i, v)| signature_from_json(v, &path_at(&signatures_path, i)))
    .collect::<Result<Vec<_>>>()?;
    Ok(MilestonePayload {
        index: field_integer(o, "index", u32::MAX as u64, path)? as u32,
        timestamp: field_integer(o, "timestamp", u32::MAX as u64, path)? as u32,
        protocol_version: field_integer(o, "protocolVersion", 255, path)? as u8,
        previous_milestone_id: field_fixed_hex(o, "previousMilestoneId", path)?,
        parents: ids("parents")?,
        inclusion_merkle_root: field_fixed_hex(o, "inclusionMerkleRoot", path)?,
        applied_merkle_root: field_fixed_hex(o, "appliedMerkleRoot", path)?,
        metadata: bounded_hex(o, "metadata", path, u16::MAX as usize, Code::MetadataTooLong)?,
        options,
        signatures,
    })
}

fn option_from_json(v: &Value, path: &str, depth: u8) -> Result<MilestoneOption> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    match kind {
        0 => {
            let funds_path = path_of(path, "funds");
            let funds = capped(
                array(required(o, "funds", path)?, &funds_path)?,
                u16::MAX as usize,
                &funds_path,
                Code::ReceiptFundsCount,
            )?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let p = path_at(&funds_path, i);
                let f = object(v, &p)?;
                Ok(MigratedFundsEntry {
                    tail_transaction_hash: field_fixed_hex(f, "tailTransactionHash", &p)?,
                    address: address_from_json(
                        required(f, "address", &p)?,
                        &path_of(&p, "address"),
                    )?,
                    deposit: u64_decimal(
                        required(f, "deposit", &p)?,
                        &path_of(&p, "deposit"),
                        Code::AmountNotDecimal,
                        Code::AmountOverflowU64,
                    )?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
            let last = match required(o, "final", path)? {
                Value::Bool(b) => *b,
                _ => {
                    return Err(Error::new(
                        Code::InvalidType,
                        path_of(path, "final"),
                        "expected true or false",
                    ))
                }
            };
            let tx_path = path_of(path, "transaction");
            let transaction =
                match payload_at(required(o, "transaction", path)?, &tx_path, depth + 1)? {
                    Payload::TreasuryTransaction(t) => t,
                    other => {
                        return Err(Error::new(
                            Code::PayloadNotAllowedInReceipt,
                            path_of(&tx_path, "type"),
                            format!(
                                "a receipt carries a treasury transaction (type 4), not type {}",
                                other.type_code()
                            ),
                        ))
                    }
                };
            Ok(MilestoneOption::Receipt(ReceiptOption {
                migrated_at: field_integer(o, "migratedAt", u32::MAX as u64, path)? as u32,
                last,
                funds,
                transaction,
            }))
        }
        1 => Ok(MilestoneOption::ProtocolParameters {
            target_milestone_index: field_integer(o, "targetMilestoneIndex", u32::MAX as u64, path)?
                as u32,
            protocol_version: field_integer(o, "protocolVersion", 255, path)? as u8,
            params: bounded_hex(o, "params", path, u16::MAX as usize, Code::ParamsTooLong)?,
        }),
        other => Err(Error::new(
            Code::UnknownMilestoneOptionType,
            path_of(path, "type"),
            format!("unknown milestone option type {other}"),
        )),
    }
}
