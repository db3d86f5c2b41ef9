//! Bit-sliced Curl-P-81: every trit is two bits (`lo`, `hi`) and every bit position of a
//! lane word is a different input, so one pass hashes 64 × N inputs at once.
//!
//! Encoding: −1 = (lo 1, hi 0), 0 = (1, 1), +1 = (0, 1). With it the truth table of
//! pow.md §3 becomes four bitwise operations (checked exhaustively in the tests):
//! `d = (a.lo | !b.hi) & (b.lo ^ a.hi); lo' = !d; hi' = (a.lo ^ b.hi) | d` where a is the
//! trit at the walk position and b the one after it.
//!
//! The code is generic over the lane width N (u64 words per lane group) and marked
//! `inline(always)`, so that `engines.rs` can compile it once per instruction set.

use super::curl_reference::{HASH_LEN, ROUNDS, STATE_LEN};

pub type Word<const N: usize> = [u64; N];

/// The walk of pow.md §3: position k of the walk reads state index WALK[k]; WALK[729] = 0.
pub const WALK: [u16; STATE_LEN + 1] = {
    let mut walk = [0u16; STATE_LEN + 1];
    let mut p = 0usize;
    let mut k = 0;
    while k <= STATE_LEN {
        walk[k] = p as u16;
        p = if p < 365 { p + 364 } else { p - 365 };
        k += 1;
    }
    walk
};

pub struct State<const N: usize> {
    pub lo: [Word<N>; STATE_LEN],
    pub hi: [Word<N>; STATE_LEN],
}

impl<const N: usize> State<N> {
    /// All lanes zero (0 = lo 1, hi 1).
    pub fn zero() -> Box<Self> {
        Box::new(State { lo: [[!0; N]; STATE_LEN], hi: [[!0; N]; STATE_LEN] })
    }

    /// Set trit `t` of lane `lane`.
    #[inline(always)]
    pub fn set_trit(&mut self, index: usize, lane: usize, t: i8) {
        let (w, b) = (lane / 64, lane % 64);
        let bit = 1u64 << b;
        let (lo, hi) = encode(t);
        self.lo[index][w] = (self.lo[index][w] & !bit) | if lo { bit } else { 0 };
        self.hi[index][w] = (self.hi[index][w] & !bit) | if hi { bit } else { 0 };
    }

    /// Set trit `index` to the same value in every lane.
    #[inline(always)]
    pub fn broadcast_trit(&mut self, index: usize, t: i8) {
        let (lo, hi) = encode(t);
        self.lo[index] = [if lo { !0 } else { 0 }; N];
        self.hi[index] = [if hi { !0 } else { 0 }; N];
    }

    pub fn trit(&self, index: usize, lane: usize) -> i8 {
        let (w, b) = (lane / 64, lane % 64);
        let lo = self.lo[index][w] >> b & 1;
        let hi = self.hi[index][w] >> b & 1;
        match (lo, hi) {
            (1, 0) => -1,
            (0, 1) => 1,
            _ => 0,
        }
    }
}

#[inline(always)]
fn encode(t: i8) -> (bool, bool) {
    match t {
        -1 => (true, false),
        1 => (false, true),
        _ => (true, true),
    }
}

#[inline(always)]
fn f<const N: usize>(a_lo: &Word<N>, a_hi: &Word<N>, b_lo: &Word<N>, b_hi: &Word<N>) -> (Word<N>, Word<N>) {
    let mut lo = [0u64; N];
    let mut hi = [0u64; N];
    for w in 0..N {
        let d = (a_lo[w] | !b_hi[w]) & (b_lo[w] ^ a_hi[w]);
        lo[w] = !d;
        hi[w] = (a_lo[w] ^ b_hi[w]) | d;
    }
    (lo, hi)
}

