//! The multi-threaded miner (pow.md §6): the digest and its trits are computed once, then
//! worker k of W searches batches k, k+W, k+2W, … until one finds a nonce that reaches the
//! target or the caller cancels.

use super::engines::Engine;
use super::lanes::search::{batch_of, SearchJob};
use super::required_zeros;
use super::ternary::b1t6;
use crate::hash::blake2b256;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MineResult {
    pub nonce: u64,
    /// Hashes tried by all workers together.
    pub hashes: u64,
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Find a nonce for `block` (complete serialized block; its last 8 bytes are the nonce
/// slot and are ignored) so that its score reaches `min_pow_score`. `None` when cancelled.
pub fn mine(
    block: &[u8],
    min_pow_score: u32,
    threads: usize,
    cancel: &AtomicBool,
) -> Option<MineResult> {
    assert!(block.len() >= 8, "a block ends with an 8-byte nonce");
    let zeros = required_zeros(min_pow_score, block.len());
    if zeros == 0 {
        return Some(MineResult { nonce: 0, hashes: 0 });
    }
    mine_zeros(&block[..block.len() - 8], zeros, threads, cancel, Engine::detect())
}

/// Search for `zeros` trailing zero trits over `prefix` (the block without its nonce).
pub fn mine_zeros(
    prefix: &[u8],
    zeros: u32,
    threads: usize,
    cancel: &AtomicBool,
    engine: Engine,
) -> Option<MineResult> {
    let digest_trits = b1t6(&blake2b256(prefix));
    let threads = threads.max(1);
    let stop = AtomicBool::new(false);
    let hashes = AtomicU64::new(0);
    let winner = Mutex::new(None);
    // The calling thread relays cancellation and sleeps in between; the worker that finds
    // a nonce wakes it, so an easy target returns as soon as it is found instead of at the
    // end of a sleep (at a low minPowScore the 2 ms sleep was most of a job's time).
    let relay = std::thread::current();
    std::thread::scope(|scope| {
        for k in 0..threads {
            let (digest_trits, stop, hashes, winner, relay) =
                (&digest_trits, &stop, &hashes, &winner, &relay);
            scope.spawn(move || {
                let job = SearchJob {
                    digest_trits,
                    target_zeros: zeros,
                    first_batch: k as u64,
                    batch_stride: threads as u64,
                    stop,
                    hashes,
                };
                if let Some(nonce) = engine.search(&job) {
                    winner.lock().expect("no panics hold this lock").get_or_insert(nonce);
                    stop.store(true, Ordering::Release);
                    relay.unpark();
                }
            });
        }
        // Relay an outside cancellation to the workers (checked every 2 ms).
        while !stop.load(Ordering::Acquire) {
            if cancel.load(Ordering::Relaxed) {
                stop.store(true, Ordering::Relaxed);
                break;
            }
            std::thread::park_timeout(std::time::Duration::from_millis(2));
        }
    });
    let nonce = winner.into_inner().expect("no panics hold this lock")?;
    Some(MineResult { nonce, hashes: hashes.load(Ordering::Relaxed) })
}

/// Trailing zeros the hash-rate probe mines for: what a 300-byte block needs at the
/// default minPowScore 1500 (pow.md §6), so the probe runs the same plan as real mining.
const PROBE_ZEROS: u32 = 12;

/// Hashes per second of `threads` workers mining for `duration` (the user-facing
/// benchmark). They mine as for a real block and go on after each nonce they find.
pub fn hash_rate(threads: usize, duration: std::time::Duration, engine: Engine) -> f64 {
    let threads = threads.max(1);
    let stop = AtomicBool::new(false);
    let hashes = AtomicU64::new(0);
    let digest_trits = b1t6(&blake2b256(b"hash rate probe"));
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for k in 0..threads {
            let (digest_trits, stop, hashes) = (&digest_trits, &stop, &hashes);
            scope.spawn(move || {
                let mut first_batch = k as u64;
                loop {
                    let job = SearchJob {
                        digest_trits,
                        target_zeros: PROBE_ZEROS,
                        first_batch,
                        batch_stride: threads as u64,
                        stop,
                        hashes,
                    };
                    match engine.search(&job) {
                        Some(nonce) => first_batch = batch_of(nonce) + threads as u64,
                        None => break,
                    }
                }
            });
        }
        std::thread::sleep(duration);
        stop.store(true, Ordering::Relaxed);
    });
    hashes.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
}
