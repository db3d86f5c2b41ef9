//! The nonce search of one worker over one register type: hash a batch of 64 × WORDS nonces
//! per pass, starting at batch `first_batch` and stepping by `batch_stride` batches, until a
//! lane reaches the target or `stop` is set.
//!
//! Nonce of lane l in batch b: `b · 2¹⁶ + l` (pow.md §6 allows any order). The lanes differ
//! only in the two low nonce bytes, so their trits are a fixed pattern set once per search;
//! the batch number fills the six high bytes, the same in every lane.

use super::transform::{gather_round, transform, Plan, SPARE};
use super::{Lanes, Trit};
use crate::pow::curl_reference::{HASH_LEN, STATE_LEN};
use crate::pow::encoding::{broadcast as broadcast_planes, trit_bits, zero_lanes};
use crate::pow::layout::STRIDE;
use crate::pow::ternary::{byte_trits, Trit as TritValue};
use std::alloc::{alloc, dealloc, Layout};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub struct SearchJob<'a> {
    /// b1t6 of the BLAKE2b-256 digest of the block without its nonce (192 trits).
    pub digest_trits: &'a [TritValue],
    pub target_zeros: u32,
    pub first_batch: u64,
    pub batch_stride: u64,
    pub stop: &'a AtomicBool,
    /// Hashes tried, for hash-rate reporting.
    pub hashes: &'a AtomicU64,
}

/// Where the nonce's trits start in the Curl input (after the digest's 192).
const NONCE_AT: usize = 192;
/// Bits of the nonce that tell the lanes apart.
const LANE_BITS: u32 = 16;
const BATCHES: u64 = 1 << (64 - LANE_BITS);

/// The batch a nonce belongs to (to resume a search after it).
pub fn batch_of(nonce: u64) -> u64 {
    nonce >> LANE_BITS
}

/// Rounds worked out once per search rather than per batch: only the trits that depend on
/// the low batch byte change from one batch to the next, and through the first rounds
/// they reach few positions (6 trits, then 12, 24, 48, 96, 192), so these rounds are
/// redone only there, gathering their inputs.
const PREFIX: usize = 5;

/// # Safety
/// The CPU must support the instructions `R` compiles to (the caller's `target_feature`).
#[inline(always)]
pub unsafe fn search<R: Lanes>(job: &SearchJob) -> Option<u64> {
    let zeros = (job.target_zeros as usize).clamp(1, HASH_LEN);
    let mut hasher = BatchHasher::<R>::new(job.digest_trits, zeros);
    let mut batch = job.first_batch % BATCHES;
    loop {
        if job.stop.load(Ordering::Relaxed) {
            return None;
        }
        let hash = hasher.hash(batch);
        job.hashes.fetch_add(64 * R::WORDS as u64, Ordering::Relaxed);
        let mut found = R::ones();
        for k in 0..zeros {
            let [lo, hi] = *hash.add(k);
            found = found.and(zero_lanes(lo, hi));
        }
        let mut words = [0u64; 8];
        found.store(words.as_mut_ptr());
        if let Some((w, &word)) = words[..R::WORDS].iter().enumerate().find(|(_, &word)| word != 0)
        {
            let lane = 64 * w as u64 + word.trailing_zeros() as u64;
            return Some(batch << LANE_BITS | lane);
        }
        batch = (batch + job.batch_stride) % BATCHES;
    }
}

/// Hashes batch after batch of one digest's nonces.
struct BatchHasher<R: Lanes> {
    plan: Plan,
    prefix: Prefix<R>,
    state: StateBuffer<R>,
    cone: [StateBuffer<R>; 2],
    upper: Option<u64>,
}

impl<R: Lanes> BatchHasher<R> {
    unsafe fn new(digest_trits: &[TritValue], zeros: usize) -> Self {
        let plan = Plan::new::<R>(zeros, PREFIX);
        let cone = [StateBuffer::new(plan.cone_width), StateBuffer::new(plan.cone_width)];
        BatchHasher {
            prefix: Prefix::new(digest_trits),
            state: StateBuffer::new(STATE_LEN + SPARE),
            cone,
            plan,
            upper: None,
        }
    }

    /// Hash trits 242, 241, … (as many as the plan's zeros) of every lane of `batch`.
    #[inline(always)]
    unsafe fn hash(&mut self, batch: u64) -> *const Trit<R> {
        self.prefix.set_batch(batch, self.upper != Some(batch >> 8));
        self.upper = Some(batch >> 8);
        transform(
            self.prefix.last(),
            self.state.trits(),
            [self.cone[0].trits(), self.cone[1].trits()],
            &self.plan,
        )
    }
}

/// The Curl input of a batch (state 0) and the states after each of the PREFIX rounds.
struct Prefix<R: Lanes> {
    states: Vec<StateBuffer<R>>,
    /// Per prefix round, the (output, a, b) byte offsets of every position.
    every: Vec<Vec<(u32, u32, u32)>>,
    /// The same for the positions that depend on the low batch byte.
    low_byte: Vec<Vec<(u32, u32, u32)>>,
}

