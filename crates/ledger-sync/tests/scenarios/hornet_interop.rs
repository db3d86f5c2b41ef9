//! Against a real Hornet 2.0.1 (`shared/interop/`, setup 1: `start-hornet-pair.sh`, network
//! `private_tangle1` at milestone 1 or later). Not run by default: it needs the Go-built
//! Hornet. The node is `GossipSync` over a real follower store of the pair's network,
//! started from the pair's genesis snapshot and trusting its coordinator's keys.
//!
//! ```sh
//! HORNET_PEER=/ip4/127.0.0.1/tcp/15611/p2p/12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY \
//! HORNET_PEER_REST=127.0.0.1:14275 HORNET_REST=127.0.0.1:14276 \
//! HORNET_SNAPSHOT=<state>/snapshots/full_snapshot.bin \
//! HORNET_COO_PUBLIC_KEYS=<hex key>,<hex key> \
//!   node scripts/cargo-host.js test -p ledger-sync --release --test scenarios hornet_interop -- --ignored --test-threads 1
//! ```
//!
//! Checks, both dial directions: Noise/Yamux/multistream with go-libp2p, the stream protocol
//! id, Hornet's heartbeat as it sees the node, and Hornet's answer to the node's first
//! "latest milestone" request — a milestone block that decodes with the node's codec. With
//! `HORNET_PEER_REST` (the REST address of the `HORNET_PEER` node), also that the node
//! catches up with Hornet's confirmed milestone and that a block it then broadcasts is
//! stored by Hornet.

use crate::common::*;
use ledger_core::protocol::ProtocolParameters;
use ledger_gossip::identity::keypair_from_hex;
use ledger_gossip::{PeerEntry, PeerId};
use ledger_store::MilestoneKeys;
use ledger_sync::{GossipSync, LocalBlocks, SyncOptions};
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);
/// Key 3 of shared/interop/common.sh, left for a ledger-node test instance.
const KEY_3: &str = "5126767a84e1ced849dbbf2be809fd40f90bcfb81bd0d3309e2e25e34f803bf265500854f1f0e8fd3c389cf7b6b59cfd422b9319f257e2a8d3a772973560acdd";

