//! Warp sync (gossip.md §7) between two nodes on the in-memory transport: `ahead` has a
//! chain of milestones (each with one ordinary block in its cone), the follower starts at
//! nothing and confirms milestones in order as their cones become solid.

use crate::common::*;
use ledger_gossip::{BlockId, Config};
use std::collections::BTreeSet;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

fn quick_config() -> Config {
    let mut config = memory_config();
    config.timers.request_retry = Duration::from_millis(200);
    config.timers.warp_sync_stall = Duration::from_millis(500);
    config
}

/// A node that has confirmed milestones 1..=`count`; returns it and the milestone block ids.
async fn node_ahead(count: u32) -> (Node, Vec<BlockId>) {
    let node = memory_node(quick_config(), synced(count)).await;
    let mut previous = SEP;
    let mut ids = Vec::new();
    for index in 1..=count {
        let cone = node.store.add_quietly(&tagged_block(&[previous], &format!("cone of {index}")));
        let milestone = tagged_block(&[previous, cone.0], &format!("milestone {index}"));
        node.store.add_milestone(index, &milestone);
        previous = BlockId::of_block(&milestone).0;
        ids.push(BlockId(previous));
    }
    (node, ids)
}

async fn follower() -> Node {
    node_with_store(quick_config(), MemoryStore::follower()).await
}

/// Milestone indexes `node` was asked for by index, except its latest (what a stream's first
/// "send me your latest milestone" asks).
fn asked_by_index(node: &Node, latest: u32) -> BTreeSet<u32> {
    node.store.milestone_lookups().into_iter().filter(|i| *i != latest).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_far_behind_asks_a_window_at_a_time_and_broadcasts_its_own_blocks_only_once_synced(
) {
    let (ahead, milestones) = node_ahead(400).await;
    // Milestone 100 cannot be had for now: the follower gets stuck at 99.
    ahead.store.withhold(milestones[99], true);
    let behind = follower().await;
    peer_up(&behind, &ahead).await;

    eventually(WAIT, || async { behind.store.sync().confirmed == 99 }).await;
    // The second window is asked for: wait until ahead has looked up all of it.
    eventually(WAIT, || async {
        let asked = asked_by_index(&ahead, 400);
        (151..=300).all(|i| asked.contains(&i))
    })
    .await;
    // More than a stall period (500 ms) later: still at 99, and no third window.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(behind.store.sync().confirmed, 99);
    let status = behind.gossip.warp_sync();
    assert!(status.running);
    assert_eq!((status.target, status.requested_up_to), (400, 300));
    let asked = asked_by_index(&ahead, 400);
    assert_eq!(
        asked.last(),
        Some(&300),
        "CMI is in the first window: the second is asked for, not more"
    );
    assert!(asked.contains(&151), "the second window");

    // Not synced while warp-syncing: a block of its own is not broadcast (yet).
    let own = behind.store.add_local(&tagged_block(&[SEP], "while syncing"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!ahead.store.contains(&own));
    assert_eq!(behind.peer(ahead.peer_id()).await.unwrap().gossip.unwrap().metrics.sent_blocks, 0);

    ahead.store.withhold(milestones[99], false);
    eventually(WAIT, || async { behind.store.sync().confirmed == 400 }).await;
    eventually(WAIT, || async { !behind.gossip.warp_sync().running }).await;
    assert!(asked_by_index(&ahead, 400).iter().all(|i| *i <= 400));
    for id in &milestones {
        assert!(behind.store.is_solid(id));
    }

    // Synced again: the block kept meanwhile goes out, and new ones travel at once.
    eventually(WAIT, || async { ahead.store.contains(&own) }).await;
    let after = behind.store.add_local(&tagged_block(&[SEP], "synced again"));
    eventually(WAIT, || async { ahead.store.contains(&after) }).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn does_not_start_for_one_milestone() {
    let (ahead, _) = node_ahead(1).await;
    let behind = follower().await;
    peer_up(&behind, &ahead).await;
    // Milestone 1 comes as the answer to "your latest milestone", not by warp sync.
    eventually(WAIT, || async { behind.store.sync().confirmed == 1 }).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(asked_by_index(&ahead, 1).is_empty());
    let status = behind.gossip.warp_sync();
    assert!(!status.running);
    assert_eq!((status.target, status.requested_up_to), (1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asks_again_when_a_milestone_could_not_be_solidified() {
    let (ahead, _) = node_ahead(10).await;
    let behind = follower().await;
    // The follower's store takes milestone 5 and loses it (as a held milestone whose cone
    // did not come in time): every request for it is done with, and only warp sync's stall
    // rule asks for it again. The first copy is lost, however long syncing up to it takes.
    behind.store.lose_milestone(5, 1);
    peer_up(&behind, &ahead).await;

    eventually(WAIT, || async { behind.store.sync().confirmed == 10 }).await;
    assert!(!behind.gossip.warp_sync().running);
    let five = ahead.store.milestone_lookups().iter().filter(|i| **i == 5).count();
    assert!(five >= 2, "milestone 5 asked for {five} times");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coordinator_does_not_warp_sync_and_keeps_broadcasting() {
    // A peer claims to be far ahead. A node that warp-syncs would stop broadcasting; the
    // coordinator (warp sync off) goes on.
    let mut coordinator_config = quick_config();
    coordinator_config.warp_sync = false;
    let coordinator = memory_node(coordinator_config, synced(3)).await;
    let follower = memory_node(quick_config(), synced(3)).await;
    let ahead = memory_node(quick_config(), synced(50)).await;
    peer_up(&coordinator, &ahead).await;
    peer_up(&follower, &ahead).await;
    assert!(!coordinator.gossip.warp_sync().running);
    assert!(follower.gossip.warp_sync().running);

    let from_coordinator = coordinator.store.add_local(&tagged_block(&[SEP], "coordinator"));
    let from_follower = follower.store.add_local(&tagged_block(&[SEP], "follower"));
    eventually(WAIT, || async { ahead.store.contains(&from_coordinator) }).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!ahead.store.contains(&from_follower), "a warp-syncing node does not broadcast");
}
