//! AVX-512 registers for the bit-sliced search: 512 lanes; `vpternlogq` evaluates the truth
//! table in three instructions per trit.

#![cfg(target_arch = "x86_64")]

use super::search::SearchJob;
use super::simd::Register;
use std::arch::x86_64::*;

// Ternary-logic immediates over inputs (A, B, C) with A = 0xF0, B = 0xCC, C = 0xAA.
/// !((A | !B) & C) — the new lo plane, with A = a.lo, B = b.hi, C = b.lo ^ a.hi.
const NEW_LO: i32 = !((0xF0 | !0xCC) & 0xAA) & 0xFF;
/// (A ^ B) | !C — the new hi plane, with A = a.lo, B = b.hi, C = the new lo.
const NEW_HI: i32 = ((0xF0 ^ 0xCC) | !0xAA) & 0xFF;

impl Register for __m512i {
    const WORDS: usize = 8;
    #[inline(always)]
    unsafe fn all_ones() -> Self {
        _mm512_set1_epi64(-1)
    }
    #[inline(always)]
    unsafe fn f(a: &[Self; 2], b: &[Self; 2]) -> [Self; 2] {
        let x = _mm512_xor_si512(b[0], a[1]);
        let lo = _mm512_ternarylogic_epi64::<NEW_LO>(a[0], b[1], x);
        [lo, _mm512_ternarylogic_epi64::<NEW_HI>(a[0], b[1], lo)]
    }
    #[inline(always)]
    unsafe fn load(words: *const u64) -> Self {
        _mm512_loadu_si512(words as *const _)
    }
    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        _mm512_storeu_si512(words as *mut _, self)
    }
}

/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub unsafe fn search(job: &SearchJob) -> Option<u64> {
    super::simd::search::<__m512i, 8>(job)
}
