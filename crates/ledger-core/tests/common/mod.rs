//! Reading the shared conformance vectors (../shared/vectors beside the checkout).
#![allow(dead_code)]

use serde_json::Value;

pub fn records(file: &str) -> Vec<Value> {
    let path = format!("{}/../../../shared/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
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
