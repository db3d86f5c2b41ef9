//! The spec's worked examples as data (wire-format.md §9: the keys and Examples A, B, C;
//! ledger.md §7.4: Example D, milestone 2): `vectors/worked-examples.json`, compiled into
//! the test binary. Fields are named by JSON pointer, e.g. `hex_str("/C/extra/transactionId")`.
//! One reader for every Rust test that needs them: ledger-core's integration tests
//! (`common`), its unit tests (`lib.rs`) and ledger-store's tests (their `common`).
#![allow(dead_code)]

use serde_json::Value;
use std::sync::OnceLock;

/// The whole file, parsed once.
pub fn worked_examples() -> &'static Value {
    static PARSED: OnceLock<Value> = OnceLock::new();
    PARSED.get_or_init(|| {
        serde_json::from_str(include_str!("../../../../vectors/worked-examples.json"))
            .expect("vectors/worked-examples.json is JSON")
    })
}

/// The value at `pointer`; a missing field fails the test, naming it.
pub fn field(pointer: &str) -> &'static Value {
    worked_examples()
        .pointer(pointer)
        .unwrap_or_else(|| panic!("vectors/worked-examples.json has no {pointer}"))
}

/// A string field, e.g. a bech32 address.
pub fn text(pointer: &str) -> &'static str {
    field(pointer).as_str().unwrap_or_else(|| panic!("{pointer} is not a string"))
}

/// A number field, e.g. a milestone's timestamp.
pub fn number(pointer: &str) -> u64 {
    field(pointer).as_u64().unwrap_or_else(|| panic!("{pointer} is not a u64"))
}

/// A hex field as the spec prints it: lower-case, without its `0x`.
pub fn hex_str(pointer: &str) -> &'static str {
    text(pointer).strip_prefix("0x").unwrap_or_else(|| panic!("{pointer} has no 0x"))
}

/// A hex field's bytes.
pub fn hex_bytes(pointer: &str) -> Vec<u8> {
    hex::decode(hex_str(pointer)).unwrap()
}

/// A 32-byte hex field (an id, a key, a seed, a hash).
pub fn hex32(pointer: &str) -> [u8; 32] {
    hex_bytes(pointer).try_into().unwrap_or_else(|_| panic!("{pointer} is not 32 bytes"))
}

/// The bytes of Example `name` ("A", "B", "C" or "D").
pub fn block(name: &str) -> Vec<u8> {
    hex_bytes(&format!("/{name}/bytes"))
}
