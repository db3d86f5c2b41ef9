//! Block rules (validation.md §2) and the dispatch to the payload rules (§3–§7).

use super::milestone::validate_milestone_at;
use super::ordering::{strictly_after, List};
use super::tagged_data::validate_tagged_data;
use super::transaction::validate_transaction_at;
use crate::error::{Code, Error, Result};
use crate::model::*;
use crate::pow;
use crate::protocol::ProtocolParameters;

pub const MIN_PARENTS: usize = 2;
/// The protocol's own minimum, which blocks received from peers follow (D40).
pub const MIN_PARENTS_RECEIVED: usize = 1;
pub const MAX_PARENTS: usize = 8;

/// Where a block comes from, for the one rule that depends on it (validation.md §2, D40):
/// the node's API and its own blocks keep D3's 2..8 parents; blocks received from peers
/// (gossip, and so any block of a followed network) follow the protocol's 1..8, since
/// Hornet's tip selection and coordinator issue blocks with a single parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockOrigin {
    Api,
    Peer,
}

impl BlockOrigin {
    pub fn min_parents(self) -> usize {
        match self {
            BlockOrigin::Api => MIN_PARENTS,
            BlockOrigin::Peer => MIN_PARENTS_RECEIVED,
        }
    }
}

/// All syntactic rules for a decoded block and its serialized bytes, as the API applies
/// them (`BlockOrigin::Api`). The PoW score is checked last, so a block that breaks a rule
/// is reported for that rule; milestone blocks are exempt from the score (their nonce rule
/// is `validate_milestone_block`).
pub fn validate_block(block: &Block, bytes: &[u8], params: &ProtocolParameters) -> Result<()> {
    validate_block_from(block, bytes, params, BlockOrigin::Api)
}

/// `validate_block` for a block of the given origin.
pub fn validate_block_from(
    block: &Block,
    bytes: &[u8],
    params: &ProtocolParameters,
    origin: BlockOrigin,
) -> Result<()> {
    crate::path::precise(|| validate_block_at(block, bytes, params, origin))
}

fn validate_block_at(
    block: &Block,
    bytes: &[u8],
    params: &ProtocolParameters,
    origin: BlockOrigin,
) -> Result<()> {
    if bytes.len() > MAX_BLOCK_LENGTH {
        return Err(Error::new(
            Code::BlockTooLarge,
            "",
            format!("the block takes {} bytes, at most {MAX_BLOCK_LENGTH}", bytes.len()),
        ));
    }
    if block.protocol_version != params.version {
        return Err(Error::new(
            Code::WrongProtocolVersion,
            "protocolVersion",
            format!(
                "protocol version {} is not this network's {}",
                block.protocol_version, params.version
            ),
        ));
    }
    match &block.payload {
        // D40: a milestone comes from a coordinator and follows the protocol's 1..8
        // (Hornet's milestones have one parent, and so has milestone 1 of a `hornet`-style
        // genesis, D41); every other block its origin's rule.
        Some(Payload::Milestone(_)) => {
            check_parents(&block.parents, MIN_PARENTS_RECEIVED, "parents")?
        }
        _ => check_parents(&block.parents, origin.min_parents(), "parents")?,
    }
    match &block.payload {
        None => {}
        Some(Payload::TaggedData(t)) => validate_tagged_data(t, "payload")?,
        Some(Payload::Transaction(tx)) => validate_transaction_at(tx, params, "payload")?,
        Some(Payload::Milestone(m)) => {
            // Nonce 0 and parents equal to the block's are checked where milestones are
            // issued and applied (`validate_milestone_block`): the reference library
            // accepts other values, and so do the conformance vectors.
            return validate_milestone_at(m, "payload");
        }
        Some(Payload::TreasuryTransaction(_)) => {
            return Err(Error::new(
                Code::PayloadNotAllowedInBlock,
                "payload.type",
                "a treasury transaction only exists inside a receipt",
            ))
        }
    }
    if params.min_pow_score == 0 {
        return Ok(());
    }
    check_pow_zeros(bytes.len(), pow::trailing_zeros(bytes), params.min_pow_score)
}

/// The proof-of-work rule for a block of `block_len` bytes whose PoW hash ends in `zeros`
/// zero trits (computed singly, or for many blocks at once with
/// `pow::trailing_zeros_many`): score = 3^zeros / length ≥ `min_pow_score`.
pub fn check_pow_zeros(block_len: usize, zeros: u32, min_pow_score: u32) -> Result<()> {
    if zeros >= pow::required_zeros(min_pow_score, block_len) {
        return Ok(());
    }
    let score = 3f64.powi(zeros as i32) / block_len as f64;
    Err(Error::new(
        Code::PowScoreTooLow,
        "nonce",
        format!("the proof-of-work score {score:.2} is below the minimum {min_pow_score}"),
    ))
}

/// 2..8 parents, strictly ascending byte-wise (D3); never re-sorted (D13).
pub fn validate_parents(parents: &[Id32], path: &str) -> Result<()> {
    check_parents(parents, MIN_PARENTS, path)
}

fn check_parents(parents: &[Id32], min: usize, path: &str) -> Result<()> {
    if parents.len() < min {
        return Err(Error::new(
            Code::ParentsTooFew,
            path,
            format!("{} parent(s), at least {min}", parents.len()),
        ));
    }
    if parents.len() > MAX_PARENTS {
        return Err(Error::new(
            Code::ParentsTooMany,
            path,
            format!("{} parents, at most {MAX_PARENTS}", parents.len()),
        ));
    }
    for i in 1..parents.len() {
        strictly_after(&parents[i - 1], &parents[i], List::Parents, || format!("{path}[{i}]"))?;
    }
    Ok(())
}
