//! AVX2 registers for the bit-sliced search: 256 lanes.

#![cfg(target_arch = "x86_64")]

use super::search::SearchJob;
use super::simd::Register;
use std::arch::x86_64::*;

impl Register for __m256i {
    const WORDS: usize = 4;
    #[inline(always)]
    unsafe fn all_ones() -> Self {
        _mm256_set1_epi64x(-1)
    }
    #[inline(always)]
    unsafe fn f(a: &[Self; 2], b: &[Self; 2]) -> [Self; 2] {
        let ones = _mm256_set1_epi64x(-1);
        // d = (a.lo | !b.hi) & (b.lo ^ a.hi); lo' = !d; hi' = (a.lo ^ b.hi) | d
        let d = _mm256_and_si256(_mm256_or_si256(a[0], _mm256_xor_si256(b[1], ones)), _mm256_xor_si256(b[0], a[1]));
        [_mm256_xor_si256(d, ones), _mm256_or_si256(_mm256_xor_si256(a[0], b[1]), d)]
    }
    #[inline(always)]
    unsafe fn load(words: *const u64) -> Self {
        _mm256_loadu_si256(words as *const __m256i)
    }
    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        _mm256_storeu_si256(words as *mut __m256i, self)
    }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn search(job: &SearchJob) -> Option<u64> {
    super::simd::search::<__m256i, 4>(job)
}
