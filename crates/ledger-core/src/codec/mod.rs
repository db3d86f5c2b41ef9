//! Binary codec (wire-format.md): strict decoding of untrusted bytes and canonical encoding.
//!
//! Decoding checks structure only — lengths, counts, type codes, trailing bytes — and never
//! sizes an allocation by an unchecked count. Whether a well-formed object is *allowed*
//! (sorted lists, amounts, which payload where) is decided by `validate`.

mod address;
mod milestone;
mod output;
mod payload;
mod protocol_params;
mod reader;
mod writer;

pub use protocol_params::{decode_protocol_parameters, encode_protocol_parameters};
pub use reader::Reader;

use crate::error::{Error, Result};
use crate::model::*;
use reader::{at, field};
use writer::Write;

pub fn encode_block(block: &Block) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    out.u8(block.protocol_version);
    out.u8(block.parents.len() as u8);
    for p in &block.parents {
        out.bytes(p);
    }
    payload::write_payload_slot(&mut out, block.payload.as_ref());
    out.u64(block.nonce);
    out
}

pub fn decode_block(bytes: &[u8]) -> Result<Block> {
    crate::path::precise(|| decode_block_at(bytes))
}

fn decode_block_at(bytes: &[u8]) -> Result<Block> {
    if bytes.len() > MAX_BLOCK_LENGTH {
        return Err(Error::new(
            "block-too-large",
            "",
            format!("a block has at most {MAX_BLOCK_LENGTH} bytes, got {}", bytes.len()),
        ));
    }
    let mut r = Reader::new(bytes);
    let protocol_version = r.u8("protocolVersion")?;
    let count = r.u8("parents")? as usize;
    r.check_len(count, 32, "parents")?;
    let mut parents = Vec::with_capacity(count);
    for i in 0..count {
        parents.push(r.array(&at("parents", i))?);
    }
    let payload = payload::read_payload_slot(&mut r, "payload")?;
    let nonce = r.u64("nonce")?;
    r.finish("")?;
    Ok(Block { protocol_version, parents, payload, nonce })
}

/// A payload with its u32 type code (no slot length).
pub fn encode_payload(p: &Payload) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    payload::write_payload(&mut out, p);
    out
}

pub fn decode_payload(bytes: &[u8]) -> Result<Payload> {
    crate::path::precise(|| decode_payload_at(bytes))
}

fn decode_payload_at(bytes: &[u8]) -> Result<Payload> {
    if bytes.len() > MAX_BLOCK_LENGTH {
        return Err(Error::new("block-too-large", "", "a payload cannot exceed the block size limit"));
    }
    let mut r = Reader::new(bytes);
    let p = payload::read_payload(&mut r, "")?;
    r.finish("")?;
    Ok(p)
}

pub fn encode_essence(essence: &RegularEssence) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    payload::write_essence(&mut out, essence);
    out
}

pub fn encode_output(o: &Output) -> Vec<u8> {
    let mut out = Vec::with_capacity(output::output_len(o));
    output::write_output(&mut out, o);
    out
}

pub fn output_len(o: &Output) -> usize {
    output::output_len(o)
}

pub fn decode_output(bytes: &[u8]) -> Result<Output> {
    crate::path::precise(|| decode_output_at(bytes))
}

fn decode_output_at(bytes: &[u8]) -> Result<Output> {
    if bytes.len() > MAX_BLOCK_LENGTH {
        return Err(Error::new("block-too-large", "", "an output cannot exceed the block size limit"));
    }
    let mut r = Reader::new(bytes);
    let o = output::read_output(&mut r, "")?;
    r.finish("")?;
    Ok(o)
}

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

pub fn decode_milestone_payload(bytes: &[u8]) -> Result<MilestonePayload> {
    match decode_payload(bytes)? {
        Payload::Milestone(m) => Ok(*m),
        other => Err(Error::new(
            "unexpected-payload-type",
            field("", "type"),
            format!("expected a milestone payload (7), got type {}", other.type_code()),
        )),
    }
}
