//! The bit-sliced transform and nonce search over one SIMD register type. `avx2.rs` and
//! `avx512.rs` say only how a register does F, loads and stores; this file is compiled into
//! each of their `target_feature` functions through `inline(always)`.
//!
//! Layout: each trit's two bit planes side by side (`[lo, hi]`), so a trit is one cache line
//! (AVX-512) or half of one (AVX2), and consecutive positions of the walk share a register
//! (b of step i is a of step i+1), so every source trit is loaded once per round.

#![cfg(target_arch = "x86_64")]

use super::bitsliced::WALK;
use super::curl_reference::{HASH_LEN, ROUNDS, STATE_LEN};
use super::search::{search_with, SearchJob};

pub trait Register: Copy {
    /// u64 words in one register (lanes / 64).
    const WORDS: usize;
    /// All lanes hold the zero trit (lo = hi = 1).
    unsafe fn all_ones() -> Self;
    /// The Curl truth table on (a, b), see bitsliced.rs for the encoding.
    unsafe fn f(a: &[Self; 2], b: &[Self; 2]) -> [Self; 2];
    unsafe fn load(words: *const u64) -> Self;
    unsafe fn store(self, words: *mut u64);
}

#[inline(always)]
unsafe fn transform<R: Register>(state: &mut [[R; 2]], scratch: &mut [[R; 2]], keep_from: usize) {
    for r in 0..ROUNDS - 1 {
        let (src, dst): (&[[R; 2]], &mut [[R; 2]]) = if r % 2 == 0 { (&*state, &mut *scratch) } else { (&*scratch, &mut *state) };
        let mut a = src[0];
        for i in 0..STATE_LEN {
            let b = src[WALK[i + 1] as usize];
            dst[i] = R::f(&a, &b);
            a = b;
        }
    }
    // 80 rounds done, result in `state`; the last round only where it is read.
    for i in keep_from..HASH_LEN {
        scratch[i] = R::f(&state[WALK[i] as usize], &state[WALK[i + 1] as usize]);
    }
    state[keep_from..HASH_LEN].copy_from_slice(&scratch[keep_from..HASH_LEN]);
}

/// The nonce search with registers of type R; N must equal R::WORDS.
#[inline(always)]
pub unsafe fn search<R: Register, const N: usize>(job: &SearchJob) -> Option<u64> {
    debug_assert_eq!(N, R::WORDS);
    let zero = [R::all_ones(); 2];
    let mut a = vec![zero; STATE_LEN];
    let mut b = vec![zero; STATE_LEN];
    search_with::<N>(job, |state, _scratch, keep_from| {
        for t in 0..STATE_LEN {
            a[t] = [R::load(state.lo[t].as_ptr()), R::load(state.hi[t].as_ptr())];
        }
        transform(&mut a, &mut b, keep_from);
        for t in keep_from..HASH_LEN {
            a[t][0].store(state.lo[t].as_mut_ptr());
            a[t][1].store(state.hi[t].as_mut_ptr());
        }
    })
}
