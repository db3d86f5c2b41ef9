//! Hashing many different inputs at once: each lane carries a different block's Curl input
//! (pow.md §1 steps 2–4) and one pass gives the trailing zeros of 128 to 512 blocks.

use super::transform::{transform, Plan, SPARE};
use super::{Lanes, Trit};
use crate::pow::curl_reference::{HASH_LEN, STATE_LEN};
use crate::pow::encoding::{broadcast, zero_lanes};
use crate::pow::ternary::BYTE_PLANES;

/// Trailing zero trits of Curl-P-81 over each 40-byte input (digest and nonce), in order.
///
/// # Safety
/// The CPU must support the instructions `R` compiles to (the caller's `target_feature`).
#[inline(always)]
pub unsafe fn trailing_zeros_many<R: Lanes>(inputs: &[[u8; 40]]) -> Vec<u32> {
    let lanes = 64 * R::WORDS;
    let plan = Plan::new::<R>(HASH_LEN, 0);
    let zero: Trit<R> = {
        let (lo, hi) = broadcast::<R>(0);
        [lo, hi]
    };
    let mut input = [zero; STATE_LEN];
    let mut state = vec![zero; STATE_LEN + SPARE];
    let mut cone = vec![zero; 2 * plan.cone_width];
    let (cone0, cone1) = cone.split_at_mut(plan.cone_width);
    let mut out = Vec::with_capacity(inputs.len());
    for chunk in inputs.chunks(lanes) {
        // Bit planes of the first 240 trits, word by word: start at 0 (lo = hi = 1), then
        // +1 clears lo and −1 clears hi.
        let mut lo = vec![[!0u64; 8]; 240];
        let mut hi = vec![[!0u64; 8]; 240];
        for (lane, bytes) in chunk.iter().enumerate() {
            let (w, bit) = (lane / 64, 1u64 << (lane % 64));
            for (i, &byte) in bytes.iter().enumerate() {
                let (plus, minus) = BYTE_PLANES[byte as usize];
                for k in 0..6 {
                    if plus >> k & 1 == 1 {
                        lo[6 * i + k][w] &= !bit;
                    }
                    if minus >> k & 1 == 1 {
                        hi[6 * i + k][w] &= !bit;
                    }
                }
            }
        }
        for t in 0..240 {
            input[t] = [R::load(lo[t].as_ptr()), R::load(hi[t].as_ptr())];
        }
        let hash = transform(
            input.as_ptr(),
            state.as_mut_ptr(),
            [cone0.as_mut_ptr(), cone1.as_mut_ptr()],
            &plan,
        );
        // Hash trit 242 − k is entry k.
        let mut zeros = vec![[0u64; 8]; HASH_LEN];
        for (k, words) in zeros.iter_mut().enumerate() {
            let [lo, hi] = *hash.add(k);
            zero_lanes(lo, hi).store(words.as_mut_ptr());
        }
        for lane in 0..chunk.len() {
            let (w, b) = (lane / 64, lane % 64);
            out.push(zeros.iter().take_while(|words| words[w] >> b & 1 == 1).count() as u32);
        }
    }
    out
}
