//! Hash rate of each PoW engine, alternating one-thread windows, medians:
//! `cargo run --release --example pow_rate [engine] [seconds]`. With an engine name it runs
//! only that engine, one window, and prints the hashes done: the form to run under
//! `valgrind --tool=callgrind` and divide instructions by hashes, which stays comparable
//! on a busy machine where wall time does not.
use ledger_core::pow::{hash_rate, Engine};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(name) = args.first() {
        let engine = Engine::available().into_iter().find(|e| e.name() == name).expect("an engine this CPU runs");
        let seconds: f64 = args.get(1).map_or(2.0, |s| s.parse().expect("seconds"));
        let rate = hash_rate(1, Duration::from_secs_f64(seconds), engine);
        println!("{name}: {:.0} hashes, {:.2} MH/s", rate * seconds, rate / 1e6);
        return;
    }
    let engines = Engine::available();
    let threads = ledger_core::pow::default_threads();
    for t in [1, threads] {
        let mut rates = vec![Vec::new(); engines.len()];
        for _ in 0..5 {
            for (i, &e) in engines.iter().enumerate() {
                rates[i].push(hash_rate(t, Duration::from_millis(500), e));
            }
        }
        for (e, r) in engines.iter().zip(&mut rates) {
            r.sort_by(f64::total_cmp);
            println!("{:<13} {t} thread(s): {:>6.2} MH/s (median of 5)", e.name(), r[2] / 1e6);
        }
    }
}
