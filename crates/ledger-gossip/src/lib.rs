//! ledger-gossip: the node's peer-to-peer network — Hornet 2.x's gossip protocol, unchanged
//! (D45, `gossip.md`), on rust-libp2p (TCP, Noise, Yamux, identify, ping). Pure Rust, no
//! Node dependency; it runs on its own Tokio runtime.
//!
//! Peers exchange four messages on one long-lived stream per peer,
//! `/iota-gossip/<networkId>/1.0.0`: heartbeats (milestone indexes), blocks, block requests
//! and milestone requests. The node gossips every new solid block to its peers, asks them
//! for what it misses, answers what they ask, and drops peers that misbehave (D49).
//!
//! ```ignore
//! let identity = ledger_gossip::identity::load_or_create(&data_dir.join("p2p-identity.key"), configured_key)?;
//! let gossip = Gossip::start(Config::new("ledger-devnet-v2"), &identity.keypair, store)?;
//! let peers = gossip.peers().await?;
//! gossip.shutdown();
//! ```
//!
//! > The store is reached only through the [`GossipStore`] trait: gossip never validates
//! > a block itself, it deduplicates, routes and counts. Validation, parents, milestones
//! > and solidity belong to the store, which runs the same intake as the REST API; the
//! > node's implementation over `ledger_store::Store` is the `ledger-sync` crate.
//!
//! Layout, one idea per file:
//! * `packets/` — the TLV frames and the four messages, pure Rust without libp2p;
//! * `identity`, `config` — who the node is (Hornet's key formats) and what it is told;
//! * `transport`, `behaviour`, `handler`, `inbound_gate` — the libp2p host: transport
//!   stack, behaviours (connection rates, identify, ping, gossip streams), per-connection
//!   stream negotiation;
//! * `session` — one stream's reader and writer tasks, with deadlines and the send queue;
//! * `peers`, `requests`, `work_units` — peer registry, request queue, received-block dedup;
//! * `intake`, `responder` — the store's side: batched submission, answering requests;
//! * `own_blocks` — the node's own blocks, offered again to peers that come later;
//! * `warp_sync` — catching up with peers ahead, a window of milestones at a time;
//! * `service/` — the event loop applying Hornet's rules; `gossip` — the handle;
//! * `store` — the boundary trait; `events`, `metrics` — what is reported.

// No bare `unwrap()` in library code: an `expect` says why it cannot fail, or it is an error.
#![warn(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]
mod address_budgets;
pub mod behaviour;
mod budget;
pub mod config;
pub mod events;
mod gossip;
mod handler;
pub mod identity;
mod inbound_gate;
mod intake;
pub mod metrics;
mod own_blocks;
pub mod packets;
pub mod peers;
mod requests;
mod responder;
mod service;
mod session;
pub mod store;
mod transport;
pub mod warp_sync;
mod work_units;

pub use behaviour::Behaviour;
pub use config::{Config, PeerEntry, Timers};
pub use events::{DropReason, GossipEvent};
pub use gossip::{Gossip, StartError, Stopped};
pub use packets::BlockId;
pub use peers::{GossipInfo, PeerInfo, Relation};
pub use service::AddPeerError;
pub use session::CloseReason;
pub use store::{GossipStore, Intake, ReceivedBlock, StoreEvent, SyncState};
pub use transport::build_swarm;
pub use warp_sync::WarpSyncStatus;

/// libp2p types that appear in this crate's API.
pub use libp2p::{identity::Keypair, Multiaddr, PeerId};
