//! The API's JSON both ways (wire-format §2, D14, D15): lenient where the spec says so on
//! input, canonical (Hornet's exact shapes, key order of the spec tables) on output.

mod output;
mod payload;
mod read;
mod write;

pub use output::{address_from_json, address_to_json, output_from_json, output_from_json_at, output_to_json};
pub use payload::{milestone_from_json, milestone_to_json, payload_from_json, payload_to_json};
pub use write::hex;

use crate::error::{Error, Result};
use crate::model::*;
use read::*;
use serde_json::{json, Map, Value};

pub fn block_from_json(v: &Value) -> Result<Block> {
    crate::path::precise(|| block_from_json_at(v))
}

fn block_from_json_at(v: &Value) -> Result<Block> {
    let o = object(v, "")?;
    let protocol_version = field_integer(o, "protocolVersion", 255, "")? as u8;
    let parents_json = optional_array(o, "parents", "")?;
    if parents_json.len() > 255 {
        return Err(Error::new("parents-too-many", "parents", "at most 255 parents fit the wire format"));
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

pub fn block_to_json(block: &Block) -> Value {
    let mut m = Map::new();
    m.insert("protocolVersion".into(), json!(block.protocol_version));
    m.insert("parents".into(), Value::Array(block.parents.iter().map(|p| json!(hex(p))).collect()));
    if let Some(p) = &block.payload {
        m.insert("payload".into(), payload_to_json(p));
    }
    m.insert("nonce".into(), json!(block.nonce.to_string()));
    Value::Object(m)
}

/// Parse JSON text into a value, reporting malformed text as a 400-style error.
pub fn parse(text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::new("invalid-json", "", format!("malformed JSON: {e}")))
}
