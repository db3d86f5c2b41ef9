//! Milestone payload rules that need no ledger state (validation.md §7): structure,
//! options, receipts and signature ordering. Equality with the block's parents, index
//! continuity, roots and signature validity against the coordinator keys are the ledger's
//! checks: the reference client library accepts milestone payloads whose parents differ
//! from their block's, and so do the conformance vectors.

use crate::error::{Code, Error, Result};
use crate::model::*;

pub const MAX_METADATA_LENGTH: usize = 8192;
pub const MIN_MIGRATED_FUNDS_DEPOSIT: u64 = 1_000_000;
pub const MAX_RECEIPT_FUNDS: usize = 128;

/// The rules of a milestone payload on its own; error paths start at the payload
/// (`signatures[1].publicKey`).
pub fn validate_milestone(m: &MilestonePayload) -> Result<()> {
    crate::path::precise(|| validate_milestone_at(m, ""))
}

/// The rules only a milestone's block has (validation.md §2, §7): nonce 0, protocol
/// version 2 and parents byte-identical to the block's. The coordinator checks its own
/// blocks with this before storing them, and the node would for any milestone block it
/// did not reject outright (D16). Not part of `validate_block`: the conformance vectors
/// hold well-formed milestone blocks with other nonces.
pub fn validate_milestone_block(block: &Block) -> Result<()> {
    let Some(Payload::Milestone(m)) = &block.payload else {
        return Err(Error::new(
            Code::NotAMilestoneBlock,
            "payload",
            "the block carries no milestone payload",
        ));
    };
    validate_milestone_at(m, "payload")?;
    if m.protocol_version != PROTOCOL_VERSION {
        return Err(Error::new(
            Code::MilestoneProtocolVersionMismatch,
            "payload.protocolVersion",
            format!("milestone protocol version {} is not {PROTOCOL_VERSION}", m.protocol_version),
        ));
    }
    if m.index == 0 {
        return Err(Error::new(
            Code::MilestoneIndexZero,
            "payload.index",
            "milestone indexes start at 1",
        ));
    }
    if m.parents != block.parents {
        return Err(Error::new(
            Code::MilestoneParentsMismatch,
            "payload.parents",
            "a milestone's parents are its block's parents",
        ));
    }
    if block.nonce != 0 {
        return Err(Error::new(
            Code::MilestoneNonceNotZero,
            "nonce",
            "a milestone block has nonce 0",
        ));
    }
    Ok(())
}

/// `path` is the payload's own path (`payload` inside a block).
pub(crate) fn validate_milestone_at(m: &MilestonePayload, path: &str) -> Result<()> {
    if m.metadata.len() > MAX_METADATA_LENGTH {
        return Err(Error::new(
            Code::MetadataTooLong,
            crate::path::key(path, "metadata"),
            "milestone metadata is at most 8192 bytes",
        ));
    }
    let options_path = crate::path::key(path, "options");
    let kind = |o: &MilestoneOption| match o {
        MilestoneOption::Receipt(_) => 0u8,
        MilestoneOption::ProtocolParameters { .. } => 1,
    };
    for i in 1..m.options.len() {
        if kind(&m.options[i - 1]) >= kind(&m.options[i]) {
            return Err(Error::new(
                Code::MilestoneOptionsDuplicate,
                format!("{options_path}[{i}].type"),
                "milestone options must be unique and ascending by type",
            ));
        }
    }
    for (i, option) in m.options.iter().enumerate() {
        let at = crate::path::index(&options_path, i);
        match option {
            MilestoneOption::Receipt(r) => receipt(r, &at)?,
            // The target index window (index < target ≤ index + 30) depends on the milestone
            // being applied and is checked there; the reference library does not check it.
            MilestoneOption::ProtocolParameters { params, .. } => {
                if params.len() > MAX_METADATA_LENGTH {
                    return Err(Error::new(
                        Code::ParamsTooLong,
                        format!("{at}.params"),
                        "parameters are at most 8192 bytes",
                    ));
                }
            }
        }
    }
    let sig_path = crate::path::key(path, "signatures");
    if m.signatures.is_empty() {
        return Err(Error::new(
            Code::MilestoneNoSignatures,
            sig_path,
            "a milestone needs at least one signature",
        ));
    }
    for i in 1..m.signatures.len() {
        if m.signatures[i - 1].public_key >= m.signatures[i].public_key {
            return Err(Error::new(
                Code::MilestoneSignaturesUnsorted,
                format!("{sig_path}[{i}].publicKey"),
                "signatures must be unique and ascending by public key",
            ));
        }
    }
    Ok(())
}

fn receipt(r: &ReceiptOption, path: &str) -> Result<()> {
    let funds_path = crate::path::key(path, "funds");
    if r.funds.is_empty() || r.funds.len() > MAX_RECEIPT_FUNDS {
        return Err(Error::new(
            Code::ReceiptFundsCount,
            funds_path,
            format!("{} entries, a receipt has 1 to {MAX_RECEIPT_FUNDS}", r.funds.len()),
        ));
    }
    for (i, entry) in r.funds.iter().enumerate() {
        let at = crate::path::index(&funds_path, i);
        if i > 0 && r.funds[i - 1].tail_transaction_hash >= entry.tail_transaction_hash {
            return Err(Error::new(
                Code::ReceiptFundsUnsorted,
                format!("{at}.tailTransactionHash"),
                "entries must be unique and ascending by tail transaction hash",
            ));
        }
        // 243 trits in t5b1: each byte is a signed value of five trits, -121..=121.
        if entry.tail_transaction_hash.iter().any(|&b| (b as i8).unsigned_abs() > 121) {
            return Err(Error::new(
                Code::InvalidTailTransactionHash,
                format!("{at}.tailTransactionHash"),
                "not a valid t5b1-encoded ternary hash",
            ));
        }
        if !matches!(entry.address, Address::Ed25519(_)) {
            return Err(Error::new(
                Code::MigratedFundsAddressNotEd25519,
                format!("{at}.address"),
                "migrated funds go to an Ed25519 address",
            ));
        }
        if entry.deposit < MIN_MIGRATED_FUNDS_DEPOSIT {
            return Err(Error::new(
                Code::MigratedFundsBelowMinimum,
                format!("{at}.deposit"),
                format!(
                    "{} is below the minimum migrated deposit {MIN_MIGRATED_FUNDS_DEPOSIT}",
                    entry.deposit
                ),
            ));
        }
    }
    let tx_path = crate::path::key(path, "transaction");
    if !matches!(r.transaction.input, Input::Treasury { .. }) {
        return Err(Error::new(
            Code::InvalidTreasuryTransaction,
            format!("{tx_path}.input"),
            "a treasury transaction spends a treasury input",
        ));
    }
    if !matches!(r.transaction.output, Output::Treasury { .. }) {
        return Err(Error::new(
            Code::InvalidTreasuryTransaction,
            format!("{tx_path}.output"),
            "a treasury transaction creates a treasury output",
        ));
    }
    Ok(())
}
