//! Gossip beside pruning (gossip.md §4, pruning.md): a run moves the pruning index between
//! two milestones, and peers hear of it at once, not with the next milestone; what a run
//! removed is neither served nor counted on; a follower catching up does not prune (Hornet
//! prunes only while synced), and does once it has caught up.

use crate::common::*;
use ledger_gossip::GossipStore;
use ledger_store::{PruneTarget, PruningConfig};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

async fn heartbeat_of(from: &Node, at: &Node) -> Option<ledger_gossip::packets::Heartbeat> {
    at.peer(from.peer_id()).await.and_then(|p| p.gossip).and_then(|g| g.heartbeat)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pruning_run_is_announced_at_once_and_what_it_removed_is_not_served() {
    let chain = Chain::of(60, true);
    let ahead = coordinator_node(&chain, quick_config()).await;
    let behind = node_on(TempStore::follower(), quick_config()).await;
    peer_up(&behind, &ahead).await;
    eventually(WAIT, || async { behind.confirmed() == 60 }).await;
    let before = heartbeat_of(&ahead, &behind).await.unwrap();
    assert_eq!(before.pruned_milestone_index, 0);

    let report = ahead.store.prune(PruneTarget::Index(20), &|| false).unwrap();
    assert_eq!(report.to, 20);
    // No milestone follows the run: the heartbeat comes from the run itself.
    eventually(WAIT, || async {
        heartbeat_of(&ahead, &behind).await.is_some_and(|h| h.pruned_milestone_index == 20)
    })
    .await;
    let after = heartbeat_of(&ahead, &behind).await.unwrap();
    assert_eq!(after.solid_milestone_index, 60);
    assert!(!after.has_data_for(20) && after.has_data_for(21));

    // What gossip answers requests from: nothing at or below the pruning index.
    let served = ahead.sync.intake();
    assert!(served.milestone_block(10).is_none());
    assert!(served.milestone_block(20).is_none());
    assert!(served.block_bytes(&chain.milestone_id(15)).is_none());
    assert!(served.milestone_block(21).is_some());
    assert!(served.block_bytes(&chain.milestone_id(40)).is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_prunes_only_once_it_has_caught_up() {
    // Pruning never reaches closer than belowMaxDepth + 5 to the confirmed milestone.
    let past = protocol().below_max_depth as u32 + 5;
    let chain = Chain::of(80, true);
    let ahead = coordinator_node(&chain, quick_config()).await;
    // Milestone 41 cannot be had for now: the follower is stuck at 40 of 80, where keeping 5
    // milestones would prune to 40 − past if it were synced.
    ahead.recorder.withhold(chain.milestone_id(41), true);
    let follower = TempStore::follower();
    let keep = PruningConfig { max_milestones_to_keep: Some(5), ..PruningConfig::default() };
    follower.store.start_pruning(keep);
    let behind = node_on(follower, quick_config()).await;
    peer_up(&behind, &ahead).await;

    eventually(WAIT, || async { behind.confirmed() == 40 }).await;
    eventually(WAIT, || async { behind.sync_state().latest == 80 }).await;
    assert!(!behind.store.synced_for_pruning());
    assert_eq!(behind.store.pruning_status().runs, 0);
    assert_eq!(behind.store.status().pruning_index, 0);

    ahead.recorder.withhold(chain.milestone_id(41), false);
    eventually(WAIT, || async { behind.confirmed() == 80 }).await;
    assert!(behind.store.synced_for_pruning());
    // Synced: milestone 80, or else the next one, starts a run to the newest index pruning
    // may reach (after one run, the next waits for Hornet's minimum step).
    let issued = ahead.local.issue_milestone(&ahead.store, None).unwrap();
    assert_eq!(issued.index, 81);
    // (A run counts itself after its last step, when the index has moved already.)
    eventually(WAIT, || async {
        let index = behind.store.status().pruning_index;
        (80 - past..=81 - past).contains(&index) && behind.store.pruning_status().runs == 1
    })
    .await;
    behind.store.stop_pruning();
}
