//! The bit-sliced round with AVX-512 intrinsics: 512 lanes, each trit's two bit planes side
//! by side. `vpternlogq` evaluates the truth table in three instructions per trit.

#![cfg(target_arch = "x86_64")]

use super::bitsliced::WALK;
use super::curl_reference::{HASH_LEN, ROUNDS, STATE_LEN};
use std::arch::x86_64::*;

pub type Trit512 = [__m512i; 2];

// Ternary-logic immediates: the function's truth table over inputs (A, B, C) with
// A = 0xF0, B = 0xCC, C = 0xAA.
/// !((A | !B) & C)  — the new lo plane, with A = a.lo, B = b.hi, C = b.lo ^ a.hi.
const NEW_LO: i32 = !((0xF0 | !0xCC) & 0xAA) & 0xFF;
/// (A ^ B) | !C     — the new hi plane, with A = a.lo, B = b.hi, C = new lo.
const NEW_HI: i32 = ((0xF0 ^ 0xCC) | !0xAA) & 0xFF;

#[inline(always)]
unsafe fn f(a: &Trit512, b: &Trit512) -> Trit512 {
    let x = _mm512_xor_si512(b[0], a[1]);
    let lo = _mm512_ternarylogic_epi64::<NEW_LO>(a[0], b[1], x);
    let hi = _mm512_ternarylogic_epi64::<NEW_HI>(a[0], b[1], lo);
    [lo, hi]
}

#[target_feature(enable = "avx512f")]
pub unsafe fn transform(state: &mut [Trit512; STATE_LEN], scratch: &mut [Trit512; STATE_LEN], keep_from: usize) {
    for r in 0..ROUNDS - 1 {
        let (src, dst): (&[Trit512; STATE_LEN], &mut [Trit512; STATE_LEN]) =
            if r % 2 == 0 { (&*state, &mut *scratch) } else { (&*scratch, &mut *state) };
        let mut a = src[0];
        for i in 0..STATE_LEN {
            let b = src[WALK[i + 1] as usize];
            dst[i] = f(&a, &b);
            a = b;
        }
    }
    for i in keep_from..HASH_LEN {
        scratch[i] = f(&state[WALK[i] as usize], &state[WALK[i + 1] as usize]);
    }
    state[keep_from..HASH_LEN].copy_from_slice(&scratch[keep_from..HASH_LEN]);
}

/// The nonce search with the AVX-512 transform (512 lanes = State<8>).
#[target_feature(enable = "avx512f")]
pub unsafe fn search(job: &super::search::SearchJob) -> Option<u64> {
    let zero = [_mm512_set1_epi64(-1); 2];
    let mut a: Box<[Trit512; STATE_LEN]> = Box::new([zero; STATE_LEN]);
    let mut b: Box<[Trit512; STATE_LEN]> = Box::new([zero; STATE_LEN]);
    super::search::search_with::<8>(job, |state, _scratch, keep_from| {
        for t in 0..STATE_LEN {
            a[t] = [
                _mm512_loadu_si512(state.lo[t].as_ptr() as *const _),
                _mm512_loadu_si512(state.hi[t].as_ptr() as *const _),
            ];
        }
        transform(&mut a, &mut b, keep_from);
        for t in keep_from..HASH_LEN {
            _mm512_storeu_si512(state.lo[t].as_mut_ptr() as *mut _, a[t][0]);
            _mm512_storeu_si512(state.hi[t].as_mut_ptr() as *mut _, a[t][1]);
        }
    })
}
