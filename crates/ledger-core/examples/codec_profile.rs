//! Where encoding time goes: `cargo run --release --example codec_profile`.
use ledger_core::{codec, json};
use std::time::Instant;

fn main() {
    let path = format!("{}/../../vectors/valid.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let record: serde_json::Value = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["kind"] == "block" && r["bytes"].as_str().unwrap().len() / 2 > 1000 && r["bytes"].as_str().unwrap().len() / 2 < 1100)
        .unwrap();
    let block_text = record["json"].to_string();
    let n = 20000;
    let time = |name: &str, f: &dyn Fn()| {
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        println!("{name}: {:.2} µs", start.elapsed().as_secs_f64() * 1e6 / n as f64);
    };
    let value: serde_json::Value = serde_json::from_str(&block_text).unwrap();
    let block = json::block_from_json(&value).unwrap();
    time("parse text", &|| drop(serde_json::from_str::<serde_json::Value>(&block_text).unwrap()));
    time("from value", &|| drop(json::block_from_json(&value).unwrap()));
    time("encode", &|| drop(codec::encode_block(&block)));
}
