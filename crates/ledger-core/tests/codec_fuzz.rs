//! Fuzz-style robustness: 200 000 random and mutated byte strings (bit flips, truncations,
//! inserted and deleted bytes, rewritten counts) from the vectors and from generated blocks.
//! Decoding must return Ok or Err — never panic — and do work in proportion to its input;
//! whatever decodes must re-encode to exactly the same bytes, because the codec is canonical.
//!
//! "In proportion" is counted, not timed (a timed test fails on a busy machine): a counting
//! allocator measures the memory each decode asks for and how many times it asks. A decoder
//! that sized an allocation by an unchecked count, or rebuilt something per byte, would
//! exceed the bounds by orders of magnitude on some input. Decode speed itself is measured
//! by `npm run bench:codec`.

mod common;
mod generator;

use common::*;
use ledger_core::Code;
use ledger_core::{codec, model::MAX_BLOCK_LENGTH};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting per thread the bytes requested and the requests.
struct Counting;

thread_local! {
    static REQUESTED: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

fn note(bytes: usize) {
    let _ = REQUESTED.try_with(|r| {
        let (total, count) = r.get();
        r.set((total + bytes, count + 1));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Memory requested and requests made by `work` on this thread.
fn requested(work: impl FnOnce()) -> (usize, usize) {
    let before = REQUESTED.with(Cell::get);
    work();
    let after = REQUESTED.with(Cell::get);
    (after.0 - before.0, after.1 - before.1)
}

/// Work of the three decodes of one input, per input byte (the largest seen is reported).
#[derive(Default)]
struct Work {
    bytes_per_byte: f64,
    requests_per_byte: f64,
}

/// Bounds per input byte (plus a constant for the result and error values). Observed
/// maxima over this corpus: about 390 bytes and 0.75 requests per input byte (a short
/// milestone whose option count, checked at one byte per option, reserves room for up to
/// 255 options, twice with the error-path re-run). An allocation sized by a count of
/// 65535 outputs or unlocks that the input does not hold asks for tens of thousands of
/// bytes per input byte.
const MAX_BYTES_PER_BYTE: f64 = 1024.0;
const MAX_REQUESTS_PER_BYTE: f64 = 4.0;
const SLACK_BYTES: usize = 16 * 1024;
const SLACK_REQUESTS: usize = 64;

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

fn check(bytes: &[u8], work: &mut Work) {
    let (mut block, mut payload, mut output) = (None, None, None);
    let (memory, requests) = requested(|| {
        block = Some(codec::decode_block(bytes));
        payload = Some(codec::decode_payload(bytes.get(70..).unwrap_or(&[])));
        output = Some(codec::decode_output(bytes.get(bytes.len() / 2..).unwrap_or(&[])));
    });
    let len = bytes.len().max(1) as f64;
    assert!(
        memory <= SLACK_BYTES + (MAX_BYTES_PER_BYTE * len) as usize
            && requests <= SLACK_REQUESTS + (MAX_REQUESTS_PER_BYTE * len) as usize,
        "decoding {} bytes requested {memory} bytes in {requests} allocations: {}",
        bytes.len(),
        hex::encode(bytes)
    );
    work.bytes_per_byte = work.bytes_per_byte.max(memory.saturating_sub(SLACK_BYTES) as f64 / len);
    work.requests_per_byte =
        work.requests_per_byte.max(requests.saturating_sub(SLACK_REQUESTS) as f64 / len);
    let (block, payload, output) = (block.unwrap(), payload.unwrap(), output.unwrap());
    match block {
        Ok(b) => assert_eq!(
            codec::encode_block(&b),
            bytes,
            "non-canonical decode of {}",
            hex::encode(bytes)
        ),
        Err(e) => assert!(
            !e.code.as_str().is_empty()
                && e.code.as_str().bytes().all(|c| c.is_ascii_lowercase()
                    || c.is_ascii_digit()
                    || c == b'-'
                    || c == b'X')
        ),
    }
    if let Ok(p) = payload {
        assert_eq!(codec::encode_payload(&p), &bytes[70..]);
    }
    if let Ok(o) = output {
        assert_eq!(codec::encode_output(&o), &bytes[bytes.len() / 2..]);
    }
}

#[test]
fn random_and_mutated_bytes_never_panic_and_work_in_proportion() {
    let seeds = seeds();
    let mut rng = StdRng::seed_from_u64(0xf022);
    let mut work = Work::default();
    let (mut decoded, mut rejected) = (0usize, 0usize);
    for case in 0..CASES {
        let bytes = if case % 10 == 0 {
            let len = rng.gen_range(0..600);
            (0..len).map(|_| rng.gen()).collect()
        } else {
            let seed = &seeds[rng.gen_range(0..seeds.len())];
            mutate(&mut rng, seed)
        };
        check(&bytes, &mut work);
        if codec::decode_block(&bytes).is_ok() {
            decoded += 1;
        } else {
            rejected += 1;
        }
    }
    eprintln!(
        "{CASES} cases: {decoded} decoded, {rejected} rejected; most work per input byte: {:.1} bytes requested, {:.2} allocations",
        work.bytes_per_byte, work.requests_per_byte
    );
}

#[test]
fn oversized_counts_are_rejected_before_allocating() {
    // 255 parents declared, none present.
    assert_eq!(codec::decode_block(&[2, 255]).unwrap_err().code, Code::LengthPrefixTooLarge);
    // A payload slot of u32::MAX bytes.
    let mut b = vec![2, 0];
    b.extend(u32::MAX.to_le_bytes());
    assert_eq!(codec::decode_block(&b).unwrap_err().code, Code::LengthPrefixTooLarge);
    // 65535 outputs in an essence inside a transaction payload.
    let mut p = 6u32.to_le_bytes().to_vec();
    p.push(1);
    p.extend([0u8; 8]);
    p.extend([0, 0]);
    p.extend([0u8; 32]);
    p.extend([0xff, 0xff]);
    let e = codec::decode_payload(&p).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::LengthPrefixTooLarge, "essence.outputs"));
    // Too large before anything is read, even if it were otherwise fine.
    assert_eq!(
        codec::decode_block(&vec![0u8; MAX_BLOCK_LENGTH + 1]).unwrap_err().code,
        Code::BlockTooLarge
    );
}
