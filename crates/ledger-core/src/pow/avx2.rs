//! The bit-sliced round with explicit AVX2 intrinsics: 256 lanes, each trit's two bit planes
//! side by side (`[lo, hi]`) so a trit is one 64-byte line.

#![cfg(target_arch = "x86_64")]

use super::bitsliced::WALK;
use super::curl_reference::{HASH_LEN, ROUNDS, STATE_LEN};
use std::arch::x86_64::*;

pub type Trit256 = [__m256i; 2];

#[inline(always)]
unsafe fn f(a: &Trit256, b: &Trit256) -> Trit256 {
    let ones = _mm256_set1_epi64x(-1);
    // d = (a.lo | !b.hi) & (b.lo ^ a.hi); lo' = !d; hi' = (a.lo ^ b.hi) | d
    let not_bhi = _mm256_xor_si256(b[1], ones);
    let d = _mm256_and_si256(_mm256_or_si256(a[0], not_bhi), _mm256_xor_si256(b[0], a[1]));
    [_mm256_xor_si256(d, ones), _mm256_or_si256(_mm256_xor_si256(a[0], b[1]), d)]
}

#[target_feature(enable = "avx2")]
pub unsafe fn transform(state: &mut [Trit256; STATE_LEN], scratch: &mut [Trit256; STATE_LEN], keep_from: usize) {
    for r in 0..ROUNDS - 1 {
        let (src, dst): (&[Trit256; STATE_LEN], &mut [Trit256; STATE_LEN]) =
            if r % 2 == 0 { (&*state, &mut *scratch) } else { (&*scratch, &mut *state) };
        let mut a = src[0];
        for i in 0..STATE_LEN {
            let b = src[WALK[i + 1] as usize];
            dst[i] = f(&a, &b);
            a = b;
        }
    }
    // 80 rounds done, result in `state`; the last round only where it is read.
    for i in keep_from..HASH_LEN {
        scratch[i] = f(&state[WALK[i] as usize], &state[WALK[i + 1] as usize]);
    }
    state[keep_from..HASH_LEN].copy_from_slice(&scratch[keep_from..HASH_LEN]);
}

/// The nonce search with the AVX2 transform (256 lanes = State<4>).
#[target_feature(enable = "avx2")]
pub unsafe fn search(job: &super::search::SearchJob) -> Option<u64> {
    let zero = [_mm256_set1_epi64x(-1); 2];
    let mut a: Box<[Trit256; STATE_LEN]> = Box::new([zero; STATE_LEN]);
    let mut b: Box<[Trit256; STATE_LEN]> = Box::new([zero; STATE_LEN]);
    super::search::search_with::<4>(job, |state, _scratch, keep_from| {
        for t in 0..STATE_LEN {
            a[t] = [
                _mm256_loadu_si256(state.lo[t].as_ptr() as *const __m256i),
                _mm256_loadu_si256(state.hi[t].as_ptr() as *const __m256i),
            ];
        }
        transform(&mut a, &mut b, keep_from);
        for t in keep_from..HASH_LEN {
            _mm256_storeu_si256(state.lo[t].as_mut_ptr() as *mut __m256i, a[t][0]);
            _mm256_storeu_si256(state.hi[t].as_mut_ptr() as *mut __m256i, a[t][1]);
        }
    })
}
