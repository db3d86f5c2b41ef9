//! The API's JSON both ways (wire-format §2, D14, D15): lenient where the spec says so on
//! input, canonical (Hornet's exact shapes, key order of the spec tables) on output.

pub mod direct;
mod output;
mod payload;
mod read;
mod scan;
pub mod text;
mod write;

pub use output::{address_from_json, output_from_json, output_from_json_at};
pub use payload::{milestone_from_json, payload_from_json};
pub use read::hex_str;
pub use write::{extend_hex, hex};

use crate::error::{Code, Error, Result};
use crate::model::*;
use read::*;
use serde_json::Value;

/// A block from API JSON text: the direct reader for the plain form clients write, the full
/// reader (a `Value` tree) for everything else and for every error (`direct.rs`).
pub fn block_from_text(text: &str) -> Result<Block> {
    match direct::block(text) {
        Some(block) => Ok(block),
        None => block_from_json(&parse(text)?),
    }
}

/// A payload from API JSON text (as `block_from_text`).
pub fn payload_from_text(text: &str) -> Result<Payload> {
    match direct::payload(text) {
        Some(payload) => Ok(payload),
        None => payload_from_json(&parse(text)?, ""),
    }
}

/// An output from API JSON text (as `block_from_text`).
pub fn output_from_text(text: &str) -> Result<Output> {
    match direct::output(text) {
        Some(output) => Ok(output),
        None => output_from_json(&parse(text)?),
    }
}

pub fn block_from_json(v: &Value) -> Result<Block> {
    crate::path::precise(|| block_from_json_at(v))
}

fn block_from_json_at(v: &Value) -> Result<Block> {
    let o = object(v, "")?;
    let protocol_version = field_integer(o, "protocolVersion", 255, "")? as u8;
    let parents_json = optional_array(o, "parents", "")?;
    if parents_json.len() > 255 {
        return Err(Error::new(
            Code::ParentsTooMany,
            "parents",
            "at most 255 parents fit the wire format",
        ));
    }
    let parents = parents_json
        .iter()
        .enumerate()
        .map(|(i, p)| fixed_hex(p, &path_at("parents", i)))
        .collect::<Result<Vec<_>>>()?;
    let payload = match optional(o, "payload") {
        None => None,
        Some(p) => Some(payload_from_json(p, "payload")?),
    };
    let nonce = nonce(o)?;
    Ok(Block { protocol_version, parents, payload, nonce })
}

/// The canonical JSON of a block as a value (written by `text`, the one emitter).
pub fn block_to_json(block: &Block) -> Value {
    from_text(&text::block(block))
}

pub fn payload_to_json(payload: &Payload) -> Value {
    from_text(&text::payload(payload))
}

pub fn output_to_json(output: &Output) -> Value {
    from_text(&text::output(output))
}

pub fn address_to_json(address: &Address) -> Value {
    from_text(&text::address(address))
}

/// A milestone payload object (`"type": 7`), as the milestone endpoints return it.
pub fn milestone_payload_from_json(v: &Value) -> Result<MilestonePayload> {
    match payload_from_json(v, "")? {
        Payload::Milestone(m) => Ok(*m),
        other => Err(Error::new(
            Code::UnexpectedPayloadType,
            "type",
            format!("expected a milestone payload (7), got type {}", other.type_code()),
        )),
    }
}

pub fn milestone_to_json(milestone: &MilestonePayload) -> Value {
    payload_to_json(&Payload::Milestone(Box::new(milestone.clone())))
}

fn from_text(text: &str) -> Value {
    serde_json::from_str(text).expect("the emitter writes valid JSON")
}

/// Parse JSON text into a value, reporting malformed text as a 400-style error.
pub fn parse(text: &str) -> Result<Value> {
    serde_json::from_str(text)
        .map_err(|e| Error::new(Code::InvalidJson, "", format!("malformed JSON: {e}")))
}
