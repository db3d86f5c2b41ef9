//! ledger-core: everything about Stardust objects that needs no storage and no Node.
//!
//! `model` holds the objects, `codec` their bytes, `json` their API JSON, `ids` the hashes
//! that name them, `validate` the rules, `pow` the proof of work, `crypto` Ed25519 and
//! `snapshot` the Hornet full snapshot file.

// No bare `unwrap()` in library code: an `expect` says why it cannot fail, or it is an error.
#![warn(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]
pub mod bech32;
pub mod codec;
pub mod crypto;
pub mod error;
pub mod hash;
pub mod ids;
pub mod json;
pub mod merkle;
pub mod model;
mod path;
pub mod pow;
pub mod priority;
pub mod protocol;
pub mod snapshot;
pub mod validate;

pub use error::{Code, Error, Result};

/// The spec's worked examples for the unit tests, read from `vectors/` as the integration
/// tests read them.
#[cfg(test)]
#[path = "../tests/common/worked_examples.rs"]
mod worked_examples;
