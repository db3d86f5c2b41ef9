//! A hostile gossip peer (issue 24, item 4): dials a running node over TCP with Noise and
//! Yamux, as the node's own transport does (`ledger_gossip::build_swarm`), and misbehaves
//! on purpose, one phase after the other (`phases.rs`): truncated, oversized and mutated
//! frames, invalid blocks, floods of valid blocks with unknown parents, milestone requests
//! for every index, lying heartbeats, a stream never read, a header without its body.
//! Every connection is a fresh identity (the node removes peers it punishes).
//!
//! ```text
//! cargo run --release -p ledger-sync --example hostile_peer -- \
//!     --address /ip4/127.0.0.1/tcp/26600 [--network ledger-devnet-v2] \
//!     [--phases truncated,oversized,…|all] [--messages 100000] [--seconds 60] \
//!     [--close-wait 70] [--pow 0] [--block-data 4096] [--slots 5] [--json]
//! ```
//!
//! Prints one line per phase (JSON with `--json`, as `npm run bench:hostile` reads it).
//! It lives in ledger-sync as an example because that crate already has what it needs:
//! libp2p with TCP, Noise and Yamux and Tokio as dev-dependencies (ledger-gossip has none
//! on purpose), ledger-core to build blocks, and the scenario tests that run the same
//! phases in CI against nodes over real stores (tests/scenarios/hostile.rs).

mod phases;
mod stream;

use futures::FutureExt;
use ledger_gossip::{Config, Multiaddr};
use libp2p::identity::Keypair;
use phases::{run_phase, Budget, Conn, Connect, Phase};
use std::time::Duration;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

fn number<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    arg(args, name)
        .map_or(default, |v| v.parse().unwrap_or_else(|_| panic!("{name}: not a number: {v}")))
}

/// A new identity, a TCP connection to `address`, a gossip stream on it.
async fn connect_tcp(address: Multiaddr, config: Config) -> Result<Conn, String> {
    let swarm = ledger_gossip::build_swarm(&Keypair::generate_ed25519(), &config)
        .map_err(|e| e.to_string())?;
    stream::open(swarm, address).await
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let address: Multiaddr = arg(&args, "--address")
        .expect("--address /ip4/…/tcp/… of the node")
        .parse()
        .expect("--address: a multiaddress");
    let network = arg(&args, "--network").unwrap_or_else(|| "ledger-devnet-v2".into());
    let phases: Vec<Phase> = match arg(&args, "--phases").as_deref() {
        None | Some("all") => Phase::ALL.to_vec(),
        Some(list) => list
            .split(',')
            .map(|p| Phase::parse(p).unwrap_or_else(|| panic!("unknown phase {p}")))
            .collect(),
    };
    let defaults = Budget::default();
    let budget = Budget {
        messages: number(&args, "--messages", defaults.messages),
        time: Duration::from_secs_f64(number(&args, "--seconds", defaults.time.as_secs_f64())),
        close_wait: Duration::from_secs_f64(number(
            &args,
            "--close-wait",
            defaults.close_wait.as_secs_f64(),
        )),
        min_pow_score: number(&args, "--pow", defaults.min_pow_score),
        block_data: number(&args, "--block-data", defaults.block_data),
        slots: number(&args, "--slots", defaults.slots),
    };
    let json = args.iter().any(|a| a == "--json");
    let mut config = Config::new(network);
    config.bind_addresses = vec![];
    let mut connect: Connect =
        Box::new(move || connect_tcp(address.clone(), config.clone()).boxed());
    for phase in phases {
        let report = run_phase(phase, &mut connect, budget).await;
        if json {
            println!("{}", report.to_json());
        } else {
            println!(
                "{:<20} {:>9} messages {:>12} bytes in {:>6.1} s; {} connections ({} failed), \
                 {} closed by the node (mean {} ms, max {} ms), {} left open; {} frames received",
                report.phase,
                report.messages,
                report.bytes,
                report.elapsed.as_secs_f64(),
                report.connections,
                report.failed_connects,
                report.closed_by_node,
                report.mean_close().as_millis(),
                report.max_close.as_millis(),
                report.left_open,
                report.received
            );
        }
    }
}
