//! The Node binding: thin wrappers that move bytes and strings across napi and call into
//! ledger-core, ledger-store, ledger-sync and ledger-inx. No protocol logic lives here.

// No bare `unwrap()` in library code: an `expect` says why it cannot fail, or it is an error.
#![warn(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]
// The `#[napi]` exports are called from JavaScript only, which a test build does not load.
#![cfg_attr(test, allow(dead_code))]
mod codec;
mod crypto;
mod errors;
mod events;
mod gossip;
mod handoff;
mod health;
mod inx;
mod js_text;
mod listen;
mod pow;
mod prune;
mod receipts;
mod shared;
mod snapshot;
mod store;
mod validate;
mod white_flag;
