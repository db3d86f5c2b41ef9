//! Integration tests of the gossip service, one test binary for all of them (each binary
//! links libp2p and Tokio; in a release test build that link dominates).
//!
//! * `streams` — who opens, heartbeats, one stream per peer, relations, limits, removal;
//! * `blocks` — broadcast, deduplication, requests for parents and milestones, answers;
//! * `misbehaviour` — D49: garbage, bad lengths, invalid blocks, silent peers;
//! * `tcp` — the real transport on loopback with Noise and Yamux;
//! * `warp_sync` — catching up a window of milestones at a time (gossip.md §7);
//! * `hornet_interop` — against a running Hornet 2.0.1 (ignored by default).

mod common;

mod blocks;
mod hornet_interop;
mod misbehaviour;
mod streams;
mod tcp;
mod warp_sync;
