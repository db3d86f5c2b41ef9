//! Message type 1: "send me milestone N", exactly 4 bytes, u32 LE; index 0 asks for the
//! receiver's latest milestone (gossip.md §4, §6). The type makes that meaning explicit.

use super::{Packet, PacketError, PacketType};
use std::num::NonZeroU32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MilestoneRequest {
    /// Index 0 on the wire: the receiver's latest milestone.
    Latest,
    Index(NonZeroU32),
}

impl MilestoneRequest {
    pub fn from_index(index: u32) -> MilestoneRequest {
        NonZeroU32::new(index).map_or(MilestoneRequest::Latest, MilestoneRequest::Index)
    }

    /// The index as sent on the wire (0 for `Latest`).
    pub fn wire_index(&self) -> u32 {
        match self {
            MilestoneRequest::Latest => 0,
            MilestoneRequest::Index(i) => i.get(),
        }
    }
}

impl Packet for MilestoneRequest {
    const TYPE: PacketType = PacketType::MilestoneRequest;

    fn decode_payload(payload: &[u8]) -> Result<Self, PacketError> {
        let bytes: [u8; 4] = payload
            .try_into()
            .map_err(|_| PacketError::FrameLength { expected: 4, actual: payload.len() })?;
        Ok(MilestoneRequest::from_index(u32::from_le_bytes(bytes)))
    }

    fn payload_len(&self) -> usize {
        4
    }

    fn write_payload(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.wire_index().to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packets::{from_frame, to_frame};
    use rand::Rng;

    crate::packets::packet_tests!(generic, MilestoneRequest, || MilestoneRequest::from_index(
        if rand::thread_rng().gen_bool(0.2) { 0 } else { rand::thread_rng().gen() }
    ));

    #[test]
    fn latest_is_index_zero_as_in_the_spec() {
        assert_eq!(to_frame(&MilestoneRequest::Latest), [0x01, 0x04, 0x00, 0, 0, 0, 0]);
        assert_eq!(
            from_frame::<MilestoneRequest>(&[0x01, 0x04, 0x00, 0, 0, 0, 0]),
            Ok(MilestoneRequest::Latest)
        );
        assert_eq!(
            from_frame::<MilestoneRequest>(&[0x01, 0x04, 0x00, 0x2a, 0x01, 0, 0])
                .unwrap()
                .wire_index(),
            298
        );
    }
}
