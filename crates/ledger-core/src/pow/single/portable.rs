//! The single-state transform in plain 64-bit words, for every target.

use super::{Planes, LAST_WORD_MASK, WORDS};
use crate::pow::encoding::f;
use crate::pow::layout::STRIDE;

/// A plane stored twice in a row (bits 0..729, then again from bit 729), so that any
/// rotation of it is a plain 729-bit read starting at bit δ; a spare word keeps reads in
/// bounds.
type Doubled = [u64; 2 * WORDS + 1];

pub fn transform((mut lo, mut hi): Planes) -> Planes {
    let mut lo2: Doubled = [0; 2 * WORDS + 1];
    let mut hi2: Doubled = [0; 2 * WORDS + 1];
    for stride in STRIDE {
        double(&lo, &mut lo2);
        double(&hi, &mut hi2);
        let (q, s) = (stride / 64, stride % 64);
        let (b_lo, b_hi) = (&lo2[q..q + WORDS + 1], &hi2[q..q + WORDS + 1]);
        for w in 0..WORDS {
            (lo[w], hi[w]) = f(lo[w], hi[w], read(b_lo, w, s), read(b_hi, w, s));
        }
    }
    (lo, hi)
}

#[inline(always)]
fn double(plane: &[u64; WORDS], out: &mut Doubled) {
    out[..WORDS].copy_from_slice(plane);
    // The copy starts at bit 729 = word 11, bit 25; bits above 729 of the plane are junk.
    let shift = 25;
    out[WORDS - 1] = (plane[WORDS - 1] & LAST_WORD_MASK) | (plane[0] << shift);
    for w in 0..WORDS - 1 {
        out[WORDS + w] = (plane[w] >> (64 - shift)) | (plane[w + 1] << shift);
    }
    out[2 * WORDS - 1] = (plane[WORDS - 1] & LAST_WORD_MASK) >> (64 - shift);
}

/// 64 bits of `plane` starting at bit `64·word + shift`.
#[inline(always)]
fn read(plane: &[u64], word: usize, shift: usize) -> u64 {
    // Two shifts on the high word keep a shift of 0 defined (no shift by 64).
    (plane[word] >> shift) | ((plane[word + 1] << 1) << (63 - shift))
}
