//! Reading the conformance vectors (`vectors/` at the repository root; provenance in its README),
//! the spec's worked examples among them (`worked_examples`).
#![allow(dead_code)]

use serde_json::Value;

pub mod worked_examples;

/// A file of the repository's `vectors/` folder.
pub fn vector_path(file: &str) -> String {
    format!("{}/../../vectors/{file}", env!("CARGO_MANIFEST_DIR"))
}

pub fn records(file: &str) -> Vec<Value> {
    let path = vector_path(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn hex_of(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap().trim_start_matches("0x")).unwrap()
}
