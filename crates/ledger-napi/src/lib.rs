//! The Node binding: thin wrappers that move bytes and strings across napi and call into
//! ledger-core. No protocol logic lives here.

mod codec;
mod crypto;
mod errors;
mod events;
mod gossip;
mod gossip_store;
mod handoff;
mod js_text;
mod listen;
mod pow;
mod shared;
mod snapshot;
mod store;
mod validate;
