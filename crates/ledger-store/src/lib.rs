//! ledger-store: the node's state in RocksDB — the block graph, the UTXO ledger and the
//! milestones — and the logic that changes it: block intake, tip selection, white-flag
//! confirmation, milestone issuing (embedded coordinator) and milestone checking (follower).
//!
//! Pure Rust on top of `ledger-core`; the Node binding lives in `ledger-napi`.
//!
//! Layout, one idea per file:
//! * `columns`, `records`, `db`, `schema` — what is stored where, how it is opened and
//!   written, and which layout version a data directory has;
//! * `graph`, `tips`, `tip_pool` — the unreferenced part of the block graph kept in memory,
//!   tip scores, the healthy tips that selection draws from;
//! * `ledger`, `white_flag`, `milestone` — confirmation of a milestone's past cone;
//!   `receipts` — migrated funds and the treasury;
//! * `origin`, `genesis`, `snapshot`, `initial_state` — where the ledger began (built-in
//!   genesis in a style, or a Hornet snapshot) and its first state; `entry_points` — the
//!   solid entry points; `history` — how far back the stored history reaches (snapshot,
//!   entry point and pruning index); `metadata` — the API's metadata objects;
//! * `milestone_blocks` — the blocks each milestone settled (referenced, or left below max
//!   depth), for pruning; `entry_point_rule` — Hornet's solid entry points for a target;
//! * `index` — the UTXO indexer's column families, written with each milestone, and its queries;
//! * `prune` — pruning: runs to a target in bounded, crash-safe steps, the background
//!   worker after each milestone (Hornet's rules), compaction of what was deleted;
//! * `store` — the `Store` that ties them together under one lock discipline;
//! * `events` — the feed of what each commit changed, for the event API and the INX server;
//! * `views` — stored records as values (block metadata, ledger outputs, diffs) for Rust
//!   consumers such as the INX server.

// No bare `unwrap()` in library code: an `expect` says why it cannot fail, or it is an error.
#![warn(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]
mod columns;
mod db;
mod entry_point_rule;
mod entry_points;
pub mod events;
mod genesis;
mod graph;
mod history;
mod index;
mod initial_state;
pub mod integrity;
mod ledger;
mod metadata;
mod milestone;
mod milestone_blocks;
mod origin;
mod prune;
mod receipts;
mod records;
mod schema;
mod signatures_ahead;
mod signed_milestones;
mod snapshot;
mod store;
mod tip_pool;
mod tips;
pub mod views;
mod white_flag;

pub use genesis::{protocol_from_json, protocol_json};
pub use history::HistoryIndexes;
pub use index::{
    ChainId, FilterField, FilterKind, OutputFilter, OutputKind, OutputPage, OutputQuery, OutputsOf,
    SortKey, FILTER_FIELDS,
};
pub use ledger_core::{Code, Error, Result};
pub use milestone::{KeyRange, MilestoneKeys};
pub use origin::{GenesisStyle, Origin};
pub use prune::{
    directory_size, PruneReport, PruneTarget, PruningConfig, PruningStatus, SizeRule,
    ENTRY_POINT_LOOK_BACK, MAX_STEP_DELETES,
};
pub use records::{InclusionState, MilestoneRecord};
pub use snapshot::delta::read_header_of as read_snapshot_header_of;
pub use snapshot::export::{write_genesis_snapshot, WrittenGenesis};
pub use snapshot::limits::Limits as SnapshotLimits;
pub use snapshot::offline::create_from_directory as create_snapshot_from_directory;
pub use snapshot::{temp_path as snapshot_temp_path, SnapshotKind, WrittenSnapshot};
#[cfg(feature = "synthetic-ledger")]
pub use store::SyntheticChanges;
pub use store::{
    Checkpoint, HistoryTask, HistoryWork, IssuedMilestone, MilestoneInterval, SnapshotRequest,
    StartCheck, Status, Store, StoreOptions, Submitted, UtxoChanges, MAX_CHECKPOINTS,
};
pub use tips::TipScore;

/// An error of the storage engine itself: never the client's fault. A full file system
/// is told apart (HTTP 503 and a line for the operator) from any other failure (HTTP 500).
pub(crate) fn storage_error(err: impl std::fmt::Display) -> Error {
    let text = err.to_string();
    // RocksDB reports ENOSPC as an IO error carrying strerror's text, from the write that
    // met it and, once it has stopped writing, from every later write.
    let code = if text.contains("No space left on device") {
        Code::StorageFull
    } else {
        Code::StorageFailure
    };
    Error::new(code, "", text)
}
