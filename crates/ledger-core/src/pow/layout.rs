//! The permuted state layouts that make a Curl round local (pow.md §3).
//!
//! A round writes `S[i] = F(C[364·i], C[364·i + 364])` (indices mod 729). Keep the state in
//! a layout where position `p` holds trit `m·p` of the state for some unit `m` mod 729. If
//! the input of round r sits in layout `m` and its output is written in layout
//! `m · 364⁻¹ = −2m`, then output position `p` reads input positions `p` and `p + δ` with
//! `δ = 364 · m⁻¹`: every round becomes "combine each position with the one δ further",
//! a rotation instead of a gather. Starting from the natural layout (m = 1), the input of
//! round r (counted from 0) sits in layout `364⁻ʳ`, reads at stride `δ_r = 364^(r+1)`, and
//! trit `j` of that state sits at position `j · 364ʳ`.
//!
//! Both transforms use it: `single.rs` rotates 729-bit planes; `lanes/transform.rs` walks
//! positions at stride δ and writes each output over the input it replaces.

use super::curl_reference::{ROUNDS, STATE_LEN};

const fn mul(a: usize, b: usize) -> usize {
    (a * b) % STATE_LEN
}

const fn power_of_364(e: usize) -> usize {
    let mut p = 1;
    let mut k = 0;
    while k < e {
        p = mul(p, 364);
        k += 1;
    }
    p
}

/// `POSITION_STEP[r]` = 364^r: the input of round r (0-based; r = 81 is the final state)
/// keeps state trit `j` at position `j · POSITION_STEP[r] mod 729`.
pub const POSITION_STEP: [usize; ROUNDS + 1] = {
    let mut steps = [0; ROUNDS + 1];
    let mut r = 0;
    while r <= ROUNDS {
        steps[r] = power_of_364(r);
        r += 1;
    }
    steps
};

/// Round r (0-based) computes output position p from input positions p and p + STRIDE[r].
pub const STRIDE: [usize; ROUNDS] = {
    let mut strides = [0; ROUNDS];
    let mut r = 0;
    while r < ROUNDS {
        strides[r] = POSITION_STEP[r + 1];
        r += 1;
    }
    strides
};

/// Where state trit `j` sits before round `r` (after `r` rounds).
#[inline(always)]
pub const fn position(round: usize, trit: usize) -> usize {
    mul(trit, POSITION_STEP[round])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::curl_reference::{transform, HASH_LEN};

    /// One round in the permuted layout, one trit per byte, against the reference rounds.
    #[test]
    fn rounds_in_the_permuted_layouts_equal_the_reference() {
        const F: [[i8; 3]; 3] = [[1, 1, -1], [0, -1, 1], [-1, 0, 0]];
        let mut natural = [0i8; STATE_LEN];
        for (i, t) in natural.iter_mut().enumerate().take(HASH_LEN) {
            *t = ((i * 7 + i / 5) % 3) as i8 - 1;
        }
        let mut permuted = natural;
        for r in 0..ROUNDS {
            let input = permuted;
            for p in 0..STATE_LEN {
                let (a, b) = (input[p], input[(p + STRIDE[r]) % STATE_LEN]);
                permuted[p] = F[(a + 1) as usize][(b + 1) as usize];
            }
        }
        transform(&mut natural);
        for j in 0..STATE_LEN {
            assert_eq!(permuted[position(ROUNDS, j)], natural[j], "trit {j}");
        }
    }

    #[test]
    fn every_stride_is_a_unit() {
        for s in STRIDE {
            assert_ne!(s % 3, 0, "a stride divisible by 3 would not visit every position");
        }
    }
}
