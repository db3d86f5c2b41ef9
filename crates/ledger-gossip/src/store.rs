//! What gossip needs from the node's store, as a trait: the crate's only boundary toward
//! storage and validation (the implementation over `ledger_store::Store` is `ledger-sync`'s
//! `SyncStore`). Gossip never parses a block beyond its length and id; validation, parents,
//! milestones and solidity are the store's.
//!
//! Threads: `sync_state` and `has_milestone` are called on the service's event loop and
//! must answer from memory; every other method runs on the runtime's blocking pool and may
//! do I/O.

use crate::packets::BlockId;
use futures::stream::BoxStream;

pub trait GossipStore: Send + Sync + 'static {
    /// Whether the block is stored or is a solid entry point: a peer sending it again need
    /// not be validated, and nobody needs to request it.
    fn contains_block(&self, id: &BlockId) -> bool;

    /// The stored bytes of a block, to answer a block request. Solid entry points are not
    /// blocks: `None`. A storage failure reads as `None` too (the request goes unanswered,
    /// as for a block the node does not have; the store reports the failure itself).
    fn block_bytes(&self, id: &BlockId) -> Option<Vec<u8>>;

    /// The bytes of the block carrying milestone `index`, to answer a milestone request.
    fn milestone_block(&self, index: u32) -> Option<Vec<u8>>;

    /// Validate and store blocks received from peers, one verdict each, in order; the same
    /// intake as the API's, batched (gossip.md §6, D40: 1..8 parents, parents need not be
    /// stored yet). A block may name a parent earlier in the same batch.
    fn submit_blocks(&self, blocks: &[ReceivedBlock]) -> Vec<Intake>;

    /// The milestone indexes a heartbeat reports.
    fn sync_state(&self) -> SyncState;

    /// Whether the node has the block of milestone `index` (applied, or kept until its
    /// cone or its predecessor arrives): warp sync does not ask for it again, the store
    /// asks for what its cone misses (gossip.md §7). Answers from memory, like `sync_state`.
    fn has_milestone(&self, index: u32) -> bool;

    /// Whether a stored block still waits for a milestone to reference it (and is not
    /// below max depth): the node's own blocks that do are sent again to a peer whose
    /// stream has just opened (gossip.md §6). Runs on the blocking pool.
    fn awaits_milestone(&self, id: &BlockId) -> bool;

    /// Changes gossip reacts to, from the moment of the call: newly solid blocks to
    /// broadcast and new milestone indexes to announce. Called once, at start. The store
    /// should not block on a full consumer (dropping broadcasts is allowed; peers request
    /// what they miss).
    fn events(&self) -> BoxStream<'static, StoreEvent>;
}

/// A block as received from a peer: its id (from its bytes) and whether the node asked for
/// it (gossip.md §6 step 3: requested blocks are exempt from the proof-of-work minimum,
/// because a milestone references them).
#[derive(Clone, Debug)]
pub struct ReceivedBlock {
    pub id: BlockId,
    pub bytes: Vec<u8>,
    pub requested: bool,
}

/// The store's verdict on one received block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intake {
    /// Stored now. `missing_parents` are parents neither stored nor solid entry points
    /// (gossip requests them when the rules say so); `milestone` is the index of the
    /// milestone the block carries if the store verified it (D42).
    Stored { missing_parents: Vec<BlockId>, milestone: Option<u32> },
    /// Already stored (sent by another peer meanwhile, or submitted over the API).
    AlreadyStored,
    /// Valid, but the store chose not to keep it now (syncing, unrequested, not a
    /// milestone: gossip.md §6 step 5). No punishment.
    Ignored,
    /// Breaks a protocol rule (syntax, version, proof of work, milestone nonce): every peer
    /// that sent these bytes is disconnected and removed (D49).
    Invalid(String),
    /// The node could not store it (storage failure, not ready). Not the peer's fault.
    Failed(String),
}

/// Milestone indexes as a heartbeat reports them (gossip.md §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncState {
    /// Confirmed milestone index (sent as "solid").
    pub confirmed: u32,
    /// Highest milestone index seen and verified.
    pub latest: u32,
    /// Pruning index: 0 for a node that never pruned; a snapshot's target index.
    pub pruned: u32,
}

impl SyncState {
    /// Hornet's "almost synced": within two milestones of the latest one. A node that is
    /// not does not broadcast, and requests parents only of blocks it asked for.
    pub fn is_synced(&self) -> bool {
        self.confirmed >= self.latest.saturating_sub(2)
    }
}

#[derive(Clone, Debug)]
pub enum StoreEvent {
    /// A block became solid (all parents solid or solid entry points) and may be broadcast
    /// (gossip.md §6 step 7; the store emits only blocks within below-max-depth).
    Solid { id: BlockId, bytes: Vec<u8> },
    /// A block this node made (its API, its coordinator), stored: for every gossip peer.
    /// While the node is not synced it is kept (up to the send-queue size) and sent once the
    /// node is synced again, so that an acknowledged block still reaches the network; and a
    /// peer whose stream opens later is offered it while it waits for a milestone.
    Local { id: BlockId, bytes: Vec<u8> },
    /// Confirmed, latest or pruning index changed: every peer gets a heartbeat (§5).
    SyncChanged(SyncState),
}
