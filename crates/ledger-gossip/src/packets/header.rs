//! The TLV header in front of every gossip message (gossip.md §4): `type u8 ‖ length u16 LE`.
//!
//! Each message type declares the payload lengths it allows; `Header::parse` checks the type
//! and the advertised length against them before a single payload byte is read, so a peer
//! cannot make the node buffer more than the largest message (a block, 32 KiB).

use super::PacketError;
use ledger_core::model::MAX_BLOCK_LENGTH;
use std::fmt;

/// Bytes of the header: one for the type, two for the payload length.
pub const HEADER_LEN: usize = 3;

/// The four message types of the gossip stream. Type 0 is reserved and never valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PacketType {
    MilestoneRequest = 1,
    Block = 2,
    BlockRequest = 3,
    Heartbeat = 4,
}

impl PacketType {
    pub const ALL: [PacketType; 4] = [
        PacketType::MilestoneRequest,
        PacketType::Block,
        PacketType::BlockRequest,
        PacketType::Heartbeat,
    ];

    pub fn from_byte(byte: u8) -> Option<PacketType> {
        PacketType::ALL.into_iter().find(|t| *t as u8 == byte)
    }

    /// Smallest payload length this type allows. A block message of length 0 is refused too
    /// (gossip.md §4): there is no empty block.
    pub const fn min_len(self) -> usize {
        match self {
            PacketType::Block => 1,
            _ => self.max_len(),
        }
    }

    /// Largest payload length this type allows; fixed-length types allow exactly this.
    pub const fn max_len(self) -> usize {
        match self {
            PacketType::MilestoneRequest => 4,
            PacketType::Block => MAX_BLOCK_LENGTH,
            PacketType::BlockRequest => 32,
            PacketType::Heartbeat => 14,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PacketType::MilestoneRequest => "milestone request",
            PacketType::Block => "block",
            PacketType::BlockRequest => "block request",
            PacketType::Heartbeat => "heartbeat",
        }
    }
}

impl fmt::Display for PacketType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (type {})", self.name(), *self as u8)
    }
}

/// A checked header: a known type and a payload length that type allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    packet_type: PacketType,
    payload_len: u16,
}

impl Header {
    /// A header for a payload of `payload_len` bytes, if the type allows that length.
    pub fn new(packet_type: PacketType, payload_len: usize) -> Result<Header, PacketError> {
        if payload_len < packet_type.min_len() || payload_len > packet_type.max_len() {
            return Err(PacketError::InvalidLength {
                packet_type,
                length: payload_len,
                min: packet_type.min_len(),
                max: packet_type.max_len(),
            });
        }
        // The largest allowed length (32768) fits in u16, so the cast cannot truncate.
        Ok(Header { packet_type, payload_len: payload_len as u16 })
    }

    pub fn parse(bytes: [u8; HEADER_LEN]) -> Result<Header, PacketError> {
        let packet_type =
            PacketType::from_byte(bytes[0]).ok_or(PacketError::UnknownType(bytes[0]))?;
        Header::new(packet_type, u16::from_le_bytes([bytes[1], bytes[2]]) as usize)
    }

    pub fn to_bytes(self) -> [u8; HEADER_LEN] {
        let [lo, hi] = self.payload_len.to_le_bytes();
        [self.packet_type as u8, lo, hi]
    }

    pub fn packet_type(self) -> PacketType {
        self.packet_type
    }

    pub fn payload_len(self) -> usize {
        self.payload_len as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_types_round_trip() {
        for t in PacketType::ALL {
            let header = Header::new(t, t.max_len()).unwrap();
            assert_eq!(Header::parse(header.to_bytes()).unwrap(), header);
        }
    }

    #[test]
    fn type_zero_and_unknown_types_are_refused() {
        for byte in [0u8, 5, 6, 0x7f, 0xff] {
            assert_eq!(Header::parse([byte, 4, 0]), Err(PacketError::UnknownType(byte)));
        }
    }

    #[test]
    fn fixed_length_types_allow_exactly_their_length() {
        for t in [PacketType::MilestoneRequest, PacketType::BlockRequest, PacketType::Heartbeat] {
            let n = t.max_len() as u16;
            for wrong in [0, n - 1, n + 1, u16::MAX] {
                let [lo, hi] = wrong.to_le_bytes();
                assert!(
                    matches!(
                        Header::parse([t as u8, lo, hi]),
                        Err(PacketError::InvalidLength { .. })
                    ),
                    "{t} {wrong}"
                );
            }
        }
    }

    #[test]
    fn block_length_is_one_to_32768() {
        assert!(Header::parse([2, 0, 0]).is_err());
        assert_eq!(Header::parse([2, 1, 0]).unwrap().payload_len(), 1);
        assert_eq!(Header::parse([2, 0x00, 0x80]).unwrap().payload_len(), 32768);
        assert_eq!(
            Header::parse([2, 0x01, 0x80]),
            Err(PacketError::InvalidLength {
                packet_type: PacketType::Block,
                length: 32769,
                min: 1,
                max: 32768
            })
        );
    }
}
