//! The rules of validation.md: syntactic (§2–§7), storage deposit (§6) and semantic (§8).
//!
//! `validate_block` is what the node runs on every submitted block: everything that can be
//! judged from the block's own bytes and the protocol parameters, each failure with a
//! stable reason code and the JSON path of the offending field. Parent existence and the
//! "no milestones over the API" rule belong to the node; semantic checks to white flag.

pub mod deposit;
mod milestone;
mod output;
pub mod semantic;
mod transaction;
pub mod u256;

pub use milestone::validate_milestone;
pub use output::validate_output;
pub use transaction::validate_transaction;

use crate::error::{Error, Result};
use crate::model::*;
use crate::pow;
use crate::protocol::ProtocolParameters;

pub const MIN_PARENTS: usize = 2;
pub const MAX_PARENTS: usize = 8;

/// All syntactic rules for a decoded block and its serialized bytes. The PoW score is
/// checked last, so a block that breaks a rule is reported for that rule; milestone
/// blocks are exempt from the score.
pub fn validate_block(block: &Block, bytes: &[u8], params: &ProtocolParameters) -> Result<()> {
    crate::path::precise(|| validate_block_at(block, bytes, params))
}

fn validate_block_at(block: &Block, bytes: &[u8], params: &ProtocolParameters) -> Result<()> {
    if bytes.len() > MAX_BLOCK_LENGTH {
        return Err(Error::new(
            "block-too-large",
            "",
            format!("the block takes {} bytes, at most {MAX_BLOCK_LENGTH}", bytes.len()),
        ));
    }
    if block.protocol_version != params.version {
        return Err(Error::new(
            "wrong-protocol-version",
            "protocolVersion",
            format!("protocol version {} is not this network's {}", block.protocol_version, params.version),
        ));
    }
    validate_parents(&block.parents, "parents")?;
    match &block.payload {
        None => {}
        Some(Payload::TaggedData(t)) => {
            if t.tag.len() > output::MAX_TAG_LENGTH {
                return Err(Error::new(
                    "tag-too-long",
                    "payload.tag",
                    format!("{} bytes, at most {}", t.tag.len(), output::MAX_TAG_LENGTH),
                ));
            }
        }
        Some(Payload::Transaction(tx)) => validate_transaction(tx, params, "payload")?,
        Some(Payload::Milestone(m)) => {
            // Nonce 0 and parents equal to the block's are checked where milestones are
            // applied: the reference library accepts other values, and so do the vectors.
            validate_milestone(m, "payload")?;
            return Ok(());
        }
        Some(Payload::TreasuryTransaction(_)) => {
            return Err(Error::new(
                "payload-not-allowed-in-block",
                "payload.type",
                "a treasury transaction only exists inside a receipt",
            ))
        }
    }
    if !pow::meets_min_score(bytes, params.min_pow_score) {
        return Err(Error::new(
            "pow-score-too-low",
            "nonce",
            format!("the proof-of-work score {:.2} is below the minimum {}", pow::score(bytes), params.min_pow_score),
        ));
    }
    Ok(())
}

/// 2..8 parents, strictly ascending byte-wise (D3); never re-sorted (D13).
pub fn validate_parents(parents: &[Id32], path: &str) -> Result<()> {
    if parents.len() < MIN_PARENTS {
        return Err(Error::new("parents-too-few", path, format!("{} parent(s), at least {MIN_PARENTS}", parents.len())));
    }
    if parents.len() > MAX_PARENTS {
        return Err(Error::new("parents-too-many", path, format!("{} parents, at most {MAX_PARENTS}", parents.len())));
    }
    for i in 1..parents.len() {
        output::strictly_after(&parents[i - 1], &parents[i], "parents", &crate::path::index(path, i))?;
    }
    Ok(())
}
