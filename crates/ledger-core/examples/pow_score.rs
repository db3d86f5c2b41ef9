//! Time to score one block, and the BLAKE2b-256 digest alone, per wall and per CPU time:
//! `cargo run --release -p ledger-core --example pow_score [iterations]`.
use ledger_core::hash::blake2b256;
use ledger_core::pow::trailing_zeros;
use std::time::Instant;

fn main() {
    let n: u64 = std::env::args().nth(1).map_or(200_000, |a| a.parse().expect("iterations"));
    let mut block = vec![0x5au8; 300];
    let mut sum = 0;
    let (wall, cpu) = timed(|| {
        for i in 0..n {
            block[292..].copy_from_slice(&i.to_le_bytes());
            sum += trailing_zeros(&block);
        }
    });
    println!(
        "trailing_zeros of a 300-byte block: {:.2} µs wall, {:.2} µs CPU ({sum})",
        wall / n as f64 * 1e6,
        cpu / n as f64 * 1e6
    );
    let mut x = 0u8;
    let (wall, cpu) = timed(|| {
        for i in 0..n {
            block[292..].copy_from_slice(&i.to_le_bytes());
            x ^= blake2b256(&block[..292])[0];
        }
    });
    println!(
        "of which BLAKE2b-256 of 292 bytes: {:.2} µs wall, {:.2} µs CPU ({x})",
        wall / n as f64 * 1e6,
        cpu / n as f64 * 1e6
    );
}

fn timed(f: impl FnOnce()) -> (f64, f64) {
    let (start, cpu) = (Instant::now(), cpu_seconds());
    f();
    (start.elapsed().as_secs_f64(), cpu_seconds() - cpu)
}

/// CPU time of this process (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}
