//! The vectors of pow.md §5 through every scorer this CPU runs: the single-block scorer and
//! the lanes of every engine, including "the smallest nonce that reaches the target".
//! Examples B and C are read from `vectors/worked-examples.json`.

mod common;

use common::worked_examples;
use ledger_core::hash::blake2b256;
use ledger_core::pow::{required_zeros, trailing_zeros, Engine};

fn with_nonce(block: &[u8], nonce: u64) -> Vec<u8> {
    let mut b = block.to_vec();
    let n = b.len();
    b[n - 8..].copy_from_slice(&nonce.to_le_bytes());
    b
}

/// Lanes inputs (digest, nonce) for nonces `from..to` of `block`.
fn inputs(block: &[u8], from: u64, to: u64) -> Vec<[u8; 40]> {
    let digest = blake2b256(&block[..block.len() - 8]);
    (from..to)
        .map(|nonce| {
            let mut input = [0u8; 40];
            input[..32].copy_from_slice(&digest);
            input[32..].copy_from_slice(&nonce.to_le_bytes());
            input
        })
        .collect()
}

/// pow.md: `nonce` is the smallest that reaches `zeros`, on the lanes of every engine.
fn smallest_nonce_on_every_engine(block: &[u8], zeros: u32, nonce: u64) {
    for engine in Engine::available() {
        let mut from = 0;
        while from <= nonce {
            let to = ((from + 1) << 16).min(nonce + 1);
            let found = engine.trailing_zeros_many(&inputs(block, from, to));
            for (k, z) in found.iter().enumerate() {
                let n = from + k as u64;
                assert_eq!(*z >= zeros, n == nonce, "{engine:?}: nonce {n} has {z} zeros");
            }
            from = to;
        }
    }
}

#[test]
fn tip12_message() {
    let message = hex::decode("48656c6c6f2c20576f726c64215ee6aaaaaaaaaaaa").unwrap();
    assert_eq!(trailing_zeros(&message), 9);
    for engine in Engine::available() {
        let mut input = [0u8; 40];
        input[..32].copy_from_slice(&blake2b256(&message[..13]));
        input[32..].copy_from_slice(&message[13..]);
        assert_eq!(engine.trailing_zeros_many(&[input]), [9], "{engine:?}");
    }
}

#[test]
fn example_b() {
    let block = worked_examples::block("B");
    assert_eq!(trailing_zeros(&block), 11);
    assert_eq!(trailing_zeros(&with_nonce(&block, 0)), 1);
    assert_eq!(trailing_zeros(&with_nonce(&block, 39060)), 0);
    assert_eq!(required_zeros(1500, block.len()), 11);
    smallest_nonce_on_every_engine(&block, 11, 39061);
}

#[test]
fn example_c() {
    let block = worked_examples::block("C");
    assert_eq!(block.len(), 358);
    assert_eq!(trailing_zeros(&block), 13);
    assert_eq!(required_zeros(1500, block.len()), 13);
    smallest_nonce_on_every_engine(&block, 13, 1_387_574);
}

/// The single scorer and every engine's lanes agree on many blocks' full zero counts.
#[test]
fn single_and_lanes_agree() {
    let blocks: Vec<Vec<u8>> = (0..1000u32)
        .map(|i| {
            let mut b = vec![(i % 251) as u8; 80 + (i as usize % 300)];
            b[3..7].copy_from_slice(&i.to_le_bytes());
            b
        })
        .collect();
    let single: Vec<u32> = blocks.iter().map(|b| trailing_zeros(b)).collect();
    let curl_inputs: Vec<[u8; 40]> = blocks
        .iter()
        .map(|b| {
            let mut input = [0u8; 40];
            input[..32].copy_from_slice(&blake2b256(&b[..b.len() - 8]));
            input[32..].copy_from_slice(&b[b.len() - 8..]);
            input
        })
        .collect();
    for engine in Engine::available() {
        assert_eq!(engine.trailing_zeros_many(&curl_inputs), single, "{engine:?}");
    }
    let refs: Vec<&[u8]> = blocks.iter().map(|b| b.as_slice()).collect();
    assert_eq!(ledger_core::pow::trailing_zeros_many(&refs), single);
    assert_eq!(ledger_core::pow::trailing_zeros_many(&refs[..5]), single[..5]);
}
