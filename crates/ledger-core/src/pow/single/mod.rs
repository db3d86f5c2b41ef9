//! Curl-P-81 of one input with the trits of the state side by side in machine words: the
//! state is two 729-bit planes (`encoding.rs`) and a round is "F of the state and the state
//! rotated by δ" in the layouts of `layout.rs`, a few operations per 64 (or 256) trits
//! instead of 729 table look-ups. This scores single blocks (the HTTP submit path and the
//! store's intake); batches of blocks go through the nonce lanes instead (`batch_score.rs`).

mod avx2;
mod portable;

use super::curl_reference::{HASH_LEN, ROUNDS, STATE_LEN};
use super::encoding::Encoding;
use super::layout::position;
use super::ternary::BYTE_PLANES;

/// 64-bit words of a 729-bit plane (the last one holds 25 bits).
const WORDS: usize = STATE_LEN.div_ceil(64);
const LAST_WORD_MASK: u64 = (1 << (STATE_LEN % 64)) - 1;

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

/// The two planes of a state, (lo, hi) as stored (see `Encoding`).
type Planes = ([u64; WORDS], [u64; WORDS]);

/// Encoding of the planes after the 81 rounds.
const FINAL: Encoding = Encoding::before_round(ROUNDS);

/// The 243 input trits in the natural layout (the layout of round 0), plain encoding.
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
        let zero = FINAL.zero_lanes(lo[p / 64], hi[p / 64]) >> (p % 64) & 1;
        if zero == 0 {
            break;
        }
        zeros += 1;
    }
    zeros as u32
}

/// Expand `$round` (a block using `$r` and `$encoding`) for the 81 rounds, each round's
/// input encoding spelled out as a constant so that `encoding::f` folds to straight-line
/// code. A macro rather than a closure: closures are not inlined into the `target_feature`
/// functions that use them, and a call per round would cost more than the round.
macro_rules! for_each_round {
    (|$r:ident, $encoding:ident| $round:block) => {{
        use $crate::pow::encoding::Encoding;
        macro_rules! one {
            ($at:expr, $enc:expr) => {{
                let ($r, $encoding) = ($at, $enc);
                $round
            }};
        }
        one!(0usize, Encoding::Plain);
        let mut first = 1usize;
        while first + 3 <= $crate::pow::curl_reference::ROUNDS {
            one!(first, Encoding::NotLo);
            one!(first + 1, Encoding::NotHi);
            one!(first + 2, Encoding::NotBoth);
            first += 3;
        }
        // 81 = 1 + 3·26 + 2.
        one!(first, Encoding::NotLo);
        one!(first + 1, Encoding::NotHi);
    }};
}
use for_each_round;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::curl_reference::curl_p81;
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

    fn reference(input: &[u8; 40]) -> Planes {
        let mut trits = b1t6(input);
        trits.extend([0, 0, 0]);
        let hash = curl_p81(&trits);
        // Back into planes at the final positions, so whole hashes can be compared.
        let (mut lo, mut hi) = ([0u64; WORDS], [0u64; WORDS]);
        for (j, &t) in hash.iter().enumerate() {
            let p = position(ROUNDS, j);
            let (l, h) = crate::pow::encoding::plain_bits(t);
            lo[p / 64] |= (l as u64) << (p % 64);
            hi[p / 64] |= (h as u64) << (p % 64);
        }
        (lo, hi)
    }

    /// The whole 243-trit hash of every implementation this CPU runs, against the reference.
    fn check(transform: impl Fn(Planes) -> Planes) {
        for input in random_inputs(200) {
            let (lo, hi) = transform(absorb(&input));
            let (ref_lo, ref_hi) = reference(&input);
            for j in 0..HASH_LEN {
                let p = position(ROUNDS, j);
                let got = FINAL.decode(lo[p / 64] >> (p % 64) & 1 == 1, hi[p / 64] >> (p % 64) & 1 == 1);
                let expected = Encoding::Plain.decode(ref_lo[p / 64] >> (p % 64) & 1 == 1, ref_hi[p / 64] >> (p % 64) & 1 == 1);
                assert_eq!(got, expected, "trit {j}");
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
