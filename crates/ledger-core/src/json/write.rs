//! Canonical JSON forms of byte strings and numbers (wire-format §2).

use serde_json::Value;

pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 + bytes.len() * 2);
    s.push_str("0x");
    s.push_str(&hex::encode(bytes));
    s
}

/// u256 (little-endian on the wire) as `0x` + big-endian hex without leading zeros.
pub fn u256_to_json(le: &[u8; 32]) -> Value {
    let mut be = *le;
    be.reverse();
    let digits = hex::encode(be);
    let trimmed = digits.trim_start_matches('0');
    Value::String(format!("0x{}", if trimmed.is_empty() { "0" } else { trimmed }))
}
