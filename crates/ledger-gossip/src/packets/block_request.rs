//! Message type 3: "send me this block", exactly 32 bytes, the block id (gossip.md §4, §6).

use super::{BlockId, Packet, PacketError, PacketType};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockRequest(BlockId);

impl BlockRequest {
    pub fn new(id: BlockId) -> BlockRequest {
        BlockRequest(id)
    }

    pub fn block_id(&self) -> BlockId {
        self.0
    }
}

impl Packet for BlockRequest {
    const TYPE: PacketType = PacketType::BlockRequest;

    fn decode_payload(payload: &[u8]) -> Result<Self, PacketError> {
        let id: [u8; 32] = payload
            .try_into()
            .map_err(|_| PacketError::FrameLength { expected: 32, actual: payload.len() })?;
        Ok(BlockRequest(BlockId(id)))
    }

    fn payload_len(&self) -> usize {
        32
    }

    fn write_payload(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packets::to_frame;
    use rand::Rng;

    crate::packets::packet_tests!(generic, BlockRequest, || BlockRequest::new(BlockId(
        rand::thread_rng().gen()
    )));

    #[test]
    fn example_of_the_spec() {
        let id = BlockId([0xab; 32]);
        let mut expected = vec![0x03, 0x20, 0x00];
        expected.extend_from_slice(&[0xab; 32]);
        assert_eq!(to_frame(&BlockRequest::new(id)), expected);
    }
}