/// One full round from `src` into `dst`. Consecutive positions of the walk share a
/// trit (b of step i is a of step i+1), so each source trit is loaded once.
#[inline(always)]
fn round<const N: usize>(src: &State<N>, dst: &mut State<N>) {
    let (mut a_lo, mut a_hi) = (src.lo[0], src.hi[0]);
    for i in 0..STATE_LEN {
        let b = WALK[i + 1] as usize;
        let (b_lo, b_hi) = (src.lo[b], src.hi[b]);
        let (lo, hi) = f(&a_lo, &a_hi, &b_lo, &b_hi);
        dst.lo[i] = lo;
        dst.hi[i] = hi;
        (a_lo, a_hi) = (b_lo, b_hi);
    }
}

/// Curl-P-81 over the state in place (`scratch` is the second buffer). In the last round
/// only the positions at or above `keep_from` are computed: the miner reads nothing else.
#[inline(always)]
pub fn transform<const N: usize>(state: &mut State<N>, scratch: &mut State<N>, keep_from: usize) {
    // 81 rounds = 40 ping-pong pairs, then the last round restricted to what is read.
    for _ in 0..(ROUNDS - 1) / 2 {
        round(state, scratch);
        round(scratch, state);
    }
    for i in keep_from..HASH_LEN {
        let a = WALK[i] as usize;
        let b = WALK[i + 1] as usize;
        let (lo, hi) = f(&state.lo[a], &state.hi[a], &state.lo[b], &state.hi[b]);
        scratch.lo[i] = lo;
        scratch.hi[i] = hi;
    }
    state.lo[keep_from..HASH_LEN].copy_from_slice(&scratch.lo[keep_from..HASH_LEN]);
    state.hi[keep_from..HASH_LEN].copy_from_slice(&scratch.hi[keep_from..HASH_LEN]);
}

/// Lanes whose hash ends in at least `zeros` zero trits (a zero trit is lo = hi = 1).
#[inline(always)]
pub fn lanes_with_trailing_zeros<const N: usize>(state: &State<N>, zeros: usize) -> Word<N> {
    let mut mask = [!0u64; N];
    for t in (HASH_LEN - zeros..HASH_LEN).rev() {
        let mut any = 0;
        for w in 0..N {
            mask[w] &= state.lo[t][w] & state.hi[t][w];
            any |= mask[w];
        }
        if any == 0 {
            break;
        }
    }
    mask
}

/// Number of trailing zero trits of one lane.
pub fn trailing_zeros_of_lane<const N: usize>(state: &State<N>, lane: usize) -> u32 {
    (0..HASH_LEN).rev().take_while(|&t| state.trit(t, lane) == 0).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::curl_reference::curl_p81;

    #[test]
    fn f_matches_the_truth_table_for_all_nine_pairs() {
        for a in -1i8..=1 {
            for b in -1i8..=1 {
                let mut s = State::<1>::zero();
                s.broadcast_trit(0, a);
                s.broadcast_trit(1, b);
                let (lo, hi) = f(&s.lo[0], &s.hi[0], &s.lo[1], &s.hi[1]);
                let mut out = State::<1>::zero();
                out.lo[0] = lo;
                out.hi[0] = hi;
                let expected = [[1, 1, -1], [0, -1, 1], [-1, 0, 0]][(a + 1) as usize][(b + 1) as usize];
                assert_eq!(out.trit(0, 0), expected, "F({a}, {b})");
            }
        }
    }

    #[test]
    fn every_lane_matches_the_reference() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 3) as i8 - 1
        };
        let mut state = State::<2>::zero();
        let mut inputs = vec![[0i8; HASH_LEN]; 128];
        for (lane, input) in inputs.iter_mut().enumerate() {
            for (t, trit) in input.iter_mut().enumerate() {
                *trit = next();
                state.set_trit(t, lane, *trit);
            }
        }
        let mut scratch = State::<2>::zero();
        transform(&mut state, &mut scratch, 0);
        for (lane, input) in inputs.iter().enumerate() {
            let expected = curl_p81(input);
            for t in 0..HASH_LEN {
                assert_eq!(state.trit(t, lane), expected[t], "lane {lane} trit {t}");
            }
        }
    }
}
