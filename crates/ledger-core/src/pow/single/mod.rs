//! Curl-P-81 of one input with the trits of the state side by side in machine words: the
//! state is two 729-bit planes (`encoding.rs`) and a round is "F of the state and the state
//! rotated by δ" in the layouts of `layout.rs`, a few operations per 64 (or 256) trits
//! instead of 729 table look-ups. This scores single blocks (the HTTP submit path and the
//! store's intake); batches of blocks go through the nonce lanes instead (`batch_score.rs`).

mod avx2;
mod portable;

use super::curl_reference::{HASH_LEN, ROUNDS, STATE_LEN};
use super::encoding::zero_lanes;
use super::layout::position;
use super::ternary::BYTE_PLANES;

/// 64-bit words of a 729-bit plane (the last one holds 25 bits).
const WORDS: usize = STATE_LEN.div_ceil(64);
const LAST_WORD_MASK: u64 = (1 << (STATE_LEN % 64)) - 1;

/// The two planes of a state, (lo, hi).
type Planes = ([u64; WORDS], [u64; WORDS]);

/// Trailing zero trits of Curl-P-81 over 40 input bytes (a 32-byte digest and an 8-byte
/// nonce, b1t6-encoded as pow.md §1 steps 2–4; the last 3 input trits are 0).
pub fn trailing_zeros_of(input: &[u8; 40]) -> u32 {
    let planes = absorb(input);
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU reports AVX2.
        return count_zeros(unsafe { avx2::transform(planes) });
    }
    count_zeros(portable::transform(planes))
}

/// The 243 input trits in the natural layout (the layout of round 0).
fn absorb(input: &[u8; 40]) -> Planes {
    // Every trit starts at 0 (lo = hi = 1): −1 clears hi, +1 clears lo.
    let mut lo = [!0u64; WORDS];
    let mut hi = [!0u64; WORDS];
    lo[WORDS - 1] = LAST_WORD_MASK;
    hi[WORDS - 1] = LAST_WORD_MASK;
    for (i, &byte) in input.iter().enumerate() {
        let (plus, minus) = BYTE_PLANES[byte as usize];
        let at = 6 * i;
        let (w, b) = (at / 64, at % 64);
        lo[w] &= !((plus as u64) << b);
        hi[w] &= !((minus as u64) << b);
        if b > 58 {
            lo[w + 1] &= !((plus as u64) >> (64 - b));
            hi[w + 1] &= !((minus as u64) >> (64 - b));
        }
    }
    (lo, hi)
}

/// Hash trits 242, 241, … sit at their positions of the final layout.
fn count_zeros((lo, hi): Planes) -> u32 {
    let mut zeros = 0;
    while zeros < HASH_LEN {
        let p = position(ROUNDS, HASH_LEN - 1 - zeros);
        if zero_lanes(lo[p / 64], hi[p / 64]) >> (p % 64) & 1 == 0 {
            break;
        }
        zeros += 1;
    }
    zeros as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::curl_reference::curl_p81;
    use crate::pow::encoding::decode;
    use crate::pow::ternary::b1t6;

    fn random_inputs(count: usize) -> Vec<[u8; 40]> {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        (0..count)
            .map(|_| {
                std::array::from_fn(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                })
            })
            .collect()
    }

    /// The whole 243-trit hash, against the reference, for 200 random inputs.
    fn check(transform: impl Fn(Planes) -> Planes) {
        for input in random_inputs(200) {
            let mut trits = b1t6(&input);
            trits.extend([0, 0, 0]);
            let expected = curl_p81(&trits);
            let (lo, hi) = transform(absorb(&input));
            for (j, &t) in expected.iter().enumerate() {
                let p = position(ROUNDS, j);
                assert_eq!(
                    decode(lo[p / 64] >> (p % 64) & 1 == 1, hi[p / 64] >> (p % 64) & 1 == 1),
                    t,
                    "trit {j}"
                );
            }
        }
    }

    #[test]
    fn portable_hashes_equal_the_reference() {
        check(portable::transform);
    }

    #[test]
    fn avx2_hashes_equal_the_reference() {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU reports AVX2.
            check(|planes| unsafe { avx2::transform(planes) });
        }
    }
}
