//! The hostile peer's phases (issue 24, item 4; the `hostile_peer` example runs them over
//! TCP against a running node) in short, against a coordinator node on the in-memory
//! transport that keeps issuing milestones while an honest follower keeps sending it
//! blocks. After each phase: the node is up, the attacker was dropped as gossip.md §10 says
//! (or kept, for what is no offence), the honest block of the phase got in and a later
//! milestone referenced it, and the held blocks stayed within their count and byte bounds.
//! No timing is asserted: every wait is for an event or a condition, with room to spare.

use crate::common::*;
use futures::FutureExt;
use ledger_gossip::packets::PacketError;
use ledger_gossip::{CloseReason, DropReason, GossipEvent, Multiaddr};
use ledger_sync::Limits;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

#[path = "../../examples/hostile_peer/phases.rs"]
mod phases;
#[path = "../../examples/hostile_peer/stream.rs"]
mod stream;
use phases::{run_phase, Budget, Conn, Connect, Phase};

const WAIT: Duration = Duration::from_secs(30);

/// A fresh identity on the in-memory transport with a gossip stream to `address`.
async fn connect_memory(address: Multiaddr) -> Result<Conn, String> {
    stream::open(memory_swarm(&memory_config()), address).await
}

/// The gossip events of a phase so far (a lagging receiver skips what it missed).
fn drain(node: &mut Node) -> Vec<GossipEvent> {
    let mut events = Vec::new();
    loop {
        match node.events.try_recv() {
            Ok(event) => events.push(event),
            Err(tokio::sync::broadcast::error::TryRecvError::Lagged(_)) => continue,
            Err(_) => return events,
        }
    }
}

fn closes(events: &[GossipEvent]) -> Vec<CloseReason> {
    events
        .iter()
        .filter_map(|e| match e {
            GossipEvent::StreamClosed { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_hostile_phase_against_a_confirming_node() {
    let mut config = memory_config();
    config.warp_sync = false;
    config.timers.body_timeout = Duration::from_secs(1);
    config.timers.write_timeout = Duration::from_secs(2);
    let limits = Limits { held_capacity: 300, held_max_bytes: 128 << 10, ..Limits::default() };
    let chain = Chain::of(2, false);
    let mut node = coordinator_node_with_limits(&chain, config, limits).await;
    let honest = follower_node(&chain, 2).await;
    // The node dials: the honest peer is known to it and takes none of the 4 unknown slots.
    peer_up(&node, &honest).await;

    // The coordinator keeps confirming: a milestone every 200 ms, on a thread of its own.
    let running = Arc::new(AtomicBool::new(true));
    let issuer = {
        let (running, local, store) = (running.clone(), node.local.clone(), node.store.clone());
        std::thread::spawn(move || {
            while running.load(Relaxed) {
                local.issue_milestone(&store, None).unwrap();
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };

    let budget = Budget {
        messages: 3_000,
        time: Duration::from_secs(3),
        close_wait: WAIT,
        min_pow_score: 0,
        block_data: 1024,
        slots: 5,
    };
    let address = node.address.clone();
    let mut connect: Connect = Box::new(move || connect_memory(address.clone()).boxed());
    let mut honest_blocks = Vec::new();
    for phase in Phase::ALL {
        // The last phase's attackers are gone: only the honest peer is left.
        eventually(WAIT, || async { node.gossip().peers().await.unwrap().len() == 1 }).await;
        drain(&mut node);
        let invalid_before = node.gossip().metrics().invalid_blocks;
        let report = run_phase(phase, &mut connect, budget).await;
        println!("{}", report.to_json());
        assert!(report.messages > 0 && report.connections > 0, "{phase:?}: {report:?}");
        if phase == Phase::HeaderWithoutBody {
            assert_eq!(report.connections + report.failed_connects, 5, "{report:?}");
        } else {
            assert_eq!(report.failed_connects, 0, "{phase:?}: the node takes every connection");
        }
        let events = drain(&mut node);
        let closes = closes(&events);
        if phase.punished() {
            assert_eq!(report.left_open, 0, "{phase:?}: every stream closed: {report:?}");
        } else {
            assert_eq!(report.closed_by_node, 0, "{phase:?}: no offence, kept: {report:?}");
        }
        match phase {
            Phase::Truncated => assert!(closes.contains(&CloseReason::Eof), "{closes:?}"),
            Phase::Oversized => assert!(
                closes
                    .iter()
                    .any(|r| matches!(r, CloseReason::Protocol(PacketError::InvalidLength { .. }))),
                "{closes:?}"
            ),
            Phase::InvalidBlocks => {
                assert!(events.iter().any(|e| matches!(
                    e,
                    GossipEvent::PeerDropped {
                        reason: DropReason::InvalidBlock { .. },
                        removed: true,
                        ..
                    }
                )));
                // Each stranger was dropped at its first block (D53), not at the verdict on
                // it: one invalid block counted a connection, at most.
                let invalid = node.gossip().metrics().invalid_blocks - invalid_before;
                assert!(invalid >= 1 && invalid <= report.connections, "{invalid}: {report:?}");
            }
            Phase::UnknownParents => {
                // Past its orphan budget (500, then 50 a second: D53) the stranger is not
                // read, so it cannot get its 3,000 blocks in within the phase's 3 seconds.
                assert!(report.messages < budget.messages, "{report:?}");
                eventually(WAIT, || async { node.sync.intake().held_counts().0 > 0 }).await;
                let (held, _) = node.sync.intake().held_counts();
                let bytes = node.sync.intake().held_bytes();
                assert!(held <= limits.held_capacity, "{held} held");
                assert!(bytes <= limits.held_max_bytes, "{bytes} bytes held");
            }
            Phase::NeverRead => assert!(closes.contains(&CloseReason::WriteTimeout), "{closes:?}"),
            Phase::HeaderWithoutBody => {
                // Four unknown-peer slots taken, the fifth refused; the four let go at the
                // body deadline instead of the read deadline.
                let body = closes.iter().filter(|r| **r == CloseReason::BodyTimeout).count();
                assert_eq!(body, 4, "{closes:?}");
                assert!(events.iter().any(|e| matches!(
                    e,
                    GossipEvent::StreamRefused { reason, .. } if reason.contains("no slot")
                )));
            }
            _ => {}
        }
        // Still up, the honest peer still there, and its block of the phase gets in.
        assert!(node.has_heartbeat_from(honest.peer_id()).await, "{phase:?}: honest peer kept");
        let id = honest.add_local_on_tips(&format!("honest during {}", phase.name()));
        eventually(WAIT, || async { node.contains(&id) }).await;
        honest_blocks.push(id);
        let (held, _) = node.sync.intake().held_counts();
        assert!(held <= limits.held_capacity);
        assert!(node.sync.intake().held_bytes() <= limits.held_max_bytes);
    }
    // Every honest block was referenced by a milestone of the running coordinator.
    eventually(WAIT, || async {
        honest_blocks.iter().all(|id| {
            node.store.block_metadata(id.as_bytes()).unwrap().is_some_and(|m| m.referenced_by > 0)
        })
    })
    .await;
    running.store(false, Relaxed);
    issuer.join().unwrap();
}
