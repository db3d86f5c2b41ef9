//! AVX2 registers as lanes: 256 nonces a pass (`engines.rs` compiles the lanes code
//! with AVX2 enabled around them).

#![cfg(target_arch = "x86_64")]

use super::Lanes;
use crate::pow::encoding::Bits;
use std::arch::x86_64::*;

#[derive(Clone, Copy)]
pub struct Ymm(__m256i);

impl Bits for Ymm {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY (here and below): only used inside AVX2 functions.
        Ymm(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Ymm(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        Ymm(unsafe { _mm256_andnot_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn ones() -> Self {
        Ymm(unsafe { _mm256_set1_epi64x(-1) })
    }
    #[inline(always)]
    fn zeros() -> Self {
        Ymm(unsafe { _mm256_setzero_si256() })
    }
}

impl Lanes for Ymm {
    const WORDS: usize = 4;
    #[inline(always)]
    unsafe fn load(words: *const u64) -> Self {
        Ymm(_mm256_loadu_si256(words.cast()))
    }
    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        _mm256_storeu_si256(words.cast(), self.0)
    }
}
