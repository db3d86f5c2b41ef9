//! Scoring many blocks at once: each lane of the bit-sliced transform carries a different
//! block's Curl input, so one pass scores 128 blocks (pow.md §1 steps 1–6 per lane).

use super::bitsliced::{transform, State};
use super::curl_reference::HASH_LEN;
use super::ternary::BYTE_PLANES;
use crate::hash::blake2b256;

const LANE_WORDS: usize = 2;
const LANES: usize = 64 * LANE_WORDS;

/// Trailing zero trits of each block's PoW hash, in order. Each block must have at least
/// its 8 nonce bytes.
pub fn trailing_zeros_many(blocks: &[&[u8]]) -> Vec<u32> {
    let mut out = Vec::with_capacity(blocks.len());
    let mut state = State::<LANE_WORDS>::zero();
    let mut scratch = State::<LANE_WORDS>::zero();
    for chunk in blocks.chunks(LANES) {
        // Start from all-zero trits (lo = hi = 1) and clear bits lane by lane: the 40 input
        // bytes of each block (digest, then nonce) map to 6 trits each through BYTE_PLANES.
        for t in 0..state.lo.len() {
            state.lo[t] = [!0; LANE_WORDS];
            state.hi[t] = [!0; LANE_WORDS];
        }
        for (lane, block) in chunk.iter().enumerate() {
            assert!(block.len() >= 8, "a block ends with an 8-byte nonce");
            let split = block.len() - 8;
            let digest = blake2b256(&block[..split]);
            let (w, b) = (lane / 64, lane % 64);
            for (i, &byte) in digest.iter().chain(&block[split..]).enumerate() {
                let (plus, minus) = BYTE_PLANES[byte as usize];
                for k in 0..6 {
                    // +1 clears lo, −1 clears hi.
                    state.lo[6 * i + k][w] &= !(((plus >> k) as u64 & 1) << b);
                    state.hi[6 * i + k][w] &= !(((minus >> k) as u64 & 1) << b);
                }
            }
        }
        transform(&mut state, &mut scratch, 0);
        for lane in 0..chunk.len() {
            let (w, bit) = (lane / 64, 1u64 << (lane % 64));
            let zeros = (0..HASH_LEN)
                .rev()
                .take_while(|&t| state.lo[t][w] & state.hi[t][w] & bit != 0)
                .count();
            out.push(zeros as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_reference_scorer_on_every_lane() {
        let blocks: Vec<Vec<u8>> = (0..300u32)
            .map(|i| {
                let mut b = vec![2u8; 100 + (i as usize % 50)];
                b[10..14].copy_from_slice(&i.to_le_bytes());
                b
            })
            .collect();
        let refs: Vec<&[u8]> = blocks.iter().map(|b| b.as_slice()).collect();
        let zeros = trailing_zeros_many(&refs);
        for (b, z) in blocks.iter().zip(zeros) {
            assert_eq!(z, super::super::trailing_zeros(b));
        }
    }
}
