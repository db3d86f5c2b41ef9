//! Proof of work (pow.md): the TIP-12 score and the miner.
//!
//! - `curl_reference.rs`, `ternary.rs`: Curl-P-81 and b1t6 straight from the spec, the
//!   reference every fast path is tested against.
//! - `layout.rs`, `encoding.rs`: the two ideas the fast paths share — permuted state
//!   layouts that make a round local, and a trit as two bits with F in four operations.
//! - `single/`: one input at a time, the state's trits side by side (scoring a block).
//! - `lanes/`: many inputs at once, one per bit of a register (mining, batch scoring);
//!   `engines.rs` picks the instruction set; `miner.rs` runs the threads.

pub mod curl_reference;
mod encoding;
pub mod engines;
mod lanes;
mod layout;
pub mod miner;
pub mod pool;
mod single;
pub mod ternary;

pub use engines::Engine;
pub use miner::{default_threads, hash_rate, mine, MineResult};
pub use pool::{JobHandle, JobOutcome, MiningPool, MiningRequest, PoolOptions, PoolStatus};

use crate::hash::blake2b256;

/// Number of trailing zero trits of the block's PoW hash (pow.md §1 steps 1–6). Bytes too
/// short to hold a nonce have no proof of work: 0.
pub fn trailing_zeros(block: &[u8]) -> u32 {
    if block.len() < 8 {
        return 0;
    }
    single::trailing_zeros_of(&curl_input(block))
}

/// Below this many blocks scoring one by one is cheaper than filling a pass of lanes
/// (about 1.5 µs a block against one transform of 128 to 512 lanes).
const LANES_FROM: usize = 32;

/// Trailing zero trits of each block's PoW hash, in order (`trailing_zeros` of each). Any
/// number of blocks: few are scored one by one, many through the lanes.
pub fn trailing_zeros_many(blocks: &[&[u8]]) -> Vec<u32> {
    if blocks.len() < LANES_FROM {
        return blocks.iter().map(|b| trailing_zeros(b)).collect();
    }
    let inputs: Vec<[u8; 40]> =
        blocks.iter().filter(|b| b.len() >= 8).map(|b| curl_input(b)).collect();
    let mut zeros = Engine::detect().trailing_zeros_many(&inputs).into_iter();
    blocks
        .iter()
        .map(|b| if b.len() >= 8 { zeros.next().expect("one result per input") } else { 0 })
        .collect()
}

/// The 40 bytes whose b1t6 form (plus three zero trits) is the Curl input of pow.md §1:
/// the BLAKE2b-256 digest of the block without its nonce, then the nonce.
fn curl_input(block: &[u8]) -> [u8; 40] {
    let split = block.len() - 8;
    let mut input = [0u8; 40];
    input[..32].copy_from_slice(&blake2b256(&block[..split]));
    input[32..].copy_from_slice(&block[split..]);
    input
}

/// Scores of many blocks at once (`trailing_zeros_many`).
pub fn scores_many(blocks: &[&[u8]]) -> Vec<f64> {
    trailing_zeros_many(blocks)
        .into_iter()
        .zip(blocks)
        .map(|(z, b)| 3f64.powi(z as i32) / b.len() as f64)
        .collect()
}

/// score = 3^z / len(B).
pub fn score(block: &[u8]) -> f64 {
    3f64.powi(trailing_zeros(block) as i32) / block.len() as f64
}

/// Smallest z with 3^z ≥ minPowScore × len (pow.md §6); 0 when the score is off.
pub fn required_zeros(min_pow_score: u32, block_len: usize) -> u32 {
    let target = min_pow_score as u128 * block_len as u128;
    let mut z = 0u32;
    let mut power = 1u128;
    while power < target {
        power *= 3;
        z += 1;
    }
    z
}

/// The integer form of `score(B) ≥ minPowScore`.
pub fn meets_min_score(block: &[u8], min_pow_score: u32) -> bool {
    min_pow_score == 0 || trailing_zeros(block) >= required_zeros(min_pow_score, block.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worked_examples;

    fn with_nonce(block: &[u8], nonce: u64) -> Vec<u8> {
        let mut b = block.to_vec();
        let n = b.len();
        b[n - 8..].copy_from_slice(&nonce.to_le_bytes());
        b
    }

    /// Example B of wire-format §9.2 (pow.md §5).
    #[test]
    fn example_b_scores() {
        let b = worked_examples::block("B");
        assert_eq!(trailing_zeros(&b), 11);
        assert!((score(&b) - 1703.3365384615386).abs() < 1e-9);
        assert_eq!(trailing_zeros(&with_nonce(&b, 0)), 1);
        assert_eq!(trailing_zeros(&with_nonce(&b, 39060)), 0);
        assert!(meets_min_score(&b, 1500));
        assert!(!meets_min_score(&with_nonce(&b, 39060), 1500));
    }

    #[test]
    fn every_engine_mines_nonces_the_reference_accepts() {
        use std::sync::atomic::AtomicBool;
        let never = AtomicBool::new(false);
        for engine in Engine::available() {
            for (len, min_score) in [(104usize, 100u32), (300, 50), (1000, 10)] {
                let mut block = vec![0x5au8; len];
                block[0] = 2;
                let found = miner::mine_zeros(
                    &block[..len - 8],
                    required_zeros(min_score, len),
                    2,
                    &never,
                    engine,
                )
                .expect("not cancelled");
                block[len - 8..].copy_from_slice(&found.nonce.to_le_bytes());
                assert!(meets_min_score(&block, min_score), "{engine:?} len {len}");
            }
        }
    }

    #[test]
    fn example_b_nonce_is_found_at_1500() {
        use std::sync::atomic::AtomicBool;
        let b = worked_examples::block("B");
        let found = mine(&b, 1500, 2, &AtomicBool::new(false)).unwrap();
        assert!(meets_min_score(&with_nonce(&b, found.nonce), 1500));
    }

    #[test]
    fn cancelling_stops_the_miner() {
        use std::sync::atomic::AtomicBool;
        let cancel = AtomicBool::new(true);
        assert_eq!(mine(&[2u8; 300], u32::MAX, 2, &cancel), None);
    }

    #[test]
    fn required_zeros_table() {
        assert_eq!(required_zeros(1500, 104), 11);
        assert_eq!(required_zeros(1, 104), 5);
        assert_eq!(required_zeros(1500, 358), 13);
        assert_eq!(required_zeros(1500, 78), 11);
        assert_eq!(required_zeros(1500, 119), 12);
        assert_eq!(required_zeros(1500, 32768), 17);
        assert_eq!(required_zeros(0, 300), 0);
    }
}
