//! The real transport on loopback: TCP, Noise with the node's Ed25519 identity, Yamux;
//! static peers from the configuration, heartbeats, a block each way, identity files.

use crate::common::*;
use ledger_gossip::identity::{keypair_from_hex, load_or_create};
use ledger_gossip::{Config, Gossip, GossipEvent, PeerEntry, Relation};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(15);
/// Hornet's public private-tangle test key 3 and its peer id (shared/interop/common.sh).
const KEY_3: &str = "5126767a84e1ced849dbbf2be809fd40f90bcfb81bd0d3309e2e25e34f803bf265500854f1f0e8fd3c389cf7b6b59cfd422b9319f257e2a8d3a772973560acdd";
const ID_3: &str = "12D3KooWGdr8M5KX8KuKaXSiKfHJstdVnRkadYmupF7tFk2HrRoA";

fn loopback_config() -> Config {
    let mut config = Config::new(NETWORK);
    config.bind_addresses = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    config.reconnect_interval = Duration::from_millis(300);
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_gossip_over_tcp_noise_yamux() {
    let dir = TestDir::new();
    let a_identity = load_or_create(&dir.0.join("a.key"), Some(KEY_3)).unwrap();
    assert_eq!(a_identity.peer_id().to_string(), ID_3);
    let a_store = MemoryStore::new(synced(4));
    let a = Gossip::start(loopback_config(), &a_identity.keypair, a_store.clone()).unwrap();
    let a_address = a.listen_addresses().await.unwrap().remove(0);
    assert!(a_address.to_string().starts_with("/ip4/127.0.0.1/tcp/"), "{a_address}");

    let b_identity = load_or_create(&dir.0.join("b.key"), None).unwrap();
    let mut b_config = loopback_config();
    b_config.static_peers =
        vec![PeerEntry::parse(&format!("{a_address}/p2p/{ID_3}"), Some("a".into())).unwrap()];
    let b_store = MemoryStore::new(synced(4));
    let b = Gossip::start(b_config, &b_identity.keypair, b_store.clone()).unwrap();
    let mut events = b.subscribe();

    let a_id = a.local_peer_id();
    let b_id = b.local_peer_id();
    eventually(WAIT, || async {
        let at_b = b.peer(a_id).await.unwrap().and_then(|p| p.gossip).and_then(|g| g.heartbeat);
        let at_a = a.peer(b_id).await.unwrap().and_then(|p| p.gossip).and_then(|g| g.heartbeat);
        at_a.is_some() && at_b.is_some()
    })
    .await;
    let a_at_b = b.peer(a_id).await.unwrap().unwrap();
    assert_eq!((a_at_b.relation, a_at_b.alias.as_deref()), (Relation::Known, Some("a")));
    assert_eq!(a_at_b.gossip.unwrap().heartbeat.unwrap().latest_milestone_index, 4);
    assert_eq!(a.peer(b_id).await.unwrap().unwrap().relation, Relation::Unknown);

    let x = a_store.add_local(&tagged_block(&[SEP], "over tcp from a"));
    let y = b_store.add_local(&tagged_block(&[SEP], "over tcp from b"));
    eventually(WAIT, || async { b_store.is_solid(&x) && a_store.is_solid(&y) }).await;

    // Stopping a ends the stream at b; b, for which a is known, keeps trying to redial.
    a.shutdown();
    tokio::time::timeout(WAIT, async {
        loop {
            if let Ok(GossipEvent::DialFailed { peer, .. }) = events.recv().await {
                if peer == a_id {
                    break;
                }
            }
        }
    })
    .await
    .expect("b redials the known peer it lost");
    b.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_of_different_networks_exchange_nothing() {
    let a_store = MemoryStore::new(synced(1));
    let a = Gossip::start(loopback_config(), &keypair_from_hex(KEY_3).unwrap(), a_store).unwrap();
    let a_address = a.listen_addresses().await.unwrap().remove(0);
    let mut other = loopback_config();
    other.network_name = "private_tangle1".into();
    let b = Gossip::start(
        other,
        &keypair_from_hex(&"11".repeat(32)).unwrap(),
        MemoryStore::new(synced(1)),
    )
    .unwrap();
    let mut events = b.subscribe();
    b.add_peer(PeerEntry { peer_id: a.local_peer_id(), address: a_address, alias: None })
        .await
        .unwrap()
        .unwrap();
    let reason = tokio::time::timeout(WAIT, async {
        loop {
            if let Ok(GossipEvent::StreamRefused { reason, .. }) = events.recv().await {
                return reason;
            }
        }
    })
    .await
    .expect("the stream is refused");
    assert!(reason.contains("does not speak"), "{reason}");
    assert!(a.peer(b.local_peer_id()).await.unwrap().and_then(|p| p.gossip).is_none());
}

#[tokio::test]
async fn listening_on_nothing_usable_fails_to_start() {
    let mut config = loopback_config();
    config.bind_addresses = vec!["/ip4/203.0.113.1/tcp/0".parse().unwrap()];
    let err = Gossip::start(config, &keypair_from_hex(KEY_3).unwrap(), MemoryStore::new(synced(1)))
        .err()
        .unwrap();
    assert!(err.to_string().contains("could not listen"), "{err}");
}
