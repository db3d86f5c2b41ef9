//! Gossip counters (gossip.md §9): per stream, reset when a stream starts, u32 as Hornet
//! reports them; and for the whole node, never reset (u64), for `/metrics`.
//!
//! Counters are atomics because the stream's writer task counts what it sent while the
//! service counts what arrived.

use crate::packets::PacketType;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

macro_rules! counters {
    ($(#[$doc:meta])* $name:ident, $snapshot:ident, $atomic:ty, $int:ty { $($(#[$fdoc:meta])* $field:ident),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Default)]
        pub struct $name { $(pub $field: $atomic),* }

        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $snapshot { $($(#[$fdoc])* pub $field: $int),* }

        impl $name {
            pub fn snapshot(&self) -> $snapshot {
                $snapshot { $($field: self.$field.load(Relaxed)),* }
            }
        }
    };
}

counters!(
    /// One gossip stream's counters (Hornet's `MetricsSnapshot`, same names and meaning).
    PeerMetrics, PeerMetricsSnapshot, AtomicU32, u32 {
        /// Blocks first received from this peer.
        new_blocks,
        /// Blocks this peer sent that were already known or in progress.
        known_blocks,
        /// All block messages from this peer.
        received_blocks,
        received_block_requests,
        received_milestone_requests,
        received_heartbeats,
        sent_blocks,
        sent_block_requests,
        sent_milestone_requests,
        sent_heartbeats,
        /// Messages that did not fit the send queue.
        dropped_packets,
    }
);

counters!(
    /// The node's gossip counters since start.
    NodeMetrics, NodeMetricsSnapshot, AtomicU64, u64 {
        received_blocks,
        new_blocks,
        known_blocks,
        /// Blocks that broke a protocol rule (their senders were dropped).
        invalid_blocks,
        received_block_requests,
        received_milestone_requests,
        received_heartbeats,
        sent_blocks,
        sent_block_requests,
        sent_milestone_requests,
        sent_heartbeats,
        dropped_packets,
    }
);

/// Add one to a counter of the stream and the same counter of the node.
macro_rules! count {
    ($peer:expr, $node:expr, $field:ident) => {{
        $peer.$field.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        $node.$field.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }};
}
pub(crate) use count;

/// Count a message the writer put on the wire, by its type byte.
pub fn count_sent(peer: &PeerMetrics, node: &NodeMetrics, packet_type: Option<PacketType>) {
    match packet_type {
        Some(PacketType::Block) => count!(peer, node, sent_blocks),
        Some(PacketType::BlockRequest) => count!(peer, node, sent_block_requests),
        Some(PacketType::MilestoneRequest) => count!(peer, node, sent_milestone_requests),
        Some(PacketType::Heartbeat) => count!(peer, node, sent_heartbeats),
        None => {}
    }
}

pub fn count_dropped(peer: &PeerMetrics, node: &NodeMetrics) {
    peer.dropped_packets.fetch_add(1, Relaxed);
    node.dropped_packets.fetch_add(1, Relaxed);
}
