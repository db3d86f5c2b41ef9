//! The single-state transform with AVX2: a 729-bit plane is three 256-bit registers, and
//! `x rotated by δ` = `(x >> δ) | (x << (729 − δ))` as 768-bit shifts across the three
//! registers. The rounds are unrolled so that every δ is a constant: each shift compiles
//! to a couple of lane permutes and immediate bit shifts, with no trip through memory.

#![cfg(target_arch = "x86_64")]

use super::{Planes, LAST_WORD_MASK, WORDS};
use crate::pow::encoding::{f, Bits};
use crate::pow::layout::STRIDE;
use std::arch::x86_64::*;

const STATE_BITS: usize = 729;

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn transform((lo, hi): Planes) -> Planes {
    let mut x = State {
        lo: load(&lo),
        hi: load(&hi),
        last: _mm256_set_epi64x(LAST_WORD_MASK as i64, -1, -1, -1),
    };
    macro_rules! rounds {
        ($($r:literal)*) => {
            $( x.round($r); )*
        };
    }
    rounds!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
        40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80
    );
    (store(&x.lo), store(&x.hi))
}

struct State {
    lo: [Reg; 3],
    hi: [Reg; 3],
    /// Clears the bits above 729 of the last register.
    last: __m256i,
}

impl State {
    #[inline(always)]
    unsafe fn round(&mut self, r: usize) {
        let b_lo = rotate(&self.lo, self.last, STRIDE[r]);
        let b_hi = rotate(&self.hi, self.last, STRIDE[r]);
        for j in 0..3 {
            (self.lo[j], self.hi[j]) = f(self.lo[j], self.hi[j], b_lo[j], b_hi[j]);
        }
    }
}

/// Bit p of the result is bit (p + by) mod 729 of x (bits above 729 of the result are junk).
#[inline(always)]
unsafe fn rotate(x: &[Reg; 3], last: __m256i, by: usize) -> [Reg; 3] {
    // Three zero registers on each side, so every qword window below is in bounds.
    let zero = _mm256_setzero_si256();
    let padded =
        [zero, zero, zero, x[0].0, x[1].0, _mm256_and_si256(x[2].0, last), zero, zero, zero];
    let mut out = [Reg(zero); 3];
    for (j, out) in out.iter_mut().enumerate() {
        // (x >> by): qwords from 4j + by/64; (x << (729 − by)): from 4j − (729 − by)/64.
        let down = funnel_right(&padded, 4 * j as isize + (by / 64) as isize, by % 64);
        let up_by = STATE_BITS - by;
        let up = funnel_left(&padded, 4 * j as isize - (up_by / 64) as isize, up_by % 64);
        *out = Reg(_mm256_or_si256(down, up));
    }
    out
}

/// Bits 64·start + shift … of the 768-bit value (qword index may be out of range: zeros).
#[inline(always)]
unsafe fn funnel_right(padded: &[__m256i; 9], start: isize, shift: usize) -> __m256i {
    let here = window(padded, start);
    if shift == 0 {
        return here;
    }
    let next = window(padded, start + 1);
    let (right, left) = (_mm_cvtsi64_si128(shift as i64), _mm_cvtsi64_si128(64 - shift as i64));
    _mm256_or_si256(_mm256_srl_epi64(here, right), _mm256_sll_epi64(next, left))
}

/// The value shifted left by 64·(−start) + shift bits, register starting at qword `start`.
#[inline(always)]
unsafe fn funnel_left(padded: &[__m256i; 9], start: isize, shift: usize) -> __m256i {
    let here = window(padded, start);
    if shift == 0 {
        return here;
    }
    let previous = window(padded, start - 1);
    let (left, right) = (_mm_cvtsi64_si128(shift as i64), _mm_cvtsi64_si128(64 - shift as i64));
    _mm256_or_si256(_mm256_sll_epi64(here, left), _mm256_srl_epi64(previous, right))
}

/// The four qwords of the plane starting at qword `start` (−12 ≤ start ≤ 12).
#[inline(always)]
unsafe fn window(padded: &[__m256i; 9], start: isize) -> __m256i {
    let at = (start + 12) as usize;
    let (k, m) = (at / 4, at % 4);
    let (a, b) = (padded[k], padded[(k + 1).min(8)]);
    match m {
        0 => a,
        1 => _mm256_alignr_epi8::<8>(_mm256_permute2x128_si256::<0x21>(a, b), a),
        2 => _mm256_permute2x128_si256::<0x21>(a, b),
        _ => _mm256_alignr_epi8::<8>(b, _mm256_permute2x128_si256::<0x21>(a, b)),
    }
}

#[inline(always)]
unsafe fn load(words: &[u64; WORDS]) -> [Reg; 3] {
    let at = words.as_ptr();
    [
        Reg(_mm256_loadu_si256(at.cast())),
        Reg(_mm256_loadu_si256(at.add(4).cast())),
        Reg(_mm256_loadu_si256(at.add(8).cast())),
    ]
}

#[inline(always)]
unsafe fn store(regs: &[Reg; 3]) -> [u64; WORDS] {
    let mut words = [0u64; WORDS];
    for (j, reg) in regs.iter().enumerate() {
        _mm256_storeu_si256(words.as_mut_ptr().add(4 * j).cast(), reg.0);
    }
    words
}

/// A 256-bit register as `Bits`.
#[derive(Clone, Copy)]
pub struct Reg(pub __m256i);

impl Bits for Reg {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY (here and below): only built inside AVX2 functions.
        Reg(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Reg(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        Reg(unsafe { _mm256_andnot_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn ones() -> Self {
        Reg(unsafe { _mm256_set1_epi64x(-1) })
    }
    #[inline(always)]
    fn zeros() -> Self {
        Reg(unsafe { _mm256_setzero_si256() })
    }
}
