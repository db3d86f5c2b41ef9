//! Blocks over gossip on the in-memory transport: broadcast of solid blocks to every peer
//! but their senders, deduplication before the store, requests for missing parents and for
//! milestones, and answers to them.

use crate::common::*;
use futures::AsyncWriteExt;
use ledger_gossip::packets::{to_frame, BlockPacket};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solid_blocks_travel_along_a_line_but_not_back() {
    let (a, b, c) = (
        memory_node(memory_config(), synced(3)).await,
        memory_node(memory_config(), synced(3)).await,
        memory_node(memory_config(), synced(3)).await,
    );
    peer_up(&a, &b).await;
    peer_up(&b, &c).await;

    let ids: Vec<_> =
        (0..20).map(|i| a.store.add_local(&tagged_block(&[SEP], &format!("block {i}")))).collect();
    eventually(WAIT, || async { ids.iter().all(|id| c.store.is_solid(id)) }).await;
    for id in &ids {
        assert_eq!(b.store.submissions(id), [false], "b validated each block once, unrequested");
        assert_eq!(c.store.submissions(id), [false]);
    }
    // Every counter has caught up with the 20 blocks (the deadline only bounds a failing
    // test)...
    eventually(WAIT, || async {
        let b_at_a = a.peer(b.peer_id()).await.unwrap().gossip.unwrap().metrics;
        let c_at_b = b.peer(c.peer_id()).await.unwrap().gossip.unwrap().metrics;
        let a_at_b = b.peer(a.peer_id()).await.unwrap().gossip.unwrap().metrics;
        b_at_a.sent_blocks >= 20
            && c_at_b.sent_blocks >= 20
            && a_at_b.new_blocks >= 20
            && b.gossip.metrics().streams.new_blocks >= 20
    })
    .await;
    // ...and a moment later: b did not send them back to a, c had nobody else to send them
    // to, and nothing was counted twice.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let b_at_a = a.peer(b.peer_id()).await.unwrap().gossip.unwrap().metrics;
    assert_eq!(b_at_a.received_blocks, 0);
    assert_eq!(b_at_a.sent_blocks, 20);
    let c_at_b = b.peer(c.peer_id()).await.unwrap().gossip.unwrap().metrics;
    assert_eq!((c_at_b.sent_blocks, c_at_b.received_blocks), (20, 0));
    let a_at_b = b.peer(a.peer_id()).await.unwrap().gossip.unwrap().metrics;
    assert_eq!((a_at_b.received_blocks, a_at_b.new_blocks, a_at_b.known_blocks), (20, 20, 0));
    assert_eq!(b.gossip.metrics().streams.new_blocks, 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_from_two_peers_is_validated_once() {
    // Two raw peers send the same bytes to c at the same time; a third, normal peer listens.
    let c = memory_node(memory_config(), synced(3)).await;
    let d = memory_node(memory_config(), synced(3)).await;
    peer_up(&d, &c).await;
    let (first, mut stream_1) = raw_stream_to(&c).await;
    let (second, mut stream_2) = raw_stream_to(&c).await;
    let bytes = tagged_block(&[SEP], "twice");
    let id = ledger_gossip::BlockId::of_block(&bytes);
    let frame = to_frame(&BlockPacket::new(bytes).unwrap());
    let (w1, w2) = tokio::join!(stream_1.write_all(&frame), stream_2.write_all(&frame));
    w1.unwrap();
    w2.unwrap();
    stream_1.flush().await.unwrap();
    stream_2.flush().await.unwrap();

    eventually(WAIT, || async { d.store.contains(&id) }).await;
    // Both copies received and told apart (the deadline only bounds a failing test)...
    eventually(WAIT, || async {
        let metrics = c.gossip.metrics().streams;
        metrics.received_blocks >= 2 && metrics.new_blocks >= 1 && metrics.known_blocks >= 1
    })
    .await;
    // ...and a moment later, nothing more.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(c.store.submissions(&id).len(), 1, "the second copy never reached the store");
    let metrics = c.gossip.metrics().streams;
    assert_eq!((metrics.received_blocks, metrics.new_blocks, metrics.known_blocks), (2, 1, 1));
    let m1 = c.peer(first).await.unwrap().gossip.unwrap().metrics;
    let m2 = c.peer(second).await.unwrap().gossip.unwrap().metrics;
    assert_eq!((m1.new_blocks + m2.new_blocks, m1.known_blocks + m2.known_blocks), (1, 1));
    // c never sends it back to the peer it came from first; the second copy may arrive
    // after the block became solid and was sent on, as in Hornet.
    let first_sender = if m1.new_blocks == 1 { m1 } else { m2 };
    assert_eq!(first_sender.sent_blocks, 0);
    assert_eq!(d.peer(c.peer_id()).await.unwrap().gossip.unwrap().metrics.received_blocks, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_parents_are_requested_and_the_child_becomes_solid() {
    let a = memory_node(memory_config(), synced(3)).await;
    let b = memory_node(memory_config(), synced(3)).await;
    peer_up(&a, &b).await;
    // a has a parent chain it never broadcast; only the newest block is gossiped.
    let p1 = a.store.add_quietly(&tagged_block(&[SEP], "parent 1"));
    let p2 = a.store.add_quietly(&tagged_block(&[p1.0], "parent 2"));
    let child = a.store.add_local(&tagged_block(&[p2.0, SEP], "child"));

    eventually(WAIT, || async {
        b.store.is_solid(&child) && b.store.is_solid(&p1) && b.store.is_solid(&p2)
    })
    .await;
    assert_eq!(b.store.submissions(&child), [false]);
    assert_eq!(b.store.submissions(&p2), [true], "asked for, so marked requested");
    assert_eq!(b.store.submissions(&p1), [true], "parent of a requested block, asked for too");
    // Two requests (more only if a retry interval passed meanwhile).
    let a_at_b = b.peer(a.peer_id()).await.unwrap().gossip.unwrap().metrics;
    assert!(a_at_b.sent_block_requests >= 2, "{a_at_b:?}");
    let b_at_a = a.peer(b.peer_id()).await.unwrap().gossip.unwrap().metrics;
    assert!(b_at_a.received_block_requests >= 2, "{b_at_a:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn milestone_requests_are_answered_and_latest_means_zero() {
    let a = memory_node(memory_config(), synced(5)).await;
    let milestones: Vec<Vec<u8>> =
        (1..=5).map(|i| tagged_block(&[SEP], &format!("milestone {i}"))).collect();
    for (i, bytes) in milestones.iter().enumerate() {
        a.store.add_milestone(i as u32 + 1, bytes);
    }
    // One behind: b does not warp-sync (that would send milestone requests of its own).
    let b = memory_node(memory_config(), synced(4)).await;
    peer_up(&b, &a).await;
    // b asked for a's latest milestone (index 0 on the wire) when the stream started.
    let latest = ledger_gossip::BlockId::of_block(&milestones[4]);
    eventually(WAIT, || async { b.store.contains(&latest) }).await;

    b.gossip.request_milestones(vec![2, 3], true).unwrap();
    let wanted = [
        ledger_gossip::BlockId::of_block(&milestones[1]),
        ledger_gossip::BlockId::of_block(&milestones[2]),
    ];
    eventually(WAIT, || async { wanted.iter().all(|id| b.store.contains(id)) }).await;
    let asked = || async {
        a.peer(b.peer_id()).await.unwrap().gossip.unwrap().metrics.received_milestone_requests
    };
    let before = asked().await;
    assert!(before >= 3, "latest, 2 and 3: {before}");

    // A milestone beyond every peer's latest index is asked of nobody.
    b.gossip.request_milestones(vec![9], false).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(asked().await, before, "a's heartbeat says latest 5: nobody is asked for 9");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_syncing_node_does_not_broadcast() {
    // a and c are at 9: when b reports 9 after syncing, they are not behind it (a node two
    // behind a peer warp-syncs, and does not broadcast either).
    let a = memory_node(memory_config(), synced(9)).await;
    let b = memory_node(memory_config(), SyncState { confirmed: 1, latest: 9, pruned: 0 }).await;
    let c = memory_node(memory_config(), synced(9)).await;
    peer_up(&a, &b).await;
    peer_up(&b, &c).await;
    let id = a.store.add_local(&tagged_block(&[SEP], "while b syncs"));
    eventually(WAIT, || async { b.store.contains(&id) }).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!c.store.contains(&id));
    // Once synced, b broadcasts again.
    b.store.set_sync(synced(9));
    let id = a.store.add_local(&tagged_block(&[SEP], "after b synced"));
    eventually(WAIT, || async { c.store.contains(&id) }).await;
}
