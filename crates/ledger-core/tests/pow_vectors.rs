//! The vectors of pow.md §5 through every scorer this CPU runs: the single-block scorer and
//! the lanes of every engine, including "the smallest nonce that reaches the target".

use ledger_core::hash::blake2b256;
use ledger_core::pow::{required_zeros, trailing_zeros, Engine};

const EXAMPLE_B: &str = "02020000000000000000000000000000000000000000000000000000000000000000c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e191a00000005000000066c65646765720b00000068656c6c6f20776f726c649598000000000000";
const EXAMPLE_C: &str = concat!(
    "0202344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f",
    "5e191801000006000000018a8858e8d276564701000000000000000000000000000000000000000000000000000000000000000000000000612e925392135759",
    "3702d25b30902b598be48af07b1f4aae5d600d5f565693fa02000340420f00000000000001000094974ee57aef2316fbbaab22273f911485ad99cc688b4a3989",
    "3f2316147b258b0003c03de8f5ac5710000001000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d000000000001000000b39a",
    "6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e18cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171",
    "d703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09362c150000000000",
);

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
    let block = hex::decode(EXAMPLE_B).unwrap();
    assert_eq!(trailing_zeros(&block), 11);
    assert_eq!(trailing_zeros(&with_nonce(&block, 0)), 1);
    assert_eq!(trailing_zeros(&with_nonce(&block, 39060)), 0);
    assert_eq!(required_zeros(1500, block.len()), 11);
    smallest_nonce_on_every_engine(&block, 11, 39061);
}

#[test]
fn example_c() {
    let block = hex::decode(EXAMPLE_C).unwrap();
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
