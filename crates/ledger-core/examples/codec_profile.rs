//! Where encoding time goes, per stage, for a few vectors:
//! `cargo run --release --example codec_profile [name …]` (default: the receipt milestones
//! and a ~1 KB block).
use ledger_core::{codec, ids, json};
use std::hint::black_box;

/// CPU time of this thread, in seconds: on a shared machine wall time counts the waits for
/// a core too.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid out-pointer for clock_gettime.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn main() {
    let path = format!("{}/../../vectors/valid.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    // Each record with its block's JSON as written in the file: serde_json's Value would
    // sort the keys, and the direct reader takes `type` first as clients write it.
    let records: Vec<(serde_json::Value, &str)> = text
        .lines()
        .map(|l| (serde_json::from_str(l).unwrap(), l))
        .filter(|(r, _): &(serde_json::Value, &str)| r["kind"] == "block")
        .map(|(r, l)| {
            let start = l.find("\"json\":").unwrap() + 7;
            let end = l.find(",\"bytes\":").unwrap();
            (r, &l[start..end])
        })
        .collect();
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        names = [
            "block/milestone/receipt",
            "block/milestone/receipt-and-params-multi-sig",
            "block/milestone/no-options",
        ]
        .map(String::from)
        .to_vec();
        let (kb, _) = records
            .iter()
            .find(|(r, _)| (2000..2200).contains(&r["bytes"].as_str().unwrap().len()))
            .unwrap();
        names.push(kb["name"].as_str().unwrap().to_string());
    }
    for name in names {
        let (_, block_text) = records
            .iter()
            .find(|(r, _)| r["name"] == name.as_str())
            .unwrap_or_else(|| panic!("no vector {name}"));
        let block_text = block_text.to_string();
        let block = json::block_from_text(&block_text).unwrap();
        let bytes = codec::encode_block(&block);
        let n = 20000;
        let time = |stage: &str, f: &dyn Fn()| {
            let start = thread_cpu_seconds();
            for _ in 0..n {
                f();
            }
            println!("  {stage}: {:.2} µs of CPU", (thread_cpu_seconds() - start) * 1e6 / n as f64);
        };
        println!("{name} ({} B of JSON, {} B encoded)", block_text.len(), bytes.len());
        time("direct read", &|| {
            drop(black_box(json::block_from_text(black_box(&block_text)).unwrap()))
        });
        time("encode", &|| drop(black_box(codec::encode_block(black_box(&block)))));
        time("block id", &|| {
            black_box(ids::block_id(black_box(&bytes)));
        });
        time("utf-8 check", &|| {
            black_box(std::str::from_utf8(black_box(block_text.as_bytes())).unwrap());
        });
    }
}
