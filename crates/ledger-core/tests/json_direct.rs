//! The direct JSON reader (`json/direct.rs`) against the full reader (serde_json `Value`
//! and `json::*_from_json`), its oracle: on every vector and on random mutations of them,
//! whatever the direct reader accepts the full reader accepts as the same object, and
//! `*_from_text` (direct first, full otherwise) answers exactly what the full reader
//! answers — the same object, or the same error code, path and detail.

mod common;
mod generator;

use common::*;
use ledger_core::json::{self, direct};
use ledger_core::{codec, model::*, Error};
use rand::{rngs::StdRng, seq::SliceRandom, Rng, SeedableRng};
use serde_json::{json, Value};

fn full_block(text: &str) -> Result<Block, Error> {
    json::block_from_json(&json::parse(text)?)
}

fn same_error(a: &Error, b: &Error) -> bool {
    a.code == b.code && a.path == b.path && a.to_string() == b.to_string()
}

/// The property, for one text: returns whether the direct reader took it.
fn check_block(text: &str) -> bool {
    let full = full_block(text);
    let direct = direct::block(text);
    if let Some(block) = &direct {
        match &full {
            Ok(expected) => assert_eq!(block, expected, "direct reader differs on {text}"),
            Err(e) => panic!(
                "direct reader accepts what the full reader rejects ({}: {e}): {text}",
                e.code
            ),
        }
    }
    match (json::block_from_text(text), &full) {
        (Ok(a), Ok(b)) => assert_eq!(&a, b),
        (Err(a), Err(b)) => assert!(same_error(&a, b), "{a:?} vs {b:?} on {text}"),
        (a, b) => panic!("block_from_text {a:?}, full reader {b:?} on {text}"),
    }
    direct.is_some()
}

fn valid_blocks() -> Vec<Value> {
    let mut blocks: Vec<Value> = records("valid.jsonl")
        .into_iter()
        .filter(|r| r["kind"] == "block")
        .map(|r| r["json"].clone())
        .collect();
    let mut gen = generator::Gen::new(11);
    blocks.extend((0..200).map(|_| json::block_to_json(&gen.block())));
    blocks
}

/// The records of a vectors file with the `json` member as written in the file (key order
/// kept: a `Value` sorts keys, which puts `type` after other keys).
fn records_with_text(file: &str) -> Vec<(Value, String)> {
    let text = std::fs::read_to_string(vector_path(file)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| (serde_json::from_str(l).unwrap(), raw_json_member(l)))
        .collect()
}

