//! Gossip counters (gossip.md §9): Hornet's eleven per-stream counters, kept twice — per
//! stream (u32 as Hornet reports them, reset when a stream starts) and for the whole node
//! (u64, never reset, for `/metrics`) — from one definition, [`Counters`]; the node adds
//! the count of invalid blocks.
//!
//! Counters are atomics because the stream's writer task counts what it sent while the
//! service counts what arrived.

use crate::packets::PacketType;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// An atomic counter and the plain number a snapshot of it holds.
pub trait Counter: Default {
    type Value: Copy;
    fn load(&self) -> Self::Value;
    fn add_one(&self);
}

impl Counter for AtomicU32 {
    type Value = u32;
    fn load(&self) -> u32 {
        AtomicU32::load(self, Relaxed)
    }
    fn add_one(&self) {
        self.fetch_add(1, Relaxed);
    }
}

impl Counter for AtomicU64 {
    type Value = u64;
    fn load(&self) -> u64 {
        AtomicU64::load(self, Relaxed)
    }
    fn add_one(&self) {
        self.fetch_add(1, Relaxed);
    }
}

/// Declares `Counters<C>` and its snapshot from one list of fields.
macro_rules! counters {
    ($($(#[$doc:meta])* $field:ident),* $(,)?) => {
        /// Hornet's `MetricsSnapshot` (same names and meaning): atomics while counting
        /// (`C` = `AtomicU32`/`AtomicU64`), numbers in a snapshot (`C` = `u32`/`u64`).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Counters<C> { $($(#[$doc])* pub $field: C),* }

        impl<C: Counter> Counters<C> {
            pub fn snapshot(&self) -> Counters<C::Value> {
                Counters { $($field: self.$field.load()),* }
            }
        }
    };
}

counters!(
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
);

/// One gossip stream's counters.
pub type PeerMetrics = Counters<AtomicU32>;
pub type PeerMetricsSnapshot = Counters<u32>;

/// The node's gossip counters since start: every stream's, summed, and invalid blocks.
#[derive(Debug, Default)]
pub struct NodeMetrics {
    pub streams: Counters<AtomicU64>,
    /// Blocks that broke a protocol rule (their senders were dropped).
    pub invalid_blocks: AtomicU64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeMetricsSnapshot {
    pub streams: Counters<u64>,
    pub invalid_blocks: u64,
}

impl NodeMetrics {
    pub fn snapshot(&self) -> NodeMetricsSnapshot {
        NodeMetricsSnapshot {
            streams: self.streams.snapshot(),
            invalid_blocks: self.invalid_blocks.load(Relaxed),
        }
    }
}

/// Add one to a counter of the stream and the same counter of the node.
macro_rules! count {
    ($peer:expr, $node:expr, $field:ident) => {{
        $crate::metrics::Counter::add_one(&$peer.$field);
        $crate::metrics::Counter::add_one(&$node.streams.$field);
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
    count!(peer, node, dropped_packets);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_goes_to_the_stream_and_the_node() {
        let (peer, node) = (PeerMetrics::default(), NodeMetrics::default());
        count_sent(&peer, &node, Some(PacketType::Heartbeat));
        count_sent(&peer, &node, None);
        count_dropped(&peer, &node);
        count!(peer, node, known_blocks);
        let expected = Counters {
            sent_heartbeats: 1,
            dropped_packets: 1,
            known_blocks: 1,
            ..Counters::default()
        };
        assert_eq!(peer.snapshot(), expected);
        let node = node.snapshot();
        assert_eq!(
            node.streams,
            Counters {
                sent_heartbeats: 1,
                dropped_packets: 1,
                known_blocks: 1,
                ..Counters::default()
            }
        );
        assert_eq!(node.invalid_blocks, 0);
    }
}
