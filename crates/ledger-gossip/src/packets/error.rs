//! What can be wrong with gossip bytes. Each variant carries the numbers that explain it;
//! every one of them is a protocol error that ends the stream (gossip.md §4, §10).

use super::PacketType;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PacketError {
    /// A type byte that names no message (0 is reserved).
    UnknownType(u8),
    /// A payload length the type does not allow.
    InvalidLength { packet_type: PacketType, length: usize, min: usize, max: usize },
    /// A frame of another type than the one asked for.
    TypeMismatch { expected: PacketType, found: PacketType },
    /// A frame holding more or fewer bytes than its header announces.
    FrameLength { expected: usize, actual: usize },
}

impl fmt::Display for PacketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PacketError::UnknownType(byte) => write!(f, "unknown message type {byte}"),
            PacketError::InvalidLength { packet_type, length, min, max } if min == max => {
                write!(f, "{packet_type} must have {max} payload bytes, header says {length}")
            }
            PacketError::InvalidLength { packet_type, length, min, max } => {
                write!(
                    f,
                    "{packet_type} must have {min}..{max} payload bytes, header says {length}"
                )
            }
            PacketError::TypeMismatch { expected, found } => {
                write!(f, "expected a {expected} message, got a {found}")
            }
            PacketError::FrameLength { expected, actual } => {
                write!(f, "frame must have {expected} bytes, has {actual}")
            }
        }
    }
}

impl std::error::Error for PacketError {}