/// The text of the `json` member of one record line (balanced braces outside strings).
fn raw_json_member(line: &str) -> String {
    let Some(start) = line.find("\"json\":{").map(|i| i + 7) else { return String::new() };
    let bytes = line.as_bytes();
    let (mut depth, mut in_string, mut escaped) = (0, false, false);
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        match (in_string, b) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') => in_string = false,
            (true, _) => {}
            (false, b'"') => in_string = true,
            (false, b'{') => depth += 1,
            (false, b'}') => {
                depth -= 1;
                if depth == 0 {
                    return line[start..=i].to_string();
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced record")
}

#[test]
fn every_vector_is_read_directly_as_the_full_reader_reads_it() {
    for (r, written) in records_with_text("valid.jsonl") {
        for text in [written, r["json"].to_string()] {
            vector_case(&r, &text);
        }
    }
}

fn vector_case(r: &Value, text: &str) {
    let text = text.to_string();
    {
        match r["kind"].as_str().unwrap() {
            "block" => {
                assert!(check_block(&text), "{}: not on the direct path", r["name"]);
                assert_eq!(
                    codec::encode_block(&direct::block(&text).unwrap()),
                    hex_of(&r["bytes"]),
                    "{}",
                    r["name"]
                );
            }
            "transaction" | "milestone" => {
                let expected = json::payload_from_json(&r["json"], "").unwrap();
                assert_eq!(direct::payload(&text).as_ref(), Some(&expected), "{}", r["name"]);
            }
            "output" => {
                let expected = json::output_from_json(&r["json"]).unwrap();
                assert_eq!(direct::output(&text).as_ref(), Some(&expected), "{}", r["name"]);
            }
            _ => {}
        }
    }
}

#[test]
fn generated_blocks_and_whitespace_are_read_directly() {
    for v in valid_blocks() {
        assert!(check_block(&v.to_string()));
        assert!(check_block(&serde_json::to_string_pretty(&v).unwrap()));
    }
}

#[test]
fn invalid_vectors_are_left_to_the_full_reader() {
    // Some break rules the reader does not check (validation does); `check_block` asserts
    // the direct reader takes none that the full reader refuses.
    for (r, written) in
        records_with_text("invalid.jsonl").iter().filter(|(r, _)| r["form"] == "json")
    {
        let direct = check_block(written) | check_block(&r["json"].to_string());
        assert!(!direct || full_block(written).is_ok(), "{}", r["name"]);
    }
}

/// Values that probe each scalar reader: the lenient forms (D14/D15) and near misses.
fn odd_value(rng: &mut StdRng) -> Value {
    let pick = [
        json!(null),
        json!(""),
        json!("0x"),
        json!("0X00"),
        json!("0x0"),
        json!("0xzz"),
        json!("0xAB"),
        json!("0x00"),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.0),
        json!(1.5),
        json!(2),
        json!(7),
        json!(255),
        json!(256),
        json!(65535),
        json!(65536),
        json!(4294967295u64),
        json!(4294967296u64),
        json!(9007199254740991u64),
        json!(9007199254740992u64),
        json!(u64::MAX),
        json!("0"),
        json!("007"),
        json!("18446744073709551615"),
        json!("18446744073709551616"),
        json!("1e3"),
        json!(" 1"),
        json!(true),
        json!(false),
        json!([]),
        json!({}),
        json!([1]),
        json!({"type": 0}),
        json!("0x".to_string() + &"ab".repeat(32)),
        json!("0x".to_string() + &"AB".repeat(32)),
        json!("0x".to_string() + &"00".repeat(33)),
        json!("0x".to_string() + &"f".repeat(64)),
        json!("0x".to_string() + &"f".repeat(65)),
        json!("0x".to_string() + &"0".repeat(70) + "1"),
        json!("0x".to_string() + &"ab".repeat(256)),
        json!("\u{e9}"),
        json!("a\"b"),
        json!("tab\there"),
    ];
    pick.choose(rng).unwrap().clone()
}

/// Replace, drop or add one member somewhere in the tree, or reorder an object's keys.
fn mutate_value(rng: &mut StdRng, v: &mut Value) {
    // Walk down a random path.
    let mut node = v;
    loop {
        let go_deeper = rng.gen_bool(0.7);
        let next = match node {
            Value::Object(o) if go_deeper && !o.is_empty() => {
                let keys: Vec<String> = o.keys().cloned().collect();
                let k = keys.choose(rng).unwrap().clone();
                Some(k)
            }
            Value::Array(a) if go_deeper && !a.is_empty() => {
                let i = rng.gen_range(0..a.len());
                Some(i.to_string())
            }
            _ => None,
        };
        match next {
            Some(k) => {
                node = match node {
                    Value::Object(o) => o.get_mut(&k).unwrap(),
                    Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
                    _ => unreachable!(),
                }
            }
            None => break,
        }
    }
    match node {
        Value::Object(o) if !o.is_empty() => {
            let keys: Vec<String> = o.keys().cloned().collect();
            let k = keys.choose(rng).unwrap().clone();
            match rng.gen_range(0..4) {
                0 => {
                    o.remove(&k);
                }
                1 => {
                    o.insert(
                        ["extra", "type", "amount", "returnAmount", "payload", "nonce"]
                            .choose(rng)
                            .unwrap()
                            .to_string(),
                        odd_value(rng),
                    );
                }
                _ => {
                    o.insert(k, odd_value(rng));
                }
            }
        }
        Value::Array(a) => match rng.gen_range(0..3) {
            0 if !a.is_empty() => {
                a.pop();
            }
            1 if !a.is_empty() => {
                let x = a[0].clone();
                a.push(x);
            }
            _ => a.push(odd_value(rng)),
        },
        other => *other = odd_value(rng),
    }
}

/// Text-level damage: what no JSON writer makes but a hand or a proxy might.
fn mutate_text(rng: &mut StdRng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    if bytes.is_empty() {
        return "{".into();
    }
    let at = rng.gen_range(0..bytes.len());
    let junk: &[&[u8]] = &[
        b" ", b"\n", b",", b":", b"\"", b"\\", b"{", b"}", b"[", b"]", b"0", b"-", b".", b"e",
        b"\x01", b"null", b"\\u0030",
    ];
    match rng.gen_range(0..4) {
        0 => {
            bytes.remove(at);
        }
        1 => {
            let j = junk.choose(rng).unwrap();
            bytes.splice(at..at, j.iter().copied());
        }
        2 => bytes.truncate(at),
        _ => {
            let j = junk.choose(rng).unwrap();
            let end = (at + j.len()).min(bytes.len());
            bytes.splice(at..end, j.iter().copied());
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

#[test]
fn random_mutations_get_the_full_readers_answer() {
    let seeds = valid_blocks();
    // As the vectors file writes them: `type` first, the order of every writer.
    let written: Vec<String> = records_with_text("valid.jsonl")
        .into_iter()
        .filter(|(r, _)| r["kind"] == "block")
        .map(|(_, t)| t)
        .collect();
    let mut rng = StdRng::seed_from_u64(14);
    let (mut direct, mut total) = (0, 0);
    for case in 0..30_000 {
        let seed = seeds.choose(&mut rng).unwrap();
        let text = if case % 3 == 0 {
            mutate_text(&mut rng, &seed.to_string())
        } else if case % 3 == 1 {
            let mut text = written.choose(&mut rng).unwrap().clone();
            for _ in 0..rng.gen_range(1..=2) {
                text = mutate_text(&mut rng, &text);
            }
            text
        } else {
            let mut v = seed.clone();
            for _ in 0..rng.gen_range(1..=2) {
                mutate_value(&mut rng, &mut v);
            }
            v.to_string()
        };
        total += 1;
        direct += check_block(&text) as usize;
    }
    eprintln!("{total} mutated texts, {direct} read directly");
    assert!(direct > 0);
}

#[test]
fn payloads_and_outputs_from_text_match_the_full_reader() {
    let mut rng = StdRng::seed_from_u64(15);
    for r in records("valid.jsonl") {
        let kind = r["kind"].as_str().unwrap();
        if !matches!(kind, "transaction" | "milestone" | "output") {
            continue;
        }
        for case in 0..300 {
            let mut v = r["json"].clone();
            if case > 0 {
                mutate_value(&mut rng, &mut v);
            }
            let text = v.to_string();
            if kind == "output" {
                let full = json::output_from_json(&v);
                if let Some(o) = direct::output(&text) {
                    assert_eq!(Some(&o), full.as_ref().ok(), "{text}");
                }
                match (json::output_from_text(&text), full) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b),
                    (Err(a), Err(b)) => assert!(same_error(&a, &b)),
                    (a, b) => panic!("{a:?} vs {b:?} on {text}"),
                }
            } else {
                let full = json::payload_from_json(&v, "");
                if let Some(p) = direct::payload(&text) {
                    assert_eq!(Some(&p), full.as_ref().ok(), "{text}");
                }
                match (json::payload_from_text(&text), full) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b),
                    (Err(a), Err(b)) => assert!(same_error(&a, &b)),
                    (a, b) => panic!("{a:?} vs {b:?} on {text}"),
                }
            }
        }
    }
}
