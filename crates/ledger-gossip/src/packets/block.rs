//! Message type 2: one serialized block, 1..32768 bytes, byte-identical to the bytes its
//! block id is hashed from (gossip.md §4). Only the length is checked here; what the bytes
//! mean is the store's business (validation.md), after deduplication — except that an
//! unknown peer's blocks must at least decode (`check_syntax`, D53).

use super::{BlockId, Packet, PacketError, PacketType};

#[derive(Clone, PartialEq, Eq)]
pub struct BlockPacket(Vec<u8>);

impl BlockPacket {
    /// A block message for these bytes, if their length fits the message (1..32768).
    pub fn new(bytes: Vec<u8>) -> Result<BlockPacket, PacketError> {
        let t = PacketType::Block;
        if bytes.is_empty() || bytes.len() > t.max_len() {
            return Err(PacketError::InvalidLength {
                packet_type: t,
                length: bytes.len(),
                min: t.min_len(),
                max: t.max_len(),
            });
        }
        Ok(BlockPacket(bytes))
    }

    pub fn id(&self) -> BlockId {
        BlockId::of_block(&self.0)
    }

    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// Whether the bytes are a block of the node's protocol version at all: they decode,
    /// strictly and to the end. What the store checks first, done where the bytes are read
    /// so that a stranger sending noise is dropped at its first block, not at the verdict
    /// on it, thousands of blocks later.
    pub fn check_syntax(&self) -> Result<(), String> {
        let block = ledger_core::codec::decode_block(&self.0).map_err(|e| e.to_string())?;
        if block.protocol_version != ledger_core::model::PROTOCOL_VERSION {
            return Err(format!(
                "protocol version {}, expected {}",
                block.protocol_version,
                ledger_core::model::PROTOCOL_VERSION
            ));
        }
        Ok(())
    }
}

impl Packet for BlockPacket {
    const TYPE: PacketType = PacketType::Block;

    fn decode_payload(payload: &[u8]) -> Result<Self, PacketError> {
        BlockPacket::new(payload.to_vec())
    }

    fn payload_len(&self) -> usize {
        self.0.len()
    }

    fn write_payload(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
}

impl std::fmt::Debug for BlockPacket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockPacket({} bytes, id {})", self.0.len(), self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    crate::packets::packet_tests!(generic, BlockPacket, || {
        let mut rng = rand::thread_rng();
        let len = if rng.gen_bool(0.1) { 32768 } else { rng.gen_range(1..2000) };
        BlockPacket::new((0..len).map(|_| rng.gen()).collect()).unwrap()
    });

    #[test]
    fn empty_and_oversized_blocks_cannot_be_built() {
        assert!(BlockPacket::new(Vec::new()).is_err());
        assert!(BlockPacket::new(vec![0; 32769]).is_err());
        assert!(BlockPacket::new(vec![0; 32768]).is_ok());
    }

    #[test]
    fn id_is_blake2b_of_the_bytes() {
        let block = BlockPacket::new(b"any bytes".to_vec()).unwrap();
        assert_eq!(block.id().0, ledger_core::hash::blake2b256(b"any bytes"));
    }
}
