//! Punishment (D49, gossip.md §10) on the in-memory transport, with a raw libp2p peer that
//! writes whatever the test wants on its gossip stream: garbage and bad lengths close the
//! stream and connection, an invalid block gets its sender dropped and removed, a silent
//! peer is dropped after the grace period and one whose heartbeats stop after the expiry —
//! while a well-behaved peer keeps its stream. A stranger's invalid block (protocol version
//! 3) is caught where its bytes are read (D53), before the store; a configured peer's goes
//! to the store, whose verdict drops the peer the same way.

use crate::common::*;
use futures::AsyncWriteExt;
use ledger_gossip::packets::{to_frame, BlockPacket, Heartbeat, PacketError, PacketType};
use ledger_gossip::{CloseReason, DropReason, GossipEvent};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

/// A follower at milestone 2 and a good peer of it at 2.
async fn node_with_good_peer(config: ledger_gossip::Config) -> (Node, Node, Chain) {
    let chain = Chain::of(2, false);
    let node = node_on(chain.follower_at(2), config).await;
    let good = follower_node(&chain, 2).await;
    peer_up(&good, &node).await;
    (node, good, chain)
}

async fn expect_closed(node: &mut Node, raw: libp2p::PeerId) -> CloseReason {
    let reason = node
        .event(WAIT, |e| match e {
            GossipEvent::StreamClosed { peer, reason } if *peer == raw => Some(reason.clone()),
            _ => None,
        })
        .await;
    eventually(WAIT, || async { node.peer(raw).await.is_none() }).await;
    reason
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_message_type_closes_stream_and_connection() {
    let (mut node, good, _chain) = node_with_good_peer(memory_config()).await;
    let (raw, mut stream) = raw_stream_to(&node).await;
    stream.write_all(&to_frame(&Heartbeat::new(2, 0, 2, 1, 1))).await.unwrap();
    stream.write_all(&[0x09, 0x04, 0x00, 1, 2, 3, 4]).await.unwrap();
    stream.flush().await.unwrap();
    assert_eq!(
        expect_closed(&mut node, raw).await,
        CloseReason::Protocol(PacketError::UnknownType(9))
    );
    assert!(node.has_heartbeat_from(good.peer_id()).await, "the good peer keeps its stream");
    assert!(node.gossip().metrics().streams.received_heartbeats >= 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_lengths_close_the_stream() {
    for (bytes, expected) in [
        (
            vec![0x02, 0x00, 0x00],
            PacketError::InvalidLength {
                packet_type: PacketType::Block,
                length: 0,
                min: 1,
                max: 32768,
            },
        ),
        (
            vec![0x04, 0x0d, 0x00],
            PacketError::InvalidLength {
                packet_type: PacketType::Heartbeat,
                length: 13,
                min: 14,
                max: 14,
            },
        ),
        (
            vec![0x02, 0x01, 0x80],
            PacketError::InvalidLength {
                packet_type: PacketType::Block,
                length: 32769,
                min: 1,
                max: 32768,
            },
        ),
        (vec![0x00, 0x03, 0x00], PacketError::UnknownType(0)),
    ] {
        let (mut node, good, _chain) = node_with_good_peer(memory_config()).await;
        let (raw, mut stream) = raw_stream_to(&node).await;
        stream.write_all(&bytes).await.unwrap();
        stream.flush().await.unwrap();
        assert_eq!(expect_closed(&mut node, raw).await, CloseReason::Protocol(expected));
        assert!(node.has_heartbeat_from(good.peer_id()).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_block_gets_its_sender_dropped_and_removed() {
    let judged = invalid_block_from(false).await;
    assert!(judged.is_empty(), "the reader caught the stranger's block: {judged:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configured_peers_invalid_block_is_judged_by_the_store() {
    let judged = invalid_block_from(true).await;
    assert_eq!(judged.len(), 1, "the store judged the configured peer's block once");
}

/// A raw peer, configured at the node or a stranger, sends an invalid block
/// (`invalid_block_drops_its_sender` checks what follows); returns the store's submissions
/// of that block.
async fn invalid_block_from(known: bool) -> Vec<bool> {
    let (mut node, good, chain) = node_with_good_peer(memory_config()).await;
    let (raw, stream) =
        if known { raw_known_stream_to(&node).await } else { raw_stream_to(&node).await };
    invalid_block_drops_its_sender(&mut node, &good, &chain, raw, stream).await;
    node.recorder.submissions(&invalid_block(&chain).1)
}

/// Well-formed, its parent stored: only the protocol version is wrong.
fn invalid_block(chain: &Chain) -> (Vec<u8>, ledger_gossip::BlockId) {
    let mut bad = tagged_block(&[chain.milestone_id(2).0], "protocol version 3");
    bad[0] = 3;
    let id = ledger_gossip::BlockId::of_block(&bad);
    (bad, id)
}

/// `raw` sends an invalid block on `stream`: the node drops and removes it, keeps the
/// good peer and never passes the block on.
async fn invalid_block_drops_its_sender(
    node: &mut Node,
    good: &Node,
    chain: &Chain,
    raw: libp2p::PeerId,
    mut stream: libp2p::Stream,
) {
    let (bad, bad_id) = invalid_block(chain);
    stream.write_all(&to_frame(&Heartbeat::new(2, 0, 2, 1, 1))).await.unwrap();
    stream.write_all(&to_frame(&BlockPacket::new(bad).unwrap())).await.unwrap();
    stream.flush().await.unwrap();
    let (block, removed) = node
        .event(WAIT, |e| match e {
            GossipEvent::PeerDropped {
                peer,
                reason: DropReason::InvalidBlock { block, .. },
                removed,
            } if *peer == raw => Some((*block, *removed)),
            _ => None,
        })
        .await;
    assert_eq!((block, removed), (bad_id, true));
    eventually(WAIT, || async { node.peer(raw).await.is_none() }).await;
    assert!(!node.contains(&bad_id));
    assert_eq!(node.gossip().metrics().invalid_blocks, 1);
    assert!(node.has_heartbeat_from(good.peer_id()).await);
    // The good peer never saw the invalid block: the one block it had from the node is the
    // answer to its "latest milestone" request (milestone 2, which it has).
    let at_good = good.peer(node.peer_id()).await.unwrap().gossip.unwrap().metrics;
    assert_eq!((at_good.received_blocks, at_good.new_blocks), (1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_peer_is_dropped_after_the_grace_period() {
    let mut config = memory_config();
    config.timers.heartbeat_check_interval = Duration::from_millis(100);
    config.timers.heartbeat_grace = Duration::from_millis(500);
    let (mut node, good, _chain) = node_with_good_peer(config).await;
    let (raw, _stream) = raw_stream_to(&node).await;
    let reason = node
        .event(WAIT, |e| match e {
            GossipEvent::PeerDropped { peer, reason, .. } if *peer == raw => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert_eq!(reason, DropReason::NoHeartbeat);
    eventually(WAIT, || async { node.peer(raw).await.is_none() }).await;
    assert!(
        node.has_heartbeat_from(good.peer_id()).await,
        "the good peer sends heartbeats and stays"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_whose_heartbeats_stop_is_dropped_after_the_expiry() {
    let mut config = memory_config();
    config.timers.heartbeat_check_interval = Duration::from_millis(100);
    config.timers.heartbeat_expiry = Duration::from_secs(2);
    // The good peer must resend faster than the node's expiry: twenty times as often, so
    // that a loaded machine's late timers do not let its heartbeat expire too.
    let chain = Chain::of(2, false);
    let node = node_on(chain.follower_at(2), config).await;
    let mut good_config = memory_config();
    good_config.timers.heartbeat_check_interval = Duration::from_millis(50);
    good_config.timers.heartbeat_resend = Duration::from_millis(100);
    let good = node_on(chain.follower_at(2), good_config).await;
    peer_up(&good, &node).await;
    let mut node = node;

    let (raw, mut stream) = raw_stream_to(&node).await;
    stream.write_all(&to_frame(&Heartbeat::new(2, 0, 2, 1, 1))).await.unwrap();
    stream.flush().await.unwrap();
    eventually(WAIT, || async { node.has_heartbeat_from(raw).await }).await;
    let reason = node
        .event(WAIT, |e| match e {
            GossipEvent::PeerDropped { peer, reason, .. } if *peer == raw => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert_eq!(reason, DropReason::HeartbeatExpired);
    assert!(node.has_heartbeat_from(good.peer_id()).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_sends_nothing_at_all_hits_the_read_deadline() {
    let mut config = memory_config();
    config.timers.read_timeout = Duration::from_millis(500);
    // Keep the heartbeat judge out of the way.
    config.timers.heartbeat_grace = Duration::from_secs(60);
    let (mut node, _good, _chain) = node_with_good_peer(config).await;
    let (raw, _stream) = raw_stream_to(&node).await;
    assert_eq!(expect_closed(&mut node, raw).await, CloseReason::ReadTimeout);
}

/// A body deadline of 500 ms, an idle deadline of a minute, and no heartbeat judge.
fn body_deadline_config() -> ledger_gossip::Config {
    let mut config = memory_config();
    config.timers.read_timeout = Duration::from_secs(60);
    config.timers.body_timeout = Duration::from_millis(500);
    config.timers.heartbeat_grace = Duration::from_secs(60);
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_without_its_body_hits_the_body_deadline() {
    let (mut node, good, _chain) = node_with_good_peer(body_deadline_config()).await;
    let (raw, mut stream) = raw_stream_to(&node).await;
    stream.write_all(&to_frame(&Heartbeat::new(2, 0, 2, 1, 1))).await.unwrap();
    stream.flush().await.unwrap();
    eventually(WAIT, || async { node.has_heartbeat_from(raw).await }).await;
    // Idle for longer than the body deadline between messages: no offence.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert!(node.has_heartbeat_from(raw).await, "idle between messages is the read deadline's");
    // A block's header announcing 100 bytes, and ten of them.
    stream.write_all(&[0x02, 100, 0x00]).await.unwrap();
    stream.write_all(&[0x02; 10]).await.unwrap();
    stream.flush().await.unwrap();
    assert_eq!(expect_closed(&mut node, raw).await, CloseReason::BodyTimeout);
    assert!(node.has_heartbeat_from(good.peer_id()).await, "the good peer keeps its stream");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_trickled_a_byte_at_a_time_hits_the_body_deadline() {
    let (mut node, _good, _chain) = node_with_good_peer(body_deadline_config()).await;
    let (raw, mut stream) = raw_stream_to(&node).await;
    stream.write_all(&to_frame(&Heartbeat::new(2, 0, 2, 1, 1))).await.unwrap();
    stream.write_all(&[0x02, 100, 0x00]).await.unwrap();
    stream.flush().await.unwrap();
    // A byte every 100 ms: every read brings something, the message never completes in time.
    let trickle = tokio::spawn(async move {
        for _ in 0..100 {
            if stream.write_all(&[0x02]).await.is_err() || stream.flush().await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    assert_eq!(expect_closed(&mut node, raw).await, CloseReason::BodyTimeout);
    trickle.abort();
}
