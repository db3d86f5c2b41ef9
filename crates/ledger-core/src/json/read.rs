//! Reading typed values out of untrusted JSON, each failure named by reason and path.
//! Leniency follows wire-format §2 and D14/D15; everything else is rejected.

use crate::error::{Code, Error, Result};
use serde_json::{Map, Value};

pub type Obj = Map<String, Value>;

pub use crate::path::{index as path_at, key as path_of};

pub fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Obj> {
    v.as_object().ok_or_else(|| Error::new(Code::InvalidType, path, "expected a JSON object"))
}

pub fn required<'a>(o: &'a Obj, key: &str, path: &str) -> Result<&'a Value> {
    match o.get(key) {
        Some(v) if !v.is_null() => Ok(v),
        _ => {
            Err(Error::new(Code::MissingField, path_of(path, key), format!("`{key}` is required")))
        }
    }
}

/// A key that may be absent or null.
pub fn optional<'a>(o: &'a Obj, key: &str) -> Option<&'a Value> {
    o.get(key).filter(|v| !v.is_null())
}

pub fn array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>> {
    v.as_array().ok_or_else(|| Error::new(Code::InvalidType, path, "expected a JSON array"))
}

/// An optional list: absent, null or [] are all "empty".
pub fn optional_array<'a>(o: &'a Obj, key: &str, path: &str) -> Result<&'a [Value]> {
    match optional(o, key) {
        None => Ok(&[]),
        Some(v) => Ok(array(v, &path_of(path, key))?.as_slice()),
    }
}

/// A JSON integer within 0..=max (u8, u16, u32 fields and type codes).
pub fn integer(v: &Value, max: u64, path: &str) -> Result<u64> {
    let n = match v {
        Value::Number(n) => n,
        _ => return Err(Error::new(Code::InvalidType, path, "expected a JSON integer")),
    };
    match n.as_u64() {
        Some(x) if x <= max => Ok(x),
        Some(x) => {
            Err(Error::new(Code::NumberOutOfRange, path, format!("{x} is larger than {max}")))
        }
        None if n.is_i64() => {
            Err(Error::new(Code::NumberOutOfRange, path, format!("{n} is negative")))
        }
        None => Err(Error::new(Code::InvalidType, path, format!("{n} is not an integer"))),
    }
}

pub fn field_integer(o: &Obj, key: &str, max: u64, path: &str) -> Result<u64> {
    integer(required(o, key, path)?, max, &path_of(path, key))
}

const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A u64 as a decimal string (canonical) or a JSON integer ≤ 2^53−1 (D15).
/// `not_decimal` / `overflow` are the reason codes for this field's kind.
pub fn u64_decimal(v: &Value, path: &str, not_decimal: Code, overflow: Code) -> Result<u64> {
    match v {
        Value::String(s) => parse_decimal(s, path, not_decimal, overflow),
        Value::Number(n) => match n.as_u64() {
            Some(x) if x <= MAX_SAFE_INTEGER => Ok(x),
            Some(_) => Err(Error::new(
                not_decimal,
                path,
                "integers above 2^53-1 lose precision in JSON; send a decimal string",
            )),
            None => Err(Error::new(not_decimal, path, format!("{n} is not an unsigned integer"))),
        },
        _ => Err(Error::new(not_decimal, path, "expected a decimal string")),
    }
}

pub fn parse_decimal(s: &str, path: &str, not_decimal: Code, overflow: Code) -> Result<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::new(
            not_decimal,
            path,
            format!("{:?} is not a decimal number", truncate(s)),
        ));
    }
    s.parse::<u64>().map_err(|_| {
        Error::new(
            overflow,
            path,
            format!("{} does not fit an unsigned 64-bit integer", truncate(s)),
        )
    })
}

fn truncate(s: &str) -> String {
    if s.len() > 40 {
        format!("{}…", &s[..s.char_indices().nth(40).map(|(i, _)| i).unwrap_or(s.len())])
    } else {
        s.to_string()
    }
}

/// `0x`-prefixed hex of raw bytes (wire order); upper-case digits accepted.
pub fn hex_bytes(v: &Value, path: &str) -> Result<Vec<u8>> {
    let s = v
        .as_str()
        .ok_or_else(|| Error::new(Code::InvalidType, path, "expected a 0x-prefixed hex string"))?;
    hex_str(s, path)
}

