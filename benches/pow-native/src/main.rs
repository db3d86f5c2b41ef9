//! Curl-P-81 hashes per second: our bit-sliced miner against iota-crypto's batched Curl-P
//! (64 inputs a batch), measured in the same run.

use crypto::encoding::ternary::{Btrit, T1B1Buf, TritBuf};
use crypto::hashes::ternary::curl_p::CurlPBatchHasher;
use crypto::hashes::ternary::HASH_LENGTH;
use ledger_core::pow::{hash_rate, Engine};
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_millis(1200);

/// Median of three windows: the shared 2-core machines are noisy.
fn steady(measure: impl Fn() -> f64) -> f64 {
    let mut runs = [measure(), measure(), measure()];
    runs.sort_by(f64::total_cmp);
    runs[1]
}

fn reference_rate() -> f64 {
    let mut hasher = CurlPBatchHasher::<T1B1Buf>::new(HASH_LENGTH);
    let mut counter = 0u64;
    let mut hashed = 0u64;
    let start = Instant::now();
    while start.elapsed() < WINDOW {
        for _ in 0..64 {
            let mut input = TritBuf::<T1B1Buf>::zeros(HASH_LENGTH);
            // Vary the last trits like a nonce would.
            let mut n = counter;
            for i in 0..40 {
                let t = match n % 3 {
                    0 => Btrit::Zero,
                    1 => Btrit::PlusOne,
                    _ => Btrit::NegOne,
                };
                input.set(192 + i, t);
                n /= 3;
            }
            hasher.add(input);
            counter += 1;
        }
        hashed += hasher.hash().count() as u64;
    }
    hashed as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let reference = steady(reference_rate);
    println!("| miner (Curl-P-81) | threads | hashes/s | per thread | vs iota-crypto (1 thread) |");
    println!("|---|---|---|---|---|");
    let mut scaling = Vec::new();
    for engine in Engine::available() {
        let ours1 = steady(|| hash_rate(1, WINDOW, engine));
        let ours2 = steady(|| hash_rate(2, WINDOW, engine));
        println!("| ledger-core {} | 1 | {:.0} | {:.0} | {:.2}× |", engine.name(), ours1, ours1, ours1 / reference);
        println!("| ledger-core {} | 2 | {:.0} | {:.0} | {:.2}× |", engine.name(), ours2, ours2 / 2.0, ours2 / reference);
        scaling.push(format!("{} {:.2}× ({:.0} % of linear)", engine.name(), ours2 / ours1, 50.0 * ours2 / ours1));
    }
    println!("| iota-crypto CurlPBatchHasher | 1 | {:.0} | {:.0} | 1.00× |", reference, reference);
    println!("\nscaling 1→2 threads: {}", scaling.join(", "));
}