impl<R: Lanes> Prefix<R> {
    unsafe fn new(digest_trits: &[TritValue]) -> Self {
        let mut states: Vec<StateBuffer<R>> =
            (0..=PREFIX).map(|_| StateBuffer::new(STATE_LEN)).collect();
        let input = states[0].trits();
        for (i, &trit) in digest_trits.iter().enumerate() {
            *input.add(i) = broadcast(trit);
        }
        set_lane_pattern(input);
        let size = std::mem::size_of::<Trit<R>>() as u32;
        let steps = |r: usize, outputs: &[usize]| -> Vec<(u32, u32, u32)> {
            outputs
                .iter()
                .map(|&p| {
                    (p as u32 * size, p as u32 * size, ((p + STRIDE[r]) % STATE_LEN) as u32 * size)
                })
                .collect()
        };
        let every = (0..PREFIX).map(|r| steps(r, &(0..STATE_LEN).collect::<Vec<_>>())).collect();
        let mut depends: Vec<usize> = (0..6).map(|k| NONCE_AT + 6 * 2 + k).collect();
        let mut low_byte = Vec::new();
        for (r, stride) in STRIDE.iter().enumerate().take(PREFIX) {
            // Output p reads p and p + δ_r.
            let mut next: Vec<usize> =
                depends.iter().flat_map(|&p| [p, (p + STATE_LEN - stride) % STATE_LEN]).collect();
            next.sort_unstable();
            next.dedup();
            low_byte.push(steps(r, &next));
            depends = next;
        }
        Prefix { states, every, low_byte }
    }

    /// Put `batch` into the input and bring the prefix states up to date: all of them when
    /// more than the low batch byte changed.
    #[inline(always)]
    unsafe fn set_batch(&mut self, batch: u64, upper_changed: bool) {
        let input = self.states[0].trits();
        let bytes = if upper_changed { 6 } else { 1 };
        for (byte, value) in batch.to_le_bytes().into_iter().take(bytes).enumerate() {
            for (k, &trit) in byte_trits(value).iter().enumerate() {
                *input.add(NONCE_AT + 6 * (2 + byte) + k) = broadcast(trit);
            }
        }
        let plans = if upper_changed { &self.every } else { &self.low_byte };
        for (r, steps) in plans.iter().enumerate() {
            gather_round(self.states[r].trits(), self.states[r + 1].trits(), steps);
        }
    }

    fn last(&mut self) -> *const Trit<R> {
        self.states[PREFIX].trits()
    }
}

#[inline(always)]
fn broadcast<R: Lanes>(trit: TritValue) -> Trit<R> {
    let (lo, hi) = broadcast_planes::<R>(trit);
    [lo, hi]
}

/// Lane l gets l as its two low nonce bytes.
#[inline(always)]
unsafe fn set_lane_pattern<R: Lanes>(trits: *mut Trit<R>) {
    let lanes = 64 * R::WORDS;
    for byte in 0..2 {
        for k in 0..6 {
            let (mut lo, mut hi) = ([0u64; 8], [0u64; 8]);
            for lane in 0..lanes {
                let trit = byte_trits((lane >> (8 * byte)) as u8)[k];
                let (l, h) = trit_bits(trit);
                lo[lane / 64] |= (l as u64) << (lane % 64);
                hi[lane / 64] |= (h as u64) << (lane % 64);
            }
            *trits.add(NONCE_AT + 6 * byte + k) = [R::load(lo.as_ptr()), R::load(hi.as_ptr())];
        }
    }
}

/// `len` trits on a 64-byte boundary (a trit of AVX2 lanes is one cache line), all zero.
struct StateBuffer<R: Lanes> {
    trits: *mut Trit<R>,
    len: usize,
}

impl<R: Lanes> StateBuffer<R> {
    fn layout(len: usize) -> Layout {
        Layout::from_size_align(len.max(1) * std::mem::size_of::<Trit<R>>(), 64)
            .expect("a few tens of kilobytes")
    }

    unsafe fn new(len: usize) -> Self {
        let trits = alloc(Self::layout(len)) as *mut Trit<R>;
        assert!(!trits.is_null(), "out of memory for a PoW state");
        for i in 0..len {
            *trits.add(i) = broadcast(0);
        }
        StateBuffer { trits, len }
    }

    fn trits(&mut self) -> *mut Trit<R> {
        self.trits
    }
}

impl<R: Lanes> Drop for StateBuffer<R> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with the same layout.
        unsafe { dealloc(self.trits.cast(), Self::layout(self.len)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::curl_reference::curl_p81;
    use crate::pow::encoding::decode;
    use crate::pow::ternary::b1t6;

    /// Batches on both sides of a change of the upper batch bytes (all prefix rounds redone)
    /// and between (only the low byte's cone), every hash trit of sample lanes against the
    /// reference.
    #[test]
    fn batches_hash_like_the_reference() {
        let digest = [0x5au8; 32];
        let digest_trits = b1t6(&digest);
        let mut hasher = unsafe { BatchHasher::<[u64; 2]>::new(&digest_trits, HASH_LEN) };
        for batch in [7u64, 254, 255, 256, 257, 0x1_0000_0001] {
            let hash = unsafe { hasher.hash(batch) };
            for lane in [0usize, 1, 77, 127] {
                let nonce = batch << LANE_BITS | lane as u64;
                let mut input = digest_trits.clone();
                input.extend(b1t6(&nonce.to_le_bytes()));
                input.extend([0, 0, 0]);
                let expected = curl_p81(&input);
                for k in 0..HASH_LEN {
                    let trit = unsafe { *hash.add(k) };
                    let bit = |w: [u64; 2]| w[lane / 64] >> (lane % 64) & 1 == 1;
                    assert_eq!(
                        decode(bit(trit[0]), bit(trit[1])),
                        expected[HASH_LEN - 1 - k],
                        "batch {batch} lane {lane} trit {}",
                        HASH_LEN - 1 - k
                    );
                }
            }
        }
    }
}
