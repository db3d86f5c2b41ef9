//! ledger-sync: the gossip intake — what turns blocks from peers into calls of the node's
//! store, and the handle that runs gossip for a store. It sits between `ledger-gossip`
//! (the network, which deduplicates, routes and counts but never validates a block) and
//! `ledger-store` (validation, storage, white flag), as the node's implementation of
//! gossip's store boundary. Pure Rust, no Node dependency; the binding (`ledger-napi`)
//! only converts its options and answers.
//!
//! ```ignore
//! let local = Arc::new(LocalBlocks::new());        // one per open store
//! let identity = ledger_gossip::identity::load_or_create(&key_file, None)?.keypair;
//! let sync = GossipSync::start(store.clone(), local.clone(), SyncOptions::new("ledger-devnet-v2", identity))?;
//! local.submit_blocks(&store, blocks);              // the API's blocks: stored, then broadcast
//! let status = sync.status();                      // confirmed/latest, held, warp sync, halted
//! let peers = sync.gossip().peers().await?;
//! sync.stop();
//! ```
//!
//! > Peers send blocks before their parents (D46) and milestones out of order; the store
//! > takes neither (D13: parents known; milestones in sequence). This crate holds them,
//! > bounded in count and age, until the store can take them, so the store never holds a
//! > block that is not solid, and HTTP and gossip remain two doors into one intake.
//!
//! Layout, one idea per file:
//! * `facts` — what a block's bytes say before validation: parents, milestone index;
//! * `held` — blocks kept until their parents arrive (D46), pure bookkeeping;
//! * `sync_store` — `SyncStore`: its state (held blocks, held milestones, the highest
//!   milestone seen, the fork halt), its events, the checks before holding a block;
//! * `intake` — `GossipStore for SyncStore`: a batch of received blocks, sorted into held
//!   and ready;
//! * `rounds` — ready blocks through the store, round after round of what they release;
//! * `queue` — milestones waiting for their predecessor or for the applier;
//! * `applier` — the thread that applies queued milestones beside the intake;
//! * `milestones` — milestones ahead of the next one, the signed check behind "latest",
//!   the fork halt, the verdict on a refused block;
//! * `local` — `LocalBlocks`: the node's own blocks (API, coordinator) handed to gossip;
//! * `maintenance` — the thread that asks again for the parents of held blocks;
//! * `options` — `SyncOptions`, what the node is told at start, as gossip's `Config`;
//! * `handle` — `GossipSync`: start, status, stop.

// No bare `unwrap()` in library code: an `expect` says why it cannot fail, or it is an error.
#![warn(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]
mod applier;
mod facts;
mod handle;
mod held;
mod intake;
mod local;
mod maintenance;
mod milestones;
mod options;
mod queue;
mod rounds;
mod sync_store;

pub use applier::Applier;
pub use handle::{GossipSync, StartError, SyncStatus};
pub use held::{HeldBlocks, Released};
pub use local::LocalBlocks;
pub use options::SyncOptions;
pub use sync_store::{Limits, SyncStore};