pub fn hex_str(s: &str, path: &str) -> Result<Vec<u8>> {
    let digits = match s.strip_prefix("0x") {
        Some(d) => d,
        None if s.starts_with("0X") => {
            return Err(Error::new(
                Code::Uppercase0XPrefix,
                path,
                "hex must start with a lower-case 0x",
            ))
        }
        None => return Err(Error::new(Code::Missing0x, path, "hex must start with 0x")),
    };
    if digits.len() % 2 != 0 {
        return Err(Error::new(
            Code::OddHexLength,
            path,
            format!("{} hex digits is not a whole number of bytes", digits.len()),
        ));
    }
    hex::decode(digits)
        .map_err(|_| Error::new(Code::BadHex, path, "contains a character that is not a hex digit"))
}

/// Optional byte string: absent, null, "" and "0x" are all empty (D15).
pub fn optional_hex(o: &Obj, key: &str, path: &str) -> Result<Vec<u8>> {
    match optional(o, key) {
        None => Ok(Vec::new()),
        Some(Value::String(s)) if s.is_empty() => Ok(Vec::new()),
        Some(v) => hex_bytes(v, &path_of(path, key)),
    }
}

pub fn fixed_hex<const N: usize>(v: &Value, path: &str) -> Result<[u8; N]> {
    let bytes = hex_bytes(v, path)?;
    let len = bytes.len();
    bytes.try_into().map_err(|_| {
        Error::new(Code::WrongIdLength, path, format!("expected {N} bytes, got {len}"))
    })
}

pub fn field_fixed_hex<const N: usize>(o: &Obj, key: &str, path: &str) -> Result<[u8; N]> {
    fixed_hex(required(o, key, path)?, &path_of(path, key))
}

/// u256 as `0x` + big-endian hex of the value (leading zeros and upper case accepted),
/// returned little-endian as on the wire.
pub fn u256(v: &Value, path: &str, not_hex: Code, overflow: Code) -> Result<[u8; 32]> {
    let s =
        v.as_str().ok_or_else(|| Error::new(not_hex, path, "expected a 0x-prefixed hex number"))?;
    let digits = s
        .strip_prefix("0x")
        .ok_or_else(|| Error::new(not_hex, path, "expected a 0x-prefixed hex number"))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::new(not_hex, path, "expected a 0x-prefixed hex number"));
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 64 {
        return Err(Error::new(overflow, path, "does not fit an unsigned 256-bit integer"));
    }
    let mut out = [0u8; 32];
    // Walk the digits from the least significant end.
    for (i, c) in significant.bytes().rev().enumerate() {
        let nibble = (c as char).to_digit(16).expect("checked") as u8;
        out[i / 2] |= nibble << (4 * (i % 2));
    }
    Ok(out)
}

/// The JSON nonce (D14): decimal string, or `0x` hex of the number; absent, "" and "0" are 0.
pub fn nonce(o: &Obj) -> Result<u64> {
    match optional(o, "nonce") {
        None => Ok(0),
        Some(Value::String(s)) if s.is_empty() => Ok(0),
        Some(Value::String(s)) => {
            if let Some(hex_digits) = s.strip_prefix("0x") {
                if hex_digits.is_empty()
                    || hex_digits.len() > 16
                    || !hex_digits.bytes().all(|b| b.is_ascii_hexdigit())
                {
                    let reason = if hex_digits.len() > 16
                        && hex_digits.bytes().all(|b| b.is_ascii_hexdigit())
                    {
                        Code::NonceOverflowU64
                    } else {
                        Code::NonceNotDecimal
                    };
                    return Err(Error::new(
                        reason,
                        "nonce",
                        "a hex nonce is 0x followed by 1 to 16 hex digits",
                    ));
                }
                return Ok(u64::from_str_radix(hex_digits, 16).expect("checked"));
            }
            parse_decimal(s, "nonce", Code::NonceNotDecimal, Code::NonceOverflowU64)
        }
        Some(_) => Err(Error::new(Code::NonceNotDecimal, "nonce", "the nonce is a decimal string")),
    }
}
