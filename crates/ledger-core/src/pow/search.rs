//! The nonce search of one worker over one instruction set: hash 64 × N consecutive nonces
//! per pass, starting at `first_batch`, stepping by `batch_stride` batches, until a lane
//! reaches the target or `stop` is set.

use super::bitsliced::{lanes_with_trailing_zeros, transform, State};
use super::curl_reference::HASH_LEN;
use super::ternary::{byte_trits, Trit};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub struct SearchJob<'a> {
    /// b1t6 of the BLAKE2b-256 digest of the block without its nonce (192 trits).
    pub digest_trits: &'a [Trit],
    pub target_zeros: u32,
    pub first_batch: u64,
    pub batch_stride: u64,
    pub stop: &'a AtomicBool,
    /// Hashes tried, for hash-rate reporting.
    pub hashes: &'a AtomicU64,
}

const NONCE_AT: usize = 192;

#[inline(always)]
pub fn search<const N: usize>(job: &SearchJob) -> Option<u64> {
    search_with::<N>(job, |state, scratch, keep_from| transform(state, scratch, keep_from))
}

/// The search loop around any implementation of the 81-round transform.
#[inline(always)]
pub fn search_with<const N: usize>(
    job: &SearchJob,
    mut transform: impl FnMut(&mut State<N>, &mut State<N>, usize),
) -> Option<u64> {
    let lanes = 64 * N as u64;
    let zeros = job.target_zeros as usize;
    let mut template = State::<N>::zero();
    for (i, &t) in job.digest_trits.iter().enumerate() {
        template.broadcast_trit(i, t);
    }
    let mut state = State::<N>::zero();
    let mut scratch = State::<N>::zero();
    let mut batch = job.first_batch;
    loop {
        if job.stop.load(Ordering::Relaxed) {
            return None;
        }
        let base = batch.wrapping_mul(lanes);
        // The lanes of one batch differ only in the low 16 bits of the nonce (lanes ≤ 512),
        // so the six upper nonce bytes are the same for every lane.
        let upper = base.to_le_bytes();
        for (byte, &value) in upper.iter().enumerate().skip(2) {
            for (k, &t) in byte_trits(value).iter().enumerate() {
                template.broadcast_trit(NONCE_AT + 6 * byte + k, t);
            }
        }
        state.lo.copy_from_slice(&template.lo);
        state.hi.copy_from_slice(&template.hi);
        for lane in 0..lanes as usize {
            let low = (base.wrapping_add(lane as u64) & 0xffff) as u16;
            for (byte, value) in low.to_le_bytes().into_iter().enumerate() {
                for (k, &t) in byte_trits(value).iter().enumerate() {
                    state.set_trit(NONCE_AT + 6 * byte + k, lane, t);
                }
            }
        }
        transform(&mut state, &mut scratch, HASH_LEN - zeros.max(1));
        job.hashes.fetch_add(lanes, Ordering::Relaxed);
        let found = lanes_with_trailing_zeros(&state, zeros);
        for (w, &word) in found.iter().enumerate() {
            if word != 0 {
                let lane = 64 * w as u64 + word.trailing_zeros() as u64;
                return Some(base.wrapping_add(lane));
            }
        }
        batch = batch.wrapping_add(job.batch_stride);
    }
}
