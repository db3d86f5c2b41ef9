//! Against a real Hornet 2.0.1 (`shared/interop/`, setup 1: `start-hornet-pair.sh`, network
//! `private_tangle1` at milestone 1 or later). Not run by default: it needs the Go-built Hornet.
//!
//! ```sh
//! HORNET_PEER=/ip4/127.0.0.1/tcp/15611/p2p/12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY \
//! HORNET_PEER_REST=127.0.0.1:14275 HORNET_REST=127.0.0.1:14276 \
//!   cargo test -p ledger-gossip --test gossip hornet_interop -- --ignored --test-threads 1
//! ```
//!
//! Checks, both dial directions: Noise/Yamux/multistream with go-libp2p, the stream protocol
//! id, Hornet's heartbeat as it sees the node, and Hornet's answer to the node's first
//! "latest milestone" request — a milestone block that decodes with the node's codec. With
//! `HORNET_PEER_REST` (the REST address of the `HORNET_PEER` node), also that a block the
//! node broadcasts is stored by Hornet.

use crate::common::*;
use ledger_core::codec::decode_block;
use ledger_core::model::Payload;
use ledger_gossip::identity::keypair_from_hex;
use ledger_gossip::{Config, Gossip, PeerEntry, PeerId};
use std::io::{Read, Write};

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
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);
/// Key 3 of shared/interop/common.sh, left for a ledger-node test instance.
const KEY_3: &str = "5126767a84e1ced849dbbf2be809fd40f90bcfb81bd0d3309e2e25e34f803bf265500854f1f0e8fd3c389cf7b6b59cfd422b9319f257e2a8d3a772973560acdd";

fn config(port: u16) -> Config {
    let mut config =
        Config::new(std::env::var("HORNET_NETWORK").unwrap_or_else(|_| "private_tangle1".into()));
    config.bind_addresses = vec![format!("/ip4/127.0.0.1/tcp/{port}").parse().unwrap()];
    config
}

async fn check_hornet(gossip: &Gossip, store: &MemoryStore, hornet: PeerId) {
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
    // Hornet answered "send me your latest milestone" with its milestone block.
    eventually(WAIT, || async {
        store
            .all_blocks()
            .iter()
            .any(|b| matches!(decode_block(b).map(|b| b.payload), Ok(Some(Payload::Milestone(_)))))
    })
    .await;
    let milestone = store
        .all_blocks()
        .into_iter()
        .find_map(|b| match decode_block(&b).ok()?.payload? {
            Payload::Milestone(m) => Some(m.index),
            _ => None,
        })
        .unwrap();
    assert_eq!(milestone, heartbeat.latest_milestone_index);
    println!("milestone {milestone} received from Hornet");
}

/// The id of the milestone block the node received from Hornet, made solid in the test
/// store (its past cone is Hornet's business here) so that children of it get broadcast.
fn solid_milestone_block(store: &MemoryStore) -> [u8; 32] {
    let bytes = store
        .all_blocks()
        .into_iter()
        .find(|b| matches!(decode_block(b).map(|b| b.payload), Ok(Some(Payload::Milestone(_)))))
        .unwrap();
    store.add_quietly(&bytes).0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running Hornet 2.0.1 (shared/interop/start-hornet-pair.sh)"]
async fn the_node_dials_hornet() {
    let entry = PeerEntry::parse(
        &std::env::var("HORNET_PEER").expect("HORNET_PEER"),
        Some("hornet".into()),
    )
    .unwrap();
    let store = MemoryStore::new(synced(0));
    let gossip =
        Gossip::start(config(0), &keypair_from_hex(KEY_3).unwrap(), store.clone()).unwrap();
    gossip.add_peer(entry.clone()).await.unwrap().unwrap();
    check_hornet(&gossip, &store, entry.peer_id).await;
    if let Ok(rest) = std::env::var("HORNET_PEER_REST") {
        // A block on top of Hornet's milestone, broadcast by the node like any new solid block.
        let block = tagged_block(&[solid_milestone_block(&store)], "ledger-gossip interop");
        let id = store.add_local(&block);
        let path = format!("/api/core/v2/blocks/{id}/metadata");
        eventually(WAIT, || async { http(&rest, "GET", &path, "").starts_with("HTTP/1.1 200") })
            .await;
        println!(
            "Hornet stored block {id}: {}",
            http(&rest, "GET", &path, "").lines().last().unwrap_or_default()
        );
    }
    gossip.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running Hornet 2.0.1 (shared/interop/start-hornet-pair.sh)"]
async fn hornet_dials_the_node() {
    let rest = std::env::var("HORNET_REST")
        .expect("HORNET_REST (host:port of the Hornet that should dial)");
    let port = 15600;
    let store = MemoryStore::new(synced(0));
    let gossip =
        Gossip::start(config(port), &keypair_from_hex(KEY_3).unwrap(), store.clone()).unwrap();
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
    check_hornet(&gossip, &store, dialler.id).await;
    // Leave Hornet's peer list as it was.
    http(&rest, "DELETE", &format!("/api/core/v2/peers/{}", gossip.local_peer_id()), "");
    gossip.shutdown();
}
