//! Curl-P-81 over a state of `Trit<R>` in place. In the layouts of `layout.rs` round r
//! turns position p into F(p, p + δ_r): walking p = 0, δ, 2δ, … each input is read once,
//! as the second operand of one step and then as the first of the next, and the output
//! replaces it, so the state needs no second buffer. Several rounds share a walk at the
//! stride of the last one: the trits the earlier rounds need are a fixed number of steps
//! behind or ahead (δ_r = −2·δ_(r+1)), so each trit is loaded and stored once per walk.
//! Round 0 walks alone, then rounds go in threes (a pair or a single round for the rest).
//!
//! The last rounds are not walked: the caller reads a few hash trits (the miner the
//! trailing zeros it needs), output p of a round reads positions p and p + δ, so going
//! back from those trits the set of outputs that matter grows slowly (12, 13, 15, 19, 27,
//! 43, 75, 139, 267 for 12 zeros) and the last rounds compute only that cone, gathering
//! their inputs.

use super::{Lanes, Trit};
use crate::pow::curl_reference::{HASH_LEN, ROUNDS, STATE_LEN};
use crate::pow::encoding::f;
use crate::pow::layout::{position, STRIDE};

/// Trits past the end of the state that a three-round walk uses (see `three_rounds`).
pub const SPARE: usize = 4;

/// A cone round is worth it while it computes at most this many outputs (a cone step
/// costs about 1.7 walk steps: its two inputs are gathered, not carried along the walk).
const CONE_LIMIT: usize = 400;

/// What a transform computes: every round in full up to some round, then, for the last
/// rounds, only the outputs that can reach the hash trits the caller reads (the cone).
pub struct Plan {
    /// Byte offsets of the walk of each group of full rounds, in order: entry n is
    /// position n·δ (entries past 729 point at the SPARE slots).
    walks: Vec<Walk>,
    /// For each cone round, the (a, b) byte offsets of each output's inputs: into the state
    /// for the first cone round, into the previous cone round's outputs after it.
    cone: Vec<Vec<(u32, u32)>>,
    /// Largest number of outputs of a cone round.
    pub cone_width: usize,
}

enum Walk {
    One(Vec<u32>),
    Two(Vec<u32>),
    Three(Vec<u32>),
}

impl Plan {
    /// A plan whose result holds hash trits 242, 241, …, 243 − `zeros` (1 ≤ zeros ≤ 243),
    /// in that order, from the state after `prefix` rounds (computed by the caller).
    pub fn new<R: Lanes>(zeros: usize, prefix: usize) -> Plan {
        assert!((1..=HASH_LEN).contains(&zeros), "a plan reads 1 to 243 hash trits");
        let size = std::mem::size_of::<Trit<R>>() as u32;
        // Outputs of round r (positions in the layout of round r + 1), from the last round
        // back, while they stay few.
        let mut needed: Vec<Vec<usize>> =
            vec![(0..zeros).map(|k| position(ROUNDS, HASH_LEN - 1 - k)).collect()];
        loop {
            let r = ROUNDS - needed.len();
            let mut inputs: Vec<usize> = needed[needed.len() - 1]
                .iter()
                .flat_map(|&p| [p, (p + STRIDE[r]) % STATE_LEN])
                .collect();
            inputs.sort_unstable();
            inputs.dedup();
            if inputs.len() > CONE_LIMIT || r <= prefix + 1 {
                break;
            }
            needed.push(inputs);
        }
        needed.reverse();
        let first_cone_round = ROUNDS - needed.len();
        let cone = needed
            .iter()
            .enumerate()
            .map(|(k, outputs)| {
                let source = |p: usize| -> u32 {
                    let slot = if k == 0 {
                        p
                    } else {
                        needed[k - 1]
                            .binary_search(&p)
                            .expect("a cone input is an output of the round before")
                    };
                    slot as u32 * size
                };
                let r = first_cone_round + k;
                outputs.iter().map(|&p| (source(p), source((p + STRIDE[r]) % STATE_LEN))).collect()
            })
            .collect::<Vec<Vec<_>>>();
        let walk = |stride: usize, len: usize| -> Vec<u32> {
            (0..len)
                .map(|n| {
                    if n < STATE_LEN {
                        (n * stride % STATE_LEN) as u32 * size
                    } else {
                        n as u32 * size
                    }
                })
                .collect()
        };
        let mut walks = vec![Walk::One(walk(STRIDE[prefix], STATE_LEN))];
        let mut r = prefix + 1;
        while r + 3 <= first_cone_round {
            walks.push(Walk::Three(walk(STRIDE[r + 2], STATE_LEN + SPARE)));
            r += 3;
        }
        match first_cone_round - r {
            2 => walks.push(Walk::Two(walk(STRIDE[r + 1], STATE_LEN))),
            1 => walks.push(Walk::One(walk(STRIDE[r], STATE_LEN))),
            _ => {}
        }
        let cone_width = cone.iter().map(Vec::len).max().unwrap_or(0);
        Plan { walks, cone, cone_width }
    }
}

