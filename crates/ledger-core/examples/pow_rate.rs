//! Hash rate of each PoW engine, alternating one-thread windows, medians:
//! `cargo run --release --example pow_rate [engine] [seconds]`. With an engine name it runs
//! only that engine, one window, and prints the hashes done: the form to run under
//! `valgrind --tool=callgrind` and divide instructions by hashes, which stays comparable
//! on a busy machine where wall time does not; it also prints hashes per CPU second.
use ledger_core::pow::{hash_rate, Engine};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(name) = args.first() {
        let engine = Engine::available()
            .into_iter()
            .find(|e| e.name() == name)
            .expect("an engine this CPU runs");
        let seconds: f64 = args.get(1).map_or(2.0, |s| s.parse().expect("seconds"));
        let cpu_before = cpu_seconds();
        let rate = hash_rate(1, Duration::from_secs_f64(seconds), engine);
        let hashes = rate * seconds;
        print!("{name}: {hashes:.0} hashes, {:.2} MH/s", rate / 1e6);
        match (cpu_before, cpu_seconds()) {
            (Some(a), Some(b)) => println!(", {:.2} MH per CPU second", hashes / (b - a) / 1e6),
            _ => println!(),
        }
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

/// CPU time of this process so far (Linux), which unlike wall time leaves out the time
/// other processes of a busy machine held the cores.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    // Fields 14 and 15 of stat(5) (user and system ticks) are 12 and 13 after the name.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
