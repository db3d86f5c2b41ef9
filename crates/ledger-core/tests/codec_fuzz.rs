//! Fuzz-style robustness: 200 000 random and mutated byte strings (bit flips, truncations,
//! inserted and deleted bytes, rewritten counts) from the vectors and from generated blocks.
//! Decoding must return Ok or Err — never panic — and stay fast; whatever decodes must
//! re-encode to exactly the same bytes, because the codec is canonical.

mod common;
mod generator;

use common::*;
use ledger_core::{codec, model::MAX_BLOCK_LENGTH};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::{Duration, Instant};

const CASES: usize = 200_000;

fn seeds() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = records("valid.jsonl")
        .iter()
        .filter(|r| r["kind"] == "block")
        .chain(records("invalid.jsonl").iter().filter(|r| r["form"] == "binary"))
        .map(|r| hex_of(&r["bytes"]))
        .collect();
    let mut gen = generator::Gen::new(7);
    seeds.extend((0..200).map(|_| codec::encode_block(&gen.block())));
    seeds
}

fn mutate(rng: &mut StdRng, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        if bytes.is_empty() {
            bytes.push(rng.gen());
            continue;
        }
        let at = rng.gen_range(0..bytes.len());
        match rng.gen_range(0..6) {
            0 => bytes[at] ^= 1 << rng.gen_range(0..8),
            1 => bytes.truncate(at),
            2 => {
                let insert: Vec<u8> = (0..rng.gen_range(1..=8)).map(|_| rng.gen()).collect();
                bytes.splice(at..at, insert);
            }
            3 => {
                let end = (at + rng.gen_range(1..=8)).min(bytes.len());
                bytes.drain(at..end);
            }
            // Counts and lengths are where decoders go wrong: make one huge or zero.
            4 => bytes[at] = if rng.gen() { 0xff } else { 0 },
            _ => {
                let end = (at + 4).min(bytes.len());
                bytes[at..end].fill(0xff);
            }
        }
    }
    bytes
}

fn check(bytes: &[u8], slowest: &mut Duration) {
    let start = Instant::now();
    let block = codec::decode_block(bytes);
    let payload = codec::decode_payload(bytes.get(70..).unwrap_or(&[]));
    let output = codec::decode_output(bytes.get(bytes.len() / 2..).unwrap_or(&[]));
    *slowest = (*slowest).max(start.elapsed());
    match block {
        Ok(b) => assert_eq!(codec::encode_block(&b), bytes, "non-canonical decode of {}", hex::encode(bytes)),
        Err(e) => assert!(!e.code.is_empty() && e.code.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'X')),
    }
    if let Ok(p) = payload {
        assert_eq!(codec::encode_payload(&p), &bytes[70..]);
    }
    if let Ok(o) = output {
        assert_eq!(codec::encode_output(&o), &bytes[bytes.len() / 2..]);
    }
}

#[test]
fn random_and_mutated_bytes_never_panic_and_stay_fast() {
    let seeds = seeds();
    let mut rng = StdRng::seed_from_u64(0xf022);
    let mut slowest = Duration::ZERO;
    let start = Instant::now();
    let (mut decoded, mut rejected) = (0usize, 0usize);
    for case in 0..CASES {
        let bytes = if case % 10 == 0 {
            let len = rng.gen_range(0..600);
            (0..len).map(|_| rng.gen()).collect()
        } else {
            let seed = &seeds[rng.gen_range(0..seeds.len())];
            mutate(&mut rng, seed)
        };
        check(&bytes, &mut slowest);
        if codec::decode_block(&bytes).is_ok() {
            decoded += 1;
        } else {
            rejected += 1;
        }
    }
    eprintln!("{CASES} cases: {decoded} decoded, {rejected} rejected, slowest {slowest:?}, total {:?}", start.elapsed());
    // A decode touches each byte a bounded number of times; even the largest input is
    // far below a millisecond. The margin absorbs a busy shared machine.
    assert!(slowest < Duration::from_millis(50), "slowest decode took {slowest:?}");
}

#[test]
fn oversized_counts_are_rejected_before_allocating() {
    // 255 parents declared, none present.
    assert_eq!(codec::decode_block(&[2, 255]).unwrap_err().code, "length-prefix-too-large");
    // A payload slot of u32::MAX bytes.
    let mut b = vec![2, 0];
    b.extend(u32::MAX.to_le_bytes());
    assert_eq!(codec::decode_block(&b).unwrap_err().code, "length-prefix-too-large");
    // 65535 outputs in an essence inside a transaction payload.
    let mut p = 6u32.to_le_bytes().to_vec();
    p.push(1);
    p.extend([0u8; 8]);
    p.extend([0, 0]);
    p.extend([0u8; 32]);
    p.extend([0xff, 0xff]);
    let e = codec::decode_payload(&p).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), ("length-prefix-too-large", "essence.outputs"));
    // Too large before anything is read, even if it were otherwise fine.
    assert_eq!(codec::decode_block(&vec![0u8; MAX_BLOCK_LENGTH + 1]).unwrap_err().code, "block-too-large");
}
