//! Quick hash-rate probe of each PoW engine: `cargo run --release --example pow_rate`.
use ledger_core::pow::{hash_rate, Engine};
use std::time::Duration;

fn main() {
    for engine in Engine::available() {
        for threads in [1, 2] {
            let rate = hash_rate(threads, Duration::from_millis(1500), engine);
            println!("{:<9} threads {threads}: {:>6.2} MH/s", engine.name(), rate / 1e6);
        }
    }
}
