//! Scenario tests of gossip over real stores, one test binary for all of them (each binary
//! links libp2p, Tokio and RocksDB; in a release test build that link dominates). Every
//! node is `GossipSync` over a `ledger_store::Store` in a temporary folder, on libp2p's
//! in-memory transport unless the test is about TCP.
//!
//! * `intake` — the store side without a network: held blocks, milestones out of order,
//!   the signed check behind "latest", the fork halt, the node's own blocks;
//! * `streams` — who opens, heartbeats, one stream per peer, relations, limits, removal;
//! * `blocks` — broadcast, deduplication, requests for parents and milestones, answers;
//! * `misbehaviour` — D49: garbage, bad lengths, invalid blocks, silent peers, a header
//!   without its body;
//! * `hostile` — the hostile peer's phases in short against a confirming coordinator;
//! * `pruning` — heartbeats and answers beside pruning runs, pruning only when synced;
//! * `tcp` — `GossipSync::start` on loopback TCP with Noise and Yamux;
//! * `warp_sync` — catching up a window of milestones at a time (gossip.md §7);
//! * `hornet_interop` — against a running Hornet 2.0.1 (ignored by default).

mod common;

mod blocks;
mod hornet_interop;
mod hostile;
mod intake;
mod misbehaviour;
mod pruning;
mod streams;
mod tcp;
mod warp_sync;