/// A bare HTTP/1.1 request to Hornet's REST API (test code: no client library needed).
fn http(address: &str, method: &str, path: &str, body: &str) -> String {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

fn network() -> String {
    std::env::var("HORNET_NETWORK").unwrap_or_else(|_| "private_tangle1".into())
}

/// A follower of the pair's network, from its genesis snapshot, trusting its coordinator.
fn hornet_follower() -> TempStore {
    let keys: Vec<[u8; 32]> = std::env::var("HORNET_COO_PUBLIC_KEYS")
        .expect("HORNET_COO_PUBLIC_KEYS (the coordinator's public keys, hex, comma-separated)")
        .split(',')
        .map(|k| hex::decode(k.trim().trim_start_matches("0x")).unwrap().try_into().unwrap())
        .collect();
    let threshold = std::env::var("HORNET_COO_KEY_COUNT").map_or(0, |count| count.parse().unwrap());
    let mut options = follower_options(OWNER);
    options.protocol = ProtocolParameters { network_name: network(), ..options.protocol };
    options.snapshot = Some(std::env::var("HORNET_SNAPSHOT").expect("HORNET_SNAPSHOT").into());
    options.milestone_keys = MilestoneKeys { threshold, ..MilestoneKeys::all_of(&keys) };
    TempStore::open(options)
}

struct Started {
    sync: GossipSync,
    local: Arc<LocalBlocks>,
    store: TempStore,
}

fn start(port: u16) -> Started {
    let store = hornet_follower();
    let local = Arc::new(LocalBlocks::new());
    let mut options = SyncOptions::new(network(), keypair_from_hex(KEY_3).unwrap());
    options.bind_addresses = vec![format!("/ip4/127.0.0.1/tcp/{port}").parse().unwrap()];
    let sync = GossipSync::start(store.store.clone(), local.clone(), options).unwrap();
    Started { sync, local, store }
}

/// Hornet's heartbeat, and its answer to "your latest milestone": a milestone block that
/// reached the store (decoded, its index the heartbeat's latest).
async fn check_hornet(node: &Started, hornet: PeerId) {
    let gossip = node.sync.gossip();
    eventually(WAIT, || async {
        gossip
            .peer(hornet)
            .await
            .unwrap()
            .and_then(|p| p.gossip)
            .and_then(|g| g.heartbeat)
            .is_some()
    })
    .await;
    let info = gossip.peer(hornet).await.unwrap().unwrap();
    let heartbeat = info.gossip.unwrap().heartbeat.unwrap();
    println!("Hornet's heartbeat: {heartbeat:?}");
    assert!(heartbeat.latest_milestone_index >= 1);
    let latest = heartbeat.latest_milestone_index;
    eventually(WAIT, || async {
        let status = node.sync.status();
        status.sync.latest >= latest || status.sync.confirmed >= latest
    })
    .await;
    println!("milestone {latest} received from Hornet; status {:?}", node.sync.status());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running Hornet 2.0.1 (shared/interop/start-hornet-pair.sh)"]
async fn the_node_dials_hornet() {
    let entry = PeerEntry::parse(
        &std::env::var("HORNET_PEER").expect("HORNET_PEER"),
        Some("hornet".into()),
    )
    .unwrap();
    let node = start(0);
    node.sync.gossip().add_peer(entry.clone()).await.unwrap().unwrap();
    check_hornet(&node, entry.peer_id).await;
    if let Ok(rest) = std::env::var("HORNET_PEER_REST") {
        // Caught up: a block on the store's tips, broadcast like any block of the API.
        let target = node.sync.status().sync.latest;
        eventually(WAIT, || async { confirmed(&node.store.store) >= target }).await;
        let block = tagged_block(&node.store.store.select_tips().unwrap(), "ledger-sync interop");
        let result = node.local.submit_blocks(&node.store.store, vec![block.clone()]).remove(0);
        assert!(result.unwrap().stored);
        let id = ledger_gossip::BlockId::of_block(&block);
        let path = format!("/api/core/v2/blocks/{id}/metadata");
        eventually(WAIT, || async { http(&rest, "GET", &path, "").starts_with("HTTP/1.1 200") })
            .await;
        println!(
            "Hornet stored block {id}: {}",
            http(&rest, "GET", &path, "").lines().last().unwrap_or_default()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running Hornet 2.0.1 (shared/interop/start-hornet-pair.sh)"]
async fn hornet_dials_the_node() {
    let rest = std::env::var("HORNET_REST")
        .expect("HORNET_REST (host:port of the Hornet that should dial)");
    let port = 15600;
    let node = start(port);
    let gossip = node.sync.gossip();
    let body = format!(
        r#"{{"multiAddress":"/ip4/127.0.0.1/tcp/{port}/p2p/{}","alias":"ledger-node"}}"#,
        gossip.local_peer_id()
    );
    let answer = http(&rest, "POST", "/api/core/v2/peers", &body);
    println!("Hornet answered the POST with: {}", answer.lines().next().unwrap_or_default());
    // The Hornet behind HORNET_REST dials; it is the node's only peer.
    eventually(WAIT, || async {
        gossip
            .peers()
            .await
            .unwrap()
            .iter()
            .any(|p| p.gossip.as_ref().is_some_and(|g| g.heartbeat.is_some()))
    })
    .await;
    let dialler = gossip.peers().await.unwrap().into_iter().find(|p| p.gossip.is_some()).unwrap();
    println!("dialled by {} (relation here: {})", dialler.id, dialler.relation);
    check_hornet(&node, dialler.id).await;
    // Leave Hornet's peer list as it was.
    http(&rest, "DELETE", &format!("/api/core/v2/peers/{}", gossip.local_peer_id()), "");
}