/// The rounds of `plan` after its prefix.
///
/// # Safety
/// `input` points at the STATE_LEN trits of the state after the prefix rounds (left as
/// they are), `state` at STATE_LEN + SPARE trits of work space, `cone` at two buffers of
/// `plan.cone_width` trits. Returns the buffer that holds the hash trits the plan was made
/// for.
#[inline(always)]
pub unsafe fn transform<R: Lanes>(
    input: *const Trit<R>,
    state: *mut Trit<R>,
    cone: [*mut Trit<R>; 2],
    plan: &Plan,
) -> *mut Trit<R> {
    let whole = Memory::<R>::at(state);
    for (k, walk) in plan.walks.iter().enumerate() {
        match walk {
            Walk::One(w) if k == 0 => one_round_into(&Memory::at(input as *mut Trit<R>), &whole, w),
            Walk::One(w) => one_round(&whole, w),
            Walk::Two(w) => two_rounds(&whole, w),
            Walk::Three(w) => three_rounds(&whole, w),
        }
    }
    let (mut source, mut out) = (whole, state);
    for (k, steps) in plan.cone.iter().enumerate() {
        out = cone[k % 2];
        let target = Memory::<R>::at(out);
        let mut at = 0;
        for &(a, b) in steps {
            target.store(at, fr(source.load(a), source.load(b)));
            at += std::mem::size_of::<Trit<R>>() as u32;
        }
        source = target;
    }
    out
}

#[inline(always)]
fn fr<R: Lanes>(a: Trit<R>, b: Trit<R>) -> Trit<R> {
    let (lo, hi) = f(a[0], a[1], b[0], b[1]);
    [lo, hi]
}

/// Trits as raw bytes, read and written at byte offsets.
#[derive(Clone, Copy)]
struct Memory<R>(*mut u8, std::marker::PhantomData<R>);

impl<R: Lanes> Memory<R> {
    #[inline(always)]
    fn at(trits: *mut Trit<R>) -> Self {
        Memory(trits.cast(), std::marker::PhantomData)
    }

    #[inline(always)]
    unsafe fn load(&self, at: u32) -> Trit<R> {
        *(self.0.add(at as usize) as *const Trit<R>)
    }

    #[inline(always)]
    unsafe fn store(&self, at: u32, trit: Trit<R>) {
        *(self.0.add(at as usize) as *mut Trit<R>) = trit;
    }
}

/// One round from `source` into `target`, which may be the same: step n reads x_n and
/// x_(n+1), writes k_n.
#[inline(always)]
unsafe fn one_round_into<R: Lanes>(source: &Memory<R>, target: &Memory<R>, walk: &[u32]) {
    let first = source.load(0);
    let mut a = first;
    for n in 1..STATE_LEN {
        let b = source.load(*walk.get_unchecked(n));
        target.store(*walk.get_unchecked(n - 1), fr(a, b));
        a = b;
    }
    target.store(walk[STATE_LEN - 1], fr(a, first));
}

/// Output p of round r for each (p, a, b) step, from `source` (the state before the
/// round) into `target` (after it); byte offsets.
#[inline(always)]
pub unsafe fn gather_round<R: Lanes>(
    source: *const Trit<R>,
    target: *mut Trit<R>,
    steps: &[(u32, u32, u32)],
) {
    let (source, target) = (Memory::at(source as *mut Trit<R>), Memory::at(target));
    for &(p, a, b) in steps {
        target.store(p, fr(source.load(a), source.load(b)));
    }
}

/// One round in place.
#[inline(always)]
unsafe fn one_round<R: Lanes>(state: &Memory<R>, walk: &[u32]) {
    one_round_into(state, state, walk)
}

/// Rounds r and r + 1 at the stride of the second, δ₂: round r at k_n reads
/// k_n + δ₁ = k_(n−2) (δ₁ = −2·δ₂).
/// Entering step n the registers hold x_(n−2), x_(n−1) and mid_(n−1).
#[inline(always)]
unsafe fn two_rounds<R: Lanes>(state: &Memory<R>, walk: &[u32]) {
    let walk: &[u32; STATE_LEN] = walk.try_into().expect("a walk visits every position");
    let mut x_before_last = state.load(walk[STATE_LEN - 2]);
    let mut x_last = state.load(walk[STATE_LEN - 1]);
    let x0 = state.load(0);
    let mid0 = fr(x0, x_before_last);
    (x_before_last, x_last) = (x_last, x0);
    let mut mid_last = mid0;
    // Steps 1..=728, two per iteration so that the rolling registers need no moves.
    let mut n = 1;
    while n < STATE_LEN {
        let x = state.load(*walk.get_unchecked(n));
        let mid = fr(x, x_before_last);
        state.store(*walk.get_unchecked(n - 1), fr(mid_last, mid));
        let y = state.load(*walk.get_unchecked(n + 1));
        let mid_y = fr(y, x_last);
        state.store(*walk.get_unchecked(n), fr(mid, mid_y));
        (x_before_last, x_last, mid_last) = (x, y, mid_y);
        n += 2;
    }
    state.store(walk[STATE_LEN - 1], fr(mid_last, mid0));
}

