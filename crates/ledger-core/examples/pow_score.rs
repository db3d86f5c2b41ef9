//! Time to score one block: `cargo run --release --example pow_score`.
use ledger_core::pow::trailing_zeros;
use std::time::Instant;

fn main() {
    let mut block = vec![0x5au8; 300];
    let n: u64 = std::env::args().nth(1).map_or(200_000, |a| a.parse().unwrap());
    let start = Instant::now();
    let mut sum = 0;
    for i in 0..n {
        block[292..].copy_from_slice(&i.to_le_bytes());
        sum += trailing_zeros(&block);
    }
    let per = start.elapsed().as_secs_f64() / n as f64;
    println!("trailing_zeros of a 300-byte block: {:.2} µs ({sum})", per * 1e6);
    let start = Instant::now();
    let mut x = 0u8;
    for i in 0..n {
        block[292..].copy_from_slice(&i.to_le_bytes());
        x ^= ledger_core::hash::blake2b256(&block[..292])[0];
    }
    let per = start.elapsed().as_secs_f64() / n as f64;
    println!("blake2b-256 of 292 bytes: {:.2} µs ({x})", per * 1e6);
}
