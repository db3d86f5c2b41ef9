//! `GossipSync::start` as the node runs it: TCP on loopback, Noise with the node's Ed25519
//! identity, Yamux; static peers from the options (the node's own id among them left out),
//! heartbeats, a block each way through the stores' own-blocks hook, identity files.

use crate::common::*;
use ledger_gossip::identity::{keypair_from_hex, load_or_create};
use ledger_gossip::{GossipEvent, PeerEntry, Relation};
use ledger_sync::{GossipSync, LocalBlocks, SyncOptions};
use std::sync::Arc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(15);
/// Hornet's public private-tangle test key 3 and its peer id (shared/interop/common.sh).
const KEY_3: &str = "5126767a84e1ced849dbbf2be809fd40f90bcfb81bd0d3309e2e25e34f803bf265500854f1f0e8fd3c389cf7b6b59cfd422b9319f257e2a8d3a772973560acdd";
const ID_3: &str = "12D3KooWGdr8M5KX8KuKaXSiKfHJstdVnRkadYmupF7tFk2HrRoA";

fn loopback_options(identity: ledger_gossip::Keypair) -> SyncOptions {
    let mut options = SyncOptions::new(NETWORK, identity);
    options.bind_addresses = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    options.reconnect_interval = Duration::from_millis(300);
    options
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_gossip_over_tcp_noise_yamux() {
    let dir = tempfile::tempdir().unwrap();
    let chain = Chain::of(4, false);
    let a_identity = load_or_create(&dir.path().join("a.key"), Some(KEY_3)).unwrap();
    assert_eq!(a_identity.peer_id().to_string(), ID_3);
    let a_store = chain.follower_at(4);
    let a_local = Arc::new(LocalBlocks::new());
    let a = GossipSync::start(
        a_store.store.clone(),
        a_local.clone(),
        loopback_options(a_identity.keypair.clone()),
    )
    .unwrap();
    assert!(a_local.is_attached());
    let a_address = a.gossip().listen_addresses().await.unwrap().remove(0);
    assert!(a_address.to_string().starts_with("/ip4/127.0.0.1/tcp/"), "{a_address}");

    let b_identity = load_or_create(&dir.path().join("b.key"), None).unwrap();
    let mut b_options = loopback_options(b_identity.keypair.clone());
    b_options.peers = vec![
        PeerEntry::parse(&format!("{a_address}/p2p/{ID_3}"), Some("a".into())).unwrap(),
        // The node itself, as a shared peer list has it: left out.
        PeerEntry::parse(&format!("{a_address}/p2p/{}", b_identity.peer_id()), None).unwrap(),
    ];
    let b_store = chain.follower_at(4);
    let b_local = Arc::new(LocalBlocks::new());
    let b = GossipSync::start(b_store.store.clone(), b_local.clone(), b_options).unwrap();
    let mut events = b.gossip().subscribe();

    let a_id = a.gossip().local_peer_id();
    let b_id = b.gossip().local_peer_id();
    eventually(WAIT, || async {
        let at_b =
            b.gossip().peer(a_id).await.unwrap().and_then(|p| p.gossip).and_then(|g| g.heartbeat);
        let at_a =
            a.gossip().peer(b_id).await.unwrap().and_then(|p| p.gossip).and_then(|g| g.heartbeat);
        at_a.is_some() && at_b.is_some()
    })
    .await;
    let a_at_b = b.gossip().peer(a_id).await.unwrap().unwrap();
    assert_eq!((a_at_b.relation, a_at_b.alias.as_deref()), (Relation::Known, Some("a")));
    assert_eq!(a_at_b.gossip.unwrap().heartbeat.unwrap().latest_milestone_index, 4);
    assert_eq!(a.gossip().peer(b_id).await.unwrap().unwrap().relation, Relation::Unknown);
    assert_eq!(b.gossip().peers().await.unwrap().len(), 1, "not itself");

    let on_tips =
        |store: &ledger_store::Store, tag: &str| tagged_block(&store.select_tips().unwrap(), tag);
    let x = on_tips(&a_store.store, "over tcp from a");
    let y = on_tips(&b_store.store, "over tcp from b");
    assert!(a_local.submit_blocks(&a_store.store, vec![x.clone()])[0].as_ref().unwrap().stored);
    assert!(b_local.submit_blocks(&b_store.store, vec![y.clone()])[0].as_ref().unwrap().stored);
    let (x, y) = (ledger_core::ids::block_id(&x), ledger_core::ids::block_id(&y));
    eventually(WAIT, || async {
        b_store.store.has_block(&x).unwrap() && a_store.store.has_block(&y).unwrap()
    })
    .await;

    // Stopping a ends the stream at b; b, for which a is known, keeps trying to redial.
    a.stop();
    assert!(!a_local.is_attached());
    drop(a);
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
    drop(b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_of_different_networks_exchange_nothing() {
    let chain = Chain::of(1, false);
    let a_store = chain.follower_at(1);
    let a = GossipSync::start(
        a_store.store.clone(),
        Arc::new(LocalBlocks::new()),
        loopback_options(keypair_from_hex(KEY_3).unwrap()),
    )
    .unwrap();
    let a_address = a.gossip().listen_addresses().await.unwrap().remove(0);
    let mut other = loopback_options(keypair_from_hex(&"11".repeat(32)).unwrap());
    other.network_name = "private_tangle1".into();
    let b_store = chain.follower_at(1);
    let b = GossipSync::start(b_store.store.clone(), Arc::new(LocalBlocks::new()), other).unwrap();
    let mut events = b.gossip().subscribe();
    b.gossip()
        .add_peer(PeerEntry {
            peer_id: a.gossip().local_peer_id(),
            address: a_address,
            alias: None,
        })
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
    let b_id = b.gossip().local_peer_id();
    assert!(a.gossip().peer(b_id).await.unwrap().and_then(|p| p.gossip).is_none());
}

#[tokio::test]
async fn listening_on_nothing_usable_fails_to_start() {
    let store = TempStore::follower();
    let local = Arc::new(LocalBlocks::new());
    let mut options = loopback_options(keypair_from_hex(KEY_3).unwrap());
    options.bind_addresses = vec!["/ip4/203.0.113.1/tcp/0".parse().unwrap()];
    let err = GossipSync::start(store.store.clone(), local.clone(), options).err().unwrap();
    assert!(err.to_string().contains("could not listen"), "{err}");
    assert!(!local.is_attached(), "nothing is left attached");
}
