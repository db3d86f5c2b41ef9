//! AVX-512 registers as lanes: 512 nonces a pass, F in two `vpternlogq` (`engines.rs`
//! compiles the lanes code with AVX-512F enabled around them).

#![cfg(target_arch = "x86_64")]

use super::Lanes;
use crate::pow::encoding::{Bits, TERNLOG_HI, TERNLOG_LO};
use std::arch::x86_64::*;

#[derive(Clone, Copy)]
pub struct Zmm(__m512i);

impl Bits for Zmm {
    #[inline(always)]
    fn f(a_lo: Self, a_hi: Self, b_lo: Self, b_hi: Self) -> (Self, Self) {
        // SAFETY: only used inside AVX-512F functions.
        unsafe {
            let lo = _mm512_ternarylogic_epi64::<TERNLOG_LO>(a_lo.0, b_lo.0, a_hi.0);
            (Zmm(lo), Zmm(_mm512_ternarylogic_epi64::<TERNLOG_HI>(lo, b_hi.0, a_lo.0)))
        }
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY (here and below): only used inside AVX-512F functions.
        Zmm(unsafe { _mm512_and_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Zmm(unsafe { _mm512_xor_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        Zmm(unsafe { _mm512_andnot_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn ones() -> Self {
        Zmm(unsafe { _mm512_set1_epi64(-1) })
    }
    #[inline(always)]
    fn zeros() -> Self {
        Zmm(unsafe { _mm512_setzero_si512() })
    }
}

impl Lanes for Zmm {
    const WORDS: usize = 8;
    #[inline(always)]
    unsafe fn load(words: *const u64) -> Self {
        Zmm(_mm512_loadu_si512(words.cast()))
    }
    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        _mm512_storeu_si512(words.cast(), self.0)
    }
}
