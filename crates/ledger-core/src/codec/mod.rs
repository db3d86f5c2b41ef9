//! Binary codec (wire-format.md): strict decoding of untrusted bytes and canonical encoding.
//!
//! Decoding checks structure only — lengths, counts, type codes, trailing bytes — and never
//! sizes an allocation by an unchecked count. Whether a well-formed object is *allowed*
//! (sorted lists, amounts, which payload where) is decided by `validate`.
//!
//! One file per wire object: block, payload (slot and dispatch, tagged data), transaction
//! (essence and unlocks), input, output (+ native_token, unlock_condition, feature,
//! output_len), address, signature, milestone (+ milestone_option), treasury, and the
//! protocol parameters blob. `reader` is the bounds-checked cursor, `writer` the LE writer.

mod address;
mod block;
mod feature;
mod input;
mod milestone;
mod milestone_option;
mod native_token;
mod output;
mod output_len;
mod payload;
mod protocol_params;
mod reader;
mod signature;
mod transaction;
mod treasury;
mod unlock_condition;
mod writer;

pub use protocol_params::{decode_protocol_parameters, encode_protocol_parameters};
pub use reader::Reader;

use crate::error::{Code, Error, Result};
use crate::model::*;
use writer::Write;

pub fn encode_block(block: &Block) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    block::write_block(&mut out, block);
    out
}

/// Encode into `out` (cleared first): a caller encoding many blocks reuses one buffer.
pub fn encode_block_into(out: &mut Vec<u8>, block: &Block) {
    out.clear();
    block::write_block(out, block);
}

/// Strict decoding of a whole block; errors name the field (`payload.essence.inputs[0].type`).
pub fn decode_block(bytes: &[u8]) -> Result<Block> {
    crate::path::precise(|| block::read_block(bytes))
}

/// The first fields of a serialized block (wire-format §5), read without its payload: what
/// a node needs to know of a peer's bytes before it validates them — which parents to
/// look for, and whether the payload is a milestone (`ledger-sync`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockHeader {
    pub protocol_version: u8,
    pub parents: Vec<Id32>,
    /// The payload's type code (`Payload::MILESTONE`, …); None without a payload, or when
    /// the bytes end before it.
    pub payload_type: Option<u32>,
}

impl BlockHeader {
    pub fn carries_milestone(&self) -> bool {
        self.payload_type == Some(Payload::MILESTONE)
    }
}

/// The header of a block: an error only when the bytes end before the last parent. It
/// checks nothing else (not the size, the version, the parents' order or the payload,
/// which may be anything): `decode_block` and `validate` judge the whole block.
pub fn decode_block_header(bytes: &[u8]) -> Result<BlockHeader> {
    block::read_block_header(bytes)
}

/// A payload with its u32 type code (no slot length).
pub fn encode_payload(p: &Payload) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    payload::write_payload(&mut out, p);
    out
}

/// A bare payload as it sits inside a slot: type code first, nothing after it.
pub fn decode_payload(bytes: &[u8]) -> Result<Payload> {
    crate::path::precise(|| {
        block::check_size(bytes, "a payload")?;
        let mut r = Reader::for_payload(bytes);
        let value = payload::read_payload(&mut r, "")?;
        r.finish("")?;
        Ok(value)
    })
}

/// Essence bytes from the type byte `01` through its payload slot: what signatures sign.
pub fn encode_essence(essence: &RegularEssence) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    transaction::write_essence(&mut out, essence);
    out
}

pub fn encode_output(o: &Output) -> Vec<u8> {
    let mut out = Vec::with_capacity(output_len::output_len(o));
    output::write_output(&mut out, o);
    out
}

/// Serialized length of an output, without allocating (storage deposit).
pub fn output_len(o: &Output) -> usize {
    output_len::output_len(o)
}

pub fn decode_output(bytes: &[u8]) -> Result<Output> {
    crate::path::precise(|| whole(bytes, "an output", |r| output::read_output(r, "")))
}

/// Fields 2–10 of wire-format §8 (index through options): the milestone id hashes these.
pub fn encode_milestone_essence(m: &MilestonePayload) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    milestone::write_milestone_essence(&mut out, m);
    out
}

/// The milestone payload with its type code 7 and signatures (what the milestone endpoints
/// return as bytes).
pub fn encode_milestone_payload(m: &MilestonePayload) -> Vec<u8> {
    let mut out = Vec::with_capacity(512);
    out.u32(7);
    milestone::write_milestone(&mut out, m);
    out
}

/// One milestone option as it sits in a milestone (type byte first): how the store keeps a
/// receipt.
pub fn encode_milestone_option(o: &MilestoneOption) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    milestone_option::write_option(&mut out, o);
    out
}

/// A milestone option from exactly these bytes.
pub fn decode_milestone_option(bytes: &[u8]) -> Result<MilestoneOption> {
    let mut r = Reader::new(bytes);
    let option = milestone_option::read_option(&mut r, "")?;
    r.finish("")?;
    Ok(option)
}

pub fn decode_milestone_payload(bytes: &[u8]) -> Result<MilestonePayload> {
    match decode_payload(bytes)? {
        Payload::Milestone(m) => Ok(*m),
        other => Err(Error::new(
            Code::UnexpectedPayloadType,
            "type",
            format!("expected a milestone payload (7), got type {}", other.type_code()),
        )),
    }
}

/// Read one object that must take exactly all of `bytes`.
fn whole<T>(bytes: &[u8], what: &str, read: impl Fn(&mut Reader) -> Result<T>) -> Result<T> {
    block::check_size(bytes, what)?;
    let mut r = Reader::new(bytes);
    let value = read(&mut r)?;
    r.finish("")?;
    Ok(value)
}
