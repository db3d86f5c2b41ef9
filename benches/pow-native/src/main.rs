//! The native Rust reference for the PoW benchmark (`benches/pow.bench.mjs`): Curl-P-81
//! hashes per second of `iota-crypto`'s batched hasher (64 inputs a batch, the way a miner
//! built on it hashes nonces), on `--threads` threads for a `--ms` window. Prints
//! `{"hashesPerSecond": …, "hashes": …, "cpuSeconds": …}`.

use crypto::encoding::ternary::{Btrit, T1B1Buf, TritBuf};
use crypto::hashes::ternary::curl_p::CurlPBatchHasher;
use crypto::hashes::ternary::HASH_LENGTH;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn main() {
    let (mut threads, mut ms) = (1usize, 1000u64);
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse().ok());
        match (pair[0].as_str(), value) {
            ("--threads", Some(v)) => threads = v as usize,
            ("--ms", Some(v)) => ms = v,
            _ => {
                eprintln!("usage: pow-native-bench [--threads N] [--ms M]");
                std::process::exit(2);
            }
        }
    }
    let stop = AtomicBool::new(false);
    let hashes = AtomicU64::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (stop, hashes) = (&stop, &hashes);
            scope.spawn(move || hash_until(stop, hashes, t as u64));
        }
        std::thread::sleep(Duration::from_millis(ms));
        stop.store(true, Ordering::Relaxed);
    });
    let hashes = hashes.load(Ordering::Relaxed);
    let cpu = cpu_seconds().map_or(String::new(), |s| format!(",\"cpuSeconds\":{s}"));
    println!("{{\"hashesPerSecond\":{:.0},\"hashes\":{hashes}{cpu}}}", hashes as f64 / start.elapsed().as_secs_f64());
}

/// CPU time of this process (Linux: user and system ticks of /proc/self/stat).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Batches of 64 inputs whose last trits vary like a nonce.
fn hash_until(stop: &AtomicBool, hashes: &AtomicU64, worker: u64) {
    let mut hasher = CurlPBatchHasher::<T1B1Buf>::new(HASH_LENGTH);
    let mut counter = worker << 40;
    while !stop.load(Ordering::Relaxed) {
        for _ in 0..64 {
            let mut input = TritBuf::<T1B1Buf>::zeros(HASH_LENGTH);
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
        hashes.fetch_add(hasher.hash().count() as u64, Ordering::Relaxed);
    }
}
