//! The gossip stream's messages (gossip.md §4), pure Rust: no libp2p, no I/O.
//!
//! Every message is a TLV frame, `type u8 ‖ length u16 LE ‖ payload`. `header` checks the
//! first three bytes; one file per message type gives the payload a type whose constructor
//! enforces what the wire allows (a block of 1..32768 bytes, a 32-byte id, "0 means the
//! latest milestone"); `Message` is any of the four; `decoder` cuts frames out of a byte
//! stream that arrives in arbitrary pieces.
//!
//! There is no envelope beyond the header: no version, no request id, no "not found".

mod block;
mod block_id;
mod block_request;
mod decoder;
mod error;
mod header;
mod heartbeat;
mod message;
mod milestone_request;

pub use block::BlockPacket;
pub use block_id::BlockId;
pub use block_request::BlockRequest;
pub use decoder::Decoder;
pub use error::PacketError;
pub use header::{Header, PacketType, HEADER_LEN};
pub use heartbeat::Heartbeat;
pub use message::Message;
pub use milestone_request::MilestoneRequest;

/// One message type: its type byte and how its payload reads and writes. The header has
/// checked the payload length against the type's range before `decode_payload` runs.
pub trait Packet: Sized {
    const TYPE: PacketType;

    fn decode_payload(payload: &[u8]) -> Result<Self, PacketError>;

    fn payload_len(&self) -> usize;

    fn write_payload(&self, out: &mut Vec<u8>);
}

/// The complete frame (header and payload) of a message.
pub fn to_frame<P: Packet>(packet: &P) -> Vec<u8> {
    let len = packet.payload_len();
    // Constructors only build payloads within the type's range, so the header is valid.
    let header = Header::new(P::TYPE, len).expect("payload length within the type's range");
    let mut frame = Vec::with_capacity(HEADER_LEN + len);
    frame.extend_from_slice(&header.to_bytes());
    packet.write_payload(&mut frame);
    debug_assert_eq!(frame.len(), HEADER_LEN + len);
    frame
}

/// Decode exactly one frame of type `P`: the type must match, the header must be valid and
/// the frame must hold exactly the advertised payload, no byte more or less.
pub fn from_frame<P: Packet>(frame: &[u8]) -> Result<P, PacketError> {
    let header_bytes: [u8; HEADER_LEN] = frame
        .get(..HEADER_LEN)
        .and_then(|h| h.try_into().ok())
        .ok_or(PacketError::FrameLength { expected: HEADER_LEN, actual: frame.len() })?;
    let header = Header::parse(header_bytes)?;
    if header.packet_type() != P::TYPE {
        return Err(PacketError::TypeMismatch { expected: P::TYPE, found: header.packet_type() });
    }
    let expected = HEADER_LEN + header.payload_len();
    if frame.len() != expected {
        return Err(PacketError::FrameLength { expected, actual: frame.len() });
    }
    P::decode_payload(&frame[HEADER_LEN..])
}

/// Bee's per-packet test set, stamped out for each type: wrong type, wrong advertised
/// length, payload length out of range, and a round trip through random valid packets.
#[cfg(test)]
macro_rules! packet_tests {
    ($name:ident, $packet:ty, $random:expr) => {
        mod $name {
            use super::*;
            use crate::packets::{
                from_frame, to_frame, Header, Packet, PacketError, PacketType, HEADER_LEN,
            };

            fn random() -> $packet {
                let f: fn() -> $packet = $random;
                f()
            }

            #[test]
            fn round_trip() {
                for _ in 0..200 {
                    let packet = random();
                    let frame = to_frame(&packet);
                    assert_eq!(frame[0], <$packet as Packet>::TYPE as u8);
                    assert_eq!(
                        u16::from_le_bytes([frame[1], frame[2]]) as usize,
                        frame.len() - HEADER_LEN
                    );
                    assert_eq!(from_frame::<$packet>(&frame).unwrap(), packet);
                }
            }

            #[test]
            fn wrong_type() {
                let mut frame = to_frame(&random());
                for other in PacketType::ALL.into_iter().filter(|t| *t != <$packet as Packet>::TYPE)
                {
                    frame[0] = other as u8;
                    // Either the length does not fit the other type, or the type is not the one asked for.
                    assert!(matches!(
                        from_frame::<$packet>(&frame),
                        Err(PacketError::TypeMismatch { .. })
                            | Err(PacketError::InvalidLength { .. })
                    ));
                }
                frame[0] = 0;
                assert_eq!(from_frame::<$packet>(&frame), Err(PacketError::UnknownType(0)));
            }

            #[test]
            fn wrong_length() {
                let frame = to_frame(&random());
                // A frame cut short or with a byte too many disagrees with its header.
                assert!(matches!(
                    from_frame::<$packet>(&frame[..frame.len() - 1]),
                    Err(PacketError::FrameLength { .. })
                ));
                let mut longer = frame.clone();
                longer.push(0);
                assert!(matches!(
                    from_frame::<$packet>(&longer),
                    Err(PacketError::FrameLength { .. })
                ));
                assert!(matches!(
                    from_frame::<$packet>(&frame[..2]),
                    Err(PacketError::FrameLength { .. })
                ));
            }

            #[test]
            fn out_of_range() {
                let t = <$packet as Packet>::TYPE;
                for len in [t.min_len().wrapping_sub(1), t.max_len() + 1] {
                    if len > u16::MAX as usize {
                        continue;
                    }
                    assert!(matches!(Header::new(t, len), Err(PacketError::InvalidLength { .. })));
                    let mut frame = vec![t as u8];
                    frame.extend_from_slice(&(len as u16).to_le_bytes());
                    frame.resize(HEADER_LEN + len, 0);
                    assert!(matches!(
                        from_frame::<$packet>(&frame),
                        Err(PacketError::InvalidLength { .. })
                    ));
                }
            }
        }
    };
}

#[cfg(test)]
pub(crate) use packet_tests;
