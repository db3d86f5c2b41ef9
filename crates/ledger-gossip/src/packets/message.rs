//! Any of the four gossip messages, decoded from a checked header and its payload.

use super::{
    to_frame, BlockPacket, BlockRequest, Header, Heartbeat, MilestoneRequest, Packet, PacketError,
    PacketType,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    MilestoneRequest(MilestoneRequest),
    Block(BlockPacket),
    BlockRequest(BlockRequest),
    Heartbeat(Heartbeat),
}

impl Message {
    /// The message a checked header announces, from exactly its payload.
    pub fn decode(header: Header, payload: &[u8]) -> Result<Message, PacketError> {
        if payload.len() != header.payload_len() {
            return Err(PacketError::FrameLength {
                expected: header.payload_len(),
                actual: payload.len(),
            });
        }
        Ok(match header.packet_type() {
            PacketType::MilestoneRequest => {
                Message::MilestoneRequest(MilestoneRequest::decode_payload(payload)?)
            }
            PacketType::Block => Message::Block(BlockPacket::decode_payload(payload)?),
            PacketType::BlockRequest => {
                Message::BlockRequest(BlockRequest::decode_payload(payload)?)
            }
            PacketType::Heartbeat => Message::Heartbeat(Heartbeat::decode_payload(payload)?),
        })
    }

    pub fn packet_type(&self) -> PacketType {
        match self {
            Message::MilestoneRequest(_) => PacketType::MilestoneRequest,
            Message::Block(_) => PacketType::Block,
            Message::BlockRequest(_) => PacketType::BlockRequest,
            Message::Heartbeat(_) => PacketType::Heartbeat,
        }
    }

    pub fn to_frame(&self) -> Vec<u8> {
        match self {
            Message::MilestoneRequest(p) => to_frame(p),
            Message::Block(p) => to_frame(p),
            Message::BlockRequest(p) => to_frame(p),
            Message::Heartbeat(p) => to_frame(p),
        }
    }
}
