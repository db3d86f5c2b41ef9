//! What the service tells the outside world: the binding logs these, tests wait for them.
//! They are notifications, not a control path: a slow subscriber misses events (the
//! channel keeps the latest ones) and never slows gossip down.

use crate::packets::BlockId;
use crate::peers::Relation;
use crate::session::CloseReason;
use libp2p::{Multiaddr, PeerId};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GossipEvent {
    /// A listen address is up.
    Listening { address: Multiaddr },
    /// A listen address failed (the others keep working).
    ListenFailed { address: Multiaddr, error: String },
    /// Dialling a known peer failed; it is tried again after the reconnect interval.
    DialFailed { peer: PeerId, error: String },
    /// A gossip stream with the peer is up; the node's heartbeat and its request for the
    /// peer's latest milestone are on their way.
    StreamOpened { peer: PeerId, relation: Relation, outbound: bool },
    /// A stream was not taken (a second one with a peer that has one, an unknown peer over
    /// the limit, or a stream that could not be opened).
    StreamRefused { peer: PeerId, reason: String },
    /// The gossip stream with the peer ended; its connection is closed.
    StreamClosed { peer: PeerId, reason: CloseReason },
    /// The peer was disconnected for misbehaving or being unhealthy (D49). `removed`: it
    /// was taken off the peer list too (it is not redialled).
    PeerDropped { peer: PeerId, reason: DropReason, removed: bool },
    /// The store could not take a received block (not the peer's fault).
    IntakeFailed { block: BlockId, error: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// It sent a block that breaks a protocol rule.
    InvalidBlock { block: BlockId, error: String },
    /// No heartbeat within the grace period after the stream started.
    NoHeartbeat,
    /// Its last heartbeat is older than the expiry.
    HeartbeatExpired,
    /// An unknown peer whose solid milestone is below our pruning index: we cannot help it.
    BelowPruningIndex,
    /// An unknown peer's connection trimmed above the high watermark.
    Trimmed,
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DropReason::InvalidBlock { block, error } => {
                write!(f, "sent invalid block {block}: {error}")
            }
            DropReason::NoHeartbeat => f.write_str("no heartbeat received in the grace period"),
            DropReason::HeartbeatExpired => f.write_str("heartbeat outdated"),
            DropReason::BelowPruningIndex => {
                f.write_str("its solid milestone is below our pruning index")
            }
            DropReason::Trimmed => f.write_str("connection trimmed above the high watermark"),
        }
    }
}
