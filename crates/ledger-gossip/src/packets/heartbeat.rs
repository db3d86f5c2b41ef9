//! Message type 4: a node's view of the network, exactly 14 bytes (gossip.md §4, §5;
//! Hornet `pkg/protocol/gossip/sting.go`): solid, pruned and latest milestone index
//! (u32 LE each), then connected and synced peers (u8 each, capped at 255).
//!
//! The indexes are not checked against each other: Hornet does not, and a peer whose
//! numbers make no sense only hurts itself (it receives no requests it could not answer).

use super::{Packet, PacketError, PacketType};

/// How far a peer's solid milestone may trail ours for new blocks to be worth sending to it:
/// the protocol's below max depth (15 on Stardust's networks). A peer further behind is
/// catching up by requests (warp sync), which bring it every block a milestone references;
/// a block sent to it now would only wait there unsolidified.
pub const FOLLOWING_DISTANCE: u32 = 15;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heartbeat {
    /// The sender's confirmed milestone index (Hornet does not distinguish solid and confirmed).
    pub solid_milestone_index: u32,
    /// The sender's pruning index: it holds no milestone at or below this one.
    pub pruned_milestone_index: u32,
    /// The highest milestone index the sender has seen and verified.
    pub latest_milestone_index: u32,
    pub connected_peers: u8,
    pub synced_peers: u8,
}

impl Heartbeat {
    /// A heartbeat with peer counts capped at 255, as the wire requires.
    pub fn new(
        solid: u32,
        pruned: u32,
        latest: u32,
        connected_peers: usize,
        synced_peers: usize,
    ) -> Heartbeat {
        Heartbeat {
            solid_milestone_index: solid,
            pruned_milestone_index: pruned,
            latest_milestone_index: latest,
            connected_peers: connected_peers.min(255) as u8,
            synced_peers: synced_peers.min(255) as u8,
        }
    }

    /// Whether the sender certainly has milestone `index`'s cone (`pruned < index ≤ solid`).
    pub fn has_data_for(&self, index: u32) -> bool {
        self.pruned_milestone_index < index && index <= self.solid_milestone_index
    }

    /// Whether the sender may have parts of milestone `index`'s cone (`pruned < index ≤ latest`).
    pub fn could_have_data_for(&self, index: u32) -> bool {
        self.pruned_milestone_index < index && index <= self.latest_milestone_index
    }

    /// Whether the sender is close enough behind (or ahead of) a node whose confirmed index
    /// is `own_confirmed` to use the blocks that node sends it (`FOLLOWING_DISTANCE`).
    pub fn follows(&self, own_confirmed: u32) -> bool {
        self.solid_milestone_index.saturating_add(FOLLOWING_DISTANCE) >= own_confirmed
    }

    /// Whether the sender counts as synced for a node whose confirmed index is `own_confirmed`:
    /// `solid ≥ max(latest, own_confirmed) − 2` (gossip.md §4; Hornet's `IsSynced`, without
    /// its unsigned wrap-around below index 2).
    pub fn is_synced(&self, own_confirmed: u32) -> bool {
        let latest = self.latest_milestone_index.max(own_confirmed);
        self.solid_milestone_index >= latest.saturating_sub(2)
    }
}

impl Packet for Heartbeat {
    const TYPE: PacketType = PacketType::Heartbeat;

    fn decode_payload(payload: &[u8]) -> Result<Self, PacketError> {
        if payload.len() != 14 {
            return Err(PacketError::FrameLength { expected: 14, actual: payload.len() });
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([payload[at], payload[at + 1], payload[at + 2], payload[at + 3]])
        };
        Ok(Heartbeat {
            solid_milestone_index: u32_at(0),
            pruned_milestone_index: u32_at(4),
            latest_milestone_index: u32_at(8),
            connected_peers: payload[12],
            synced_peers: payload[13],
        })
    }

    fn payload_len(&self) -> usize {
        14
    }

    fn write_payload(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.solid_milestone_index.to_le_bytes());
        out.extend_from_slice(&self.pruned_milestone_index.to_le_bytes());
        out.extend_from_slice(&self.latest_milestone_index.to_le_bytes());
        out.push(self.connected_peers);
        out.push(self.synced_peers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packets::{from_frame, to_frame};
    use rand::Rng;

    crate::packets::packet_tests!(generic, Heartbeat, || {
        let mut rng = rand::thread_rng();
        Heartbeat::new(
            rng.gen(),
            rng.gen(),
            rng.gen(),
            rng.gen_range(0..300),
            rng.gen_range(0..300),
        )
    });

    #[test]
    fn example_of_the_spec() {
        let bytes =
            hex::decode("04 0e00 07000000 00000000 07000000 02 01".replace(' ', "")).unwrap();
        let heartbeat = Heartbeat::new(7, 0, 7, 2, 1);
        assert_eq!(to_frame(&heartbeat), bytes);
        assert_eq!(from_frame::<Heartbeat>(&bytes), Ok(heartbeat));
    }

    #[test]
    fn peer_counts_are_capped() {
        let h = Heartbeat::new(1, 0, 1, 1000, 256);
        assert_eq!((h.connected_peers, h.synced_peers), (255, 255));
    }

    #[test]
    fn data_ranges_and_sync() {
        let h = Heartbeat::new(10, 3, 12, 0, 0);
        assert!(
            !h.has_data_for(3) && h.has_data_for(4) && h.has_data_for(10) && !h.has_data_for(11)
        );
        assert!(h.could_have_data_for(12) && !h.could_have_data_for(13));
        assert!(h.is_synced(10) && h.is_synced(12) && !h.is_synced(13));
        assert!(Heartbeat::new(0, 0, 1, 0, 0).is_synced(0));
    }

    #[test]
    fn a_peer_follows_within_below_max_depth() {
        let h = Heartbeat::new(100, 0, 100, 0, 0);
        assert!(h.follows(90) && h.follows(115) && !h.follows(116));
        assert!(Heartbeat::new(u32::MAX, 0, u32::MAX, 0, 0).follows(u32::MAX));
    }
}
