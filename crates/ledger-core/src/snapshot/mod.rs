//! Hornet snapshots, format version 2 (snapshot.md, D44): the files a Stardust node starts
//! from instead of replaying history — a full snapshot (ledger state, solid entry points and
//! protocol parameters at a milestone) and optionally a delta snapshot (the milestone diffs
//! from the full snapshot's target to a later one).
//!
//! * `format` — the objects of the file and its constants;
//! * `read` — strict decoding of an untrusted file: every length and count is checked
//!   against what remains before anything is sized by it, nothing may follow the last
//!   entry point, and every error names the field and its file offset; a header alone can
//!   be read from the start of a file (download probes, `snapshot info`);
//! * `rollback` — the ledger at the target milestone: outputs checked under the file's
//!   protocol parameters, milestone diffs above the target undone, supply checked; a delta's
//!   diffs applied on top;
//! * `write` — the canonical bytes (what `hornet tool snap-gen` writes for a genesis), whole
//!   or as the headers and records a streaming writer puts together.
//!
//! Pure Rust on the codec; reading the store and writing files is `ledger-store`'s business.

mod format;
mod read;
mod rollback;
mod write;

pub use format::*;
pub use read::{read_delta_snapshot, read_full_snapshot, read_snapshot_header};
pub use rollback::{roll_back_to_target, roll_forward, LedgerAtTarget};
pub use write::{
    count_u16, count_u32, encode_delta_header, encode_full_counts, encode_full_header,
    write_delta_snapshot, write_full_snapshot, write_milestone_diff, write_output_record,
    write_raw_milestone_diff, write_raw_output_record, RawMilestoneDiff, RawOutputRecord,
};
