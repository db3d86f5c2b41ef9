//! Integration tests of the INX server, one test binary for all of them: a real store in a
//! temporary directory, the server on a loopback port, and a tonic client generated from the
//! same `proto/inx.proto`. One file per RPC group, and beside them:
//!
//! * `ledger_updates` — ListenToLedgerUpdates from the past into live milestones, batch by
//!   batch against the store's utxo-changes;
//! * `slow_client` — a client that stops reading while the node goes on;
//! * `pruned` — a ledger that starts from a snapshot: ranges below its pruning index.
//!
//! Bad requests are tested in each group with the status code Hornet 2.0.1 answers.

mod common;

mod api_routes;
mod blocks;
mod ledger_updates;
mod milestones;
mod node;
mod pruned;
mod slow_client;
mod tips;
mod utxo;
