//! Hornet full snapshots, format version 2 (snapshot.md, D44): the file a Stardust node
//! starts from instead of replaying history — ledger state, solid entry points and
//! protocol parameters at a milestone.
//!
//! * `format` — the objects of the file and its constants;
//! * `read` — strict decoding of an untrusted file: every length and count is checked
//!   against what remains before anything is sized by it, nothing may follow the last
//!   entry point, and every error names the field and its file offset;
//! * `rollback` — the ledger at the target milestone: outputs checked under the file's
//!   protocol parameters, milestone diffs above the target undone, supply checked;
//! * `write` — the canonical bytes (what `hornet tool snap-gen` writes for a genesis).
//!
//! Pure Rust on the codec; storing a snapshot is `ledger-store`'s business. Delta
//! snapshots (type 1) are not handled (snapshot.md §7).

mod format;
mod read;
mod rollback;
mod write;

pub use format::*;
pub use read::read_full_snapshot;
pub use rollback::{roll_back_to_target, LedgerAtTarget};
pub use write::write_full_snapshot;
