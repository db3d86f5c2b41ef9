//! Transaction payload rules (validation.md §4): essence, inputs, outputs, unlocks.

use super::output::{validate_output_at, MAX_NATIVE_TOKENS};
use super::tagged_data::validate_tagged_data;
use super::unlocks::validate_unlocks;
use crate::error::{Code, Error, Result};
use crate::ids;
use crate::model::*;
use crate::protocol::ProtocolParameters;
use std::collections::HashSet;

pub const MAX_INPUTS: usize = 128;
pub const MAX_OUTPUTS: usize = 128;

/// Every rule of a transaction payload on its own; error paths start at the payload
/// (`essence.outputs[2].amount`).
pub fn validate_transaction(tx: &TransactionPayload, params: &ProtocolParameters) -> Result<()> {
    crate::path::precise(|| validate_transaction_at(tx, params, ""))
}

/// `path` is the transaction payload's own path (`payload` inside a block).
pub(crate) fn validate_transaction_at(
    tx: &TransactionPayload,
    params: &ProtocolParameters,
    path: &str,
) -> Result<()> {
    let e = &tx.essence;
    let ep = crate::path::key(path, "essence");
    let expected = params.network_id();
    if e.network_id != expected {
        return Err(Error::new(
            Code::NetworkIdMismatch,
            format!("{ep}.networkId"),
            format!(
                "network id {} is not this network's {expected} ({})",
                e.network_id, params.network_name
            ),
        ));
    }
    inputs(&e.inputs, &crate::path::key(&ep, "inputs"))?;
    outputs(&e.outputs, params, &crate::path::key(&ep, "outputs"))?;
    match &e.payload {
        None => {}
        Some(Payload::TaggedData(t)) => validate_tagged_data(t, &crate::path::key(&ep, "payload"))?,
        Some(p) => {
            let (code, what) = match p {
                Payload::Milestone(_) => (Code::MilestoneInTransaction, "a milestone"),
                Payload::Transaction(_) => (Code::TransactionInTransaction, "a transaction"),
                _ => (Code::PayloadNotAllowedInTransaction, "a treasury transaction"),
            };
            return Err(Error::new(
                code,
                format!("{ep}.payload.type"),
                format!("{what} cannot be embedded in a transaction"),
            ));
        }
    }
    validate_unlocks(&tx.unlocks, e.inputs.len(), &crate::path::key(path, "unlocks"))
}

fn inputs(list: &[Input], path: &str) -> Result<()> {
    if list.is_empty() {
        return Err(Error::new(Code::NoInputs, path, "a transaction needs at least one input"));
    }
    if list.len() > MAX_INPUTS {
        return Err(Error::new(
            Code::TooManyInputs,
            path,
            format!("{} inputs, at most {MAX_INPUTS}", list.len()),
        ));
    }
    let mut seen = HashSet::with_capacity(list.len());
    for (i, input) in list.iter().enumerate() {
        match input {
            Input::Treasury { .. } => {
                return Err(Error::new(
                    Code::TreasuryInputInTransaction,
                    format!("{path}[{i}].type"),
                    "only UTXO inputs may be spent by a transaction",
                ))
            }
            Input::Utxo { output_index, .. } if *output_index as usize >= MAX_OUTPUTS => {
                return Err(Error::new(
                    Code::InvalidUtxoOutputIndex,
                    format!("{path}[{i}].transactionOutputIndex"),
                    format!("output index {output_index} is not below {MAX_OUTPUTS}"),
                ))
            }
            Input::Utxo { .. } => {
                if !seen.insert(*input) {
                    return Err(Error::new(
                        Code::DuplicateInputs,
                        format!("{path}[{i}]"),
                        "the same output is spent twice",
                    ));
                }
            }
        }
    }
    Ok(())
}

fn outputs(list: &[Output], params: &ProtocolParameters, path: &str) -> Result<()> {
    if list.is_empty() {
        return Err(Error::new(Code::NoOutputs, path, "a transaction needs at least one output"));
    }
    if list.len() > MAX_OUTPUTS {
        return Err(Error::new(
            Code::TooManyOutputs,
            path,
            format!("{} outputs, at most {MAX_OUTPUTS}", list.len()),
        ));
    }
    let mut sum: u64 = 0;
    let mut tokens = HashSet::new();
    let mut chains = HashSet::new();
    for (i, output) in list.iter().enumerate() {
        let at = crate::path::index(path, i);
        if let Output::Treasury { .. } = output {
            return Err(Error::new(
                Code::TreasuryOutputInTransaction,
                format!("{at}.type"),
                "a transaction cannot create a treasury output",
            ));
        }
        validate_output_at(output, params, &at)?;
        sum = match sum.checked_add(output.amount()) {
            Some(s) if s <= params.token_supply => s,
            _ => {
                return Err(Error::new(
                    Code::TransactionAmountSumExceedsSupply,
                    format!("{at}.amount"),
                    format!("the outputs together exceed the token supply {}", params.token_supply),
                ))
            }
        };
        for t in output.native_tokens() {
            tokens.insert(t.id);
        }
        if tokens.len() > MAX_NATIVE_TOKENS {
            return Err(Error::new(
                Code::TooManyNativeTokens,
                format!("{at}.nativeTokens"),
                format!("more than {MAX_NATIVE_TOKENS} distinct native tokens in one transaction"),
            ));
        }
        let chain: Option<Vec<u8>> = match output {
            Output::Alias(a) if a.alias_id != [0; 32] => Some([&[8u8][..], &a.alias_id].concat()),
            Output::Nft(n) if n.nft_id != [0; 32] => Some([&[16u8][..], &n.nft_id].concat()),
            Output::Foundry(f) => f.unlock_conditions.iter().find_map(|uc| match uc {
                UnlockCondition::ImmutableAliasAddress(Address::Alias(alias)) => {
                    Some(ids::foundry_id(alias, f.serial_number, 0).to_vec())
                }
                _ => None,
            }),
            _ => None,
        };
        if let Some(id) = chain {
            if !chains.insert(id) {
                return Err(Error::new(
                    Code::DuplicateOutputChain,
                    at,
                    "two outputs of one transaction carry the same alias, NFT or foundry",
                ));
            }
        }
    }
    Ok(())
}