/// Rounds r, r + 1, r + 2 at the stride of the third, δ₃: the second round's step at k_n
/// reads k_(n−2) (δ₂ = −2·δ₃) and the first round's reads k_(n+4) (δ₁ = 4·δ₃). Step n
/// loads x_n and x_(n+4) and stores the output of k_(n−1), so a trit is loaded at most
/// four steps before it is overwritten, except x_0..x_3, which the last steps need after
/// the first steps replaced them: they go to the SPARE slots past the end of the state,
/// where the walk's entries 729..732 point.
#[inline(always)]
unsafe fn three_rounds<R: Lanes>(state: &Memory<R>, walk: &[u32]) {
    let walk: &[u32; STATE_LEN + SPARE] =
        walk.try_into().expect("a walk visits every position and the spares");
    for k in 0..SPARE {
        state.store(walk[STATE_LEN + k], state.load(walk[k]));
    }
    let mut m1_before_last = fr(state.load(walk[STATE_LEN - 2]), state.load(walk[2]));
    let mut m1_last = fr(state.load(walk[STATE_LEN - 1]), state.load(walk[3]));
    let m1 = fr(state.load(0), state.load(walk[4]));
    let m2_0 = fr(m1, m1_before_last);
    (m1_before_last, m1_last) = (m1_last, m1);
    let mut m2_last = m2_0;
    // Steps 1..=728, four per iteration so that the rolling values need no moves.
    let at = |n: usize| *walk.get_unchecked(n);
    let mut n = 1;
    while n < STATE_LEN {
        let a = fr(state.load(at(n)), state.load(at(n + 4)));
        let m2_a = fr(a, m1_before_last);
        state.store(at(n - 1), fr(m2_last, m2_a));
        let b = fr(state.load(at(n + 1)), state.load(at(n + 5)));
        let m2_b = fr(b, m1_last);
        state.store(at(n), fr(m2_a, m2_b));
        let c = fr(state.load(at(n + 2)), state.load(at(n + 6)));
        let m2_c = fr(c, a);
        state.store(at(n + 1), fr(m2_b, m2_c));
        let d = fr(state.load(at(n + 3)), state.load(at(n + 7)));
        let m2_d = fr(d, b);
        state.store(at(n + 2), fr(m2_c, m2_d));
        (m1_before_last, m1_last, m2_last) = (c, d, m2_d);
        n += 4;
    }
    state.store(walk[STATE_LEN - 1], fr(m2_last, m2_0));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::curl_reference::curl_p81;
    use crate::pow::encoding::{decode, trit_bits};

    #[test]
    fn cone_sizes_for_twelve_zeros() {
        let plan = Plan::new::<[u64; 2]>(12, 0);
        let sizes: Vec<usize> = plan.cone.iter().map(Vec::len).collect();
        assert_eq!(sizes, [267, 139, 75, 43, 27, 19, 15, 13, 12]);
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
        let inputs: Vec<[i8; HASH_LEN]> =
            (0..128).map(|_| std::array::from_fn(|_| next())).collect();
        let mut state = vec![[[!0u64; 2]; 2]; STATE_LEN + SPARE];
        for (lane, input) in inputs.iter().enumerate() {
            for (t, &trit) in input.iter().enumerate() {
                let (lo, hi) = trit_bits(trit);
                let bit = 1u64 << (lane % 64);
                let word = &mut state[t];
                word[0][lane / 64] = (word[0][lane / 64] & !bit) | if lo { bit } else { 0 };
                word[1][lane / 64] = (word[1][lane / 64] & !bit) | if hi { bit } else { 0 };
            }
        }
        for zeros in [1, 12, 60, HASH_LEN] {
            let plan = Plan::new::<[u64; 2]>(zeros, 0);
            let mut work = state.clone();
            let mut cone = vec![[[0u64; 2]; 2]; 2 * plan.cone_width];
            let (c0, c1) = cone.split_at_mut(plan.cone_width);
            let out = unsafe {
                transform::<[u64; 2]>(
                    state.as_ptr(),
                    work.as_mut_ptr(),
                    [c0.as_mut_ptr(), c1.as_mut_ptr()],
                    &plan,
                )
            };
            for (lane, input) in inputs.iter().enumerate() {
                let expected = curl_p81(input);
                for k in 0..zeros {
                    let (j, t) = (HASH_LEN - 1 - k, expected[HASH_LEN - 1 - k]);
                    let trit = unsafe { &*out.add(k) };
                    let bit = |w: [u64; 2]| w[lane / 64] >> (lane % 64) & 1 == 1;
                    assert_eq!(
                        decode(bit(trit[0]), bit(trit[1])),
                        t,
                        "{zeros} zeros: lane {lane} trit {j}"
                    );
                }
            }
        }
    }
}
