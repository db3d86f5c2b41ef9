//! Streams and peers on the in-memory transport: who opens, heartbeats first (with the
//! indexes the stores report), one stream per peer (also when both sides dial at once),
//! relations, the unknown-peers limit, removal.

use crate::common::*;
use ledger_gossip::{AddPeerError, GossipEvent, PeerEntry, Relation};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dialer_opens_the_stream_and_both_exchange_heartbeats() {
    // a and b began from the same snapshot at milestone 2 (pruning index 2); b has also
    // seen milestone 9, signed by the network's coordinator but far from applicable: b
    // reports latest 9. Nobody is two behind anybody's confirmed index, so nobody
    // warp-syncs and the indexes stay.
    let a = node_on(snapshot_follower(), memory_config()).await;
    let b = node_on(snapshot_follower(), memory_config()).await;
    let nine = signed_milestone(9, vec![[0xaa; 32]]);
    let verdict =
        ledger_gossip::GossipStore::submit_blocks(b.sync.intake(), &[received(&nine, false)]);
    assert!(matches!(verdict[0], ledger_gossip::Intake::Stored { milestone: Some(9), .. }));
    peer_up(&a, &b).await;

    let b_at_a = a.peer(b.peer_id()).await.unwrap();
    assert_eq!(b_at_a.relation, Relation::Known);
    assert!(b_at_a.connected);
    assert_eq!(b_at_a.addresses, vec![b.address.clone()]);
    let heartbeat = b_at_a.gossip.unwrap().heartbeat.unwrap();
    assert_eq!(
        (
            heartbeat.solid_milestone_index,
            heartbeat.pruned_milestone_index,
            heartbeat.latest_milestone_index
        ),
        (2, 2, 9)
    );
    assert_eq!(heartbeat.connected_peers, 1);

    let a_at_b = b.peer(a.peer_id()).await.unwrap();
    assert_eq!(a_at_b.relation, Relation::Unknown, "it connected on its own");
    let gossip = a_at_b.gossip.unwrap();
    assert_eq!(gossip.heartbeat.unwrap().solid_milestone_index, 2);
    // Each side asked for the other's latest milestone right after its heartbeat.
    assert_eq!(gossip.metrics.received_milestone_requests, 1);
    assert!(gossip.metrics.sent_heartbeats >= 1);
    assert!(gossip.metrics.received_heartbeats >= 1);
    // An unknown peer is shown where it listens (from identify), not where it dialled from.
    eventually(WAIT, || async {
        b.peer(a.peer_id()).await.unwrap().addresses == vec![a.address.clone()]
    })
    .await;
    assert_eq!((a.sync_state().confirmed, b.sync_state().confirmed), (2, 2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_dials_leave_one_stream_that_stays() {
    let chain = Chain::of(1, false);
    for round in 0..5 {
        let a = follower_node(&chain, 1).await;
        let b = follower_node(&chain, 1).await;
        let (ra, rb) = tokio::join!(a.gossip().add_peer(b.entry()), b.gossip().add_peer(a.entry()));
        ra.unwrap().unwrap();
        rb.unwrap().unwrap();
        eventually(WAIT, || async {
            a.has_heartbeat_from(b.peer_id()).await && b.has_heartbeat_from(a.peer_id()).await
        })
        .await;
        // Settled: blocks still flow both ways after the duplicate was resolved. A block
        // sent on the stream that is being replaced is lost with it (the replacement can
        // come late on a loaded machine): a fresh pair goes out each second until one pair
        // arrives, within the deadline that only bounds a failing test.
        tokio::time::sleep(Duration::from_millis(300)).await;
        tokio::time::timeout(WAIT, async {
            for pair in 0.. {
                let x = a.add_local_on_tips(&format!("from a, round {round}, pair {pair}"));
                let y = b.add_local_on_tips(&format!("from b, round {round}, pair {pair}"));
                for _ in 0..50 {
                    if b.contains(&x) && a.contains(&y) {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        })
        .await
        .expect("no block went both ways");
        assert_eq!(a.peer(b.peer_id()).await.unwrap().relation, Relation::Known);
        assert_eq!(b.peer(a.peer_id()).await.unwrap().relation, Relation::Known);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_peers_over_the_limit_get_no_stream() {
    let chain = Chain::of(1, false);
    let mut config = memory_config();
    config.unknown_peers_limit = 1;
    let mut hub = node_on(chain.follower_at(1), config).await;
    let first = follower_node(&chain, 1).await;
    let second = follower_node(&chain, 1).await;
    peer_up(&first, &hub).await;

    second.gossip().add_peer(hub.entry()).await.unwrap().unwrap();
    let second_id = second.peer_id();
    let refused = hub
        .event(WAIT, |e| match e {
            GossipEvent::StreamRefused { peer, reason } if *peer == second_id => {
                Some(reason.clone())
            }
            _ => None,
        })
        .await;
    assert!(refused.contains("unknown"), "{refused}");
    // The first one keeps its stream.
    assert!(hub.has_heartbeat_from(first.peer_id()).await);

    // Known peers are not limited: the hub adds the second one and it gets a stream.
    hub.gossip().add_peer(second.entry()).await.unwrap().unwrap();
    eventually(WAIT, || async { hub.has_heartbeat_from(second.peer_id()).await }).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removed_peers_are_disconnected_and_forgotten() {
    let chain = Chain::of(1, false);
    let a = follower_node(&chain, 1).await;
    let b = follower_node(&chain, 1).await;
    peer_up(&a, &b).await;
    assert!(a.gossip().remove_peer(b.peer_id()).await.unwrap());
    assert!(a.peer(b.peer_id()).await.is_none());
    eventually(WAIT, || async { b.peer(a.peer_id()).await.is_none() }).await;
    assert!(!a.gossip().remove_peer(b.peer_id()).await.unwrap(), "already gone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_does_not_peer_with_itself() {
    let chain = Chain::of(1, false);
    let a = follower_node(&chain, 1).await;
    assert_eq!(a.gossip().add_peer(a.entry()).await.unwrap(), Err(AddPeerError::OwnPeerId));
    assert!(a.gossip().peers().await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn known_peers_are_redialled_after_they_come_back() {
    let chain = Chain::of(1, false);
    let mut a = follower_node(&chain, 1).await;
    let b = follower_node(&chain, 1).await;
    peer_up(&a, &b).await;
    // b forgets a and cuts the connection; a, for which b is known, dials again.
    b.gossip().remove_peer(a.peer_id()).await.unwrap();
    let b_id = b.peer_id();
    a.event(WAIT, |e| {
        matches!(e, GossipEvent::StreamClosed { peer, .. } if *peer == b_id).then_some(())
    })
    .await;
    eventually(WAIT, || async {
        a.has_heartbeat_from(b.peer_id()).await && b.has_heartbeat_from(a.peer_id()).await
    })
    .await;
    let entry = PeerEntry::parse(&b.entry().multi_address().to_string(), Some("b".into())).unwrap();
    let info = a.gossip().add_peer(entry).await.unwrap().unwrap();
    assert_eq!(info.alias.as_deref(), Some("b"));
}
