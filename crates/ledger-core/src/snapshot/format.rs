//! The objects of a snapshot file (snapshot.md §2, §7; Hornet `pkg/snapshot/snapshot_file.go`,
//! `pkg/model/utxo/snapshot.go`). All integers little-endian.
//!
//! Full: version u8 ‖ type u8 (0) ‖ genesis index u32 ‖ target index u32 ‖ target timestamp
//! u32 ‖ target milestone id [32] ‖ ledger index u32 ‖ treasury (milestone id [32] ‖ amount
//! u64) ‖ u16 length ‖ protocol parameters milestone option ‖ output count u64 ‖ diff count
//! u32 ‖ SEP count u16 ‖ outputs ‖ milestone diffs (ledger index downwards) ‖ SEPs [32] each.
//!
//! Delta: version u8 ‖ type u8 (1) ‖ target index u32 ‖ target timestamp u32 ‖ the full
//! snapshot's target milestone id [32] ‖ SEP file offset i64 ‖ diff count u32 ‖ SEP count u16
//! ‖ milestone diffs (the full snapshot's target + 1 upwards) ‖ SEPs [32] each.

use crate::model::{Id32, MilestonePayload, Output, OutputId};
use crate::protocol::ProtocolParameters;

/// The only format version this node reads and writes.
pub const FORMAT_VERSION: u8 = 2;
/// Snapshot type byte: a full snapshot.
pub const FULL_SNAPSHOT: u8 = 0;
/// Snapshot type byte: a delta snapshot (milestone diffs on top of a full snapshot).
pub const DELTA_SNAPSHOT: u8 = 1;
/// The bytes of a full snapshot header besides the protocol parameters option (106 + its length).
pub const FULL_HEADER_FIXED_LENGTH: usize = 106;
/// Where the three counts sit, counted back from the end of a full header (u64 ‖ u32 ‖ u16).
pub const FULL_COUNTS_LENGTH: usize = 8 + 4 + 2;
/// A delta snapshot header: its diffs start right after it.
pub const DELTA_HEADER_LENGTH: usize = 56;
/// File offsets of the delta header's fields that change when a delta is extended.
pub const DELTA_TARGET_INDEX_OFFSET: usize = 2;
pub const DELTA_SEP_FILE_OFFSET_OFFSET: usize = 42;
/// Option type of the protocol parameters milestone option (wire-format §8.1).
pub const PROTOCOL_PARAMETERS_OPTION_TYPE: u8 = 1;

/// Bytes of an output record before its output: output id, block id, index and timestamp
/// booked, output length.
pub const OUTPUT_RECORD_HEADER_LENGTH: usize = 34 + 32 + 4 + 4 + 4;
/// The smallest possible output record (an output has at least its type byte).
pub const MIN_OUTPUT_RECORD_LENGTH: usize = OUTPUT_RECORD_HEADER_LENGTH + 1;
/// The smallest consumed-output record: an output record and the spending transaction id.
pub const MIN_SPENT_RECORD_LENGTH: usize = MIN_OUTPUT_RECORD_LENGTH + 32;
/// The smallest milestone diff record: its length, the milestone length and the two counts.
pub const MIN_DIFF_RECORD_LENGTH: usize = 4 + 4 + 4 + 4;

/// A whole full snapshot, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullSnapshot {
    /// Index of the network's genesis milestone; the first real milestone is this + 1.
    pub genesis_milestone_index: u32,
    /// The milestone the solid entry points (and, after rollback, the ledger) belong to.
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    /// Zero at genesis.
    pub target_milestone_id: Id32,
    /// The milestone the outputs of the file belong to (≥ the target index).
    pub ledger_milestone_index: u32,
    /// The unspent treasury output at the ledger index (amount 0: none).
    pub treasury: TreasuryOutput,
    /// The protocol parameters active at the ledger index.
    pub protocol_parameters: ProtocolParametersOption,
    /// Unspent outputs at the ledger index.
    pub outputs: Vec<SnapshotOutput>,
    /// From the ledger index downwards: those above the target roll the ledger back to it,
    /// the others only carry protocol parameter options.
    pub milestone_diffs: Vec<MilestoneDiff>,
    pub solid_entry_points: Vec<Id32>,
}

/// A treasury output: the milestone that created it and its amount.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreasuryOutput {
    pub milestone_id: Id32,
    pub amount: u64,
}

/// The header's protocol parameters milestone option, its blob decoded (strictly, so that
/// encoding it again gives the same bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolParametersOption {
    pub target_milestone_index: u32,
    pub protocol_version: u8,
    pub params: ProtocolParameters,
}

/// An output with where and when it was booked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotOutput {
    pub output_id: OutputId,
    /// The block whose transaction created it (zero for genesis outputs).
    pub block_id: Id32,
    pub milestone_index_booked: u32,
    pub milestone_timestamp_booked: u32,
    pub output: Output,
}

/// An output a milestone consumed; index and time of spending are the milestone's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpentOutput {
    pub output: SnapshotOutput,
    pub transaction_id_spent: Id32,
}

/// What one milestone changed in the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MilestoneDiff {
    pub milestone: MilestonePayload,
    /// The treasury output the milestone's receipt spent; present exactly when the
    /// milestone has a receipt option.
    pub spent_treasury: Option<TreasuryOutput>,
    pub created: Vec<SnapshotOutput>,
    pub consumed: Vec<SpentOutput>,
}

impl MilestoneDiff {
    pub fn index(&self) -> u32 {
        self.milestone.index
    }
}

/// A whole delta snapshot, decoded: the milestone diffs that bring the ledger of a full
/// snapshot (whose target milestone id it names) from that full snapshot's target to its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeltaSnapshot {
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    /// The `target_milestone_id` of the full snapshot this delta continues.
    pub full_snapshot_target_milestone_id: Id32,
    /// Ascending: the full snapshot's target + 1, …, this delta's target.
    pub milestone_diffs: Vec<MilestoneDiff>,
    pub solid_entry_points: Vec<Id32>,
}

/// A full snapshot's header: everything before its outputs (what `hornet tool snap-info`
/// prints, and what a download probe reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullHeader {
    pub genesis_milestone_index: u32,
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    pub target_milestone_id: Id32,
    pub ledger_milestone_index: u32,
    pub treasury: TreasuryOutput,
    pub protocol_parameters: ProtocolParametersOption,
    pub output_count: u64,
    pub milestone_diff_count: u32,
    pub solid_entry_point_count: u16,
}

/// A delta snapshot's header (56 bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeltaHeader {
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    pub full_snapshot_target_milestone_id: Id32,
    /// Where the solid entry points start: the diffs end there, so that a delta can be
    /// extended without reading them.
    pub sep_file_offset: i64,
    pub milestone_diff_count: u32,
    pub solid_entry_point_count: u16,
}

/// The header of either kind, and how many bytes it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotHeader {
    Full(FullHeader),
    Delta(DeltaHeader),
}

impl SnapshotHeader {
    /// The milestone index the ledger of a node that loads this file (after its full
    /// snapshot, for a delta) ends at: the target index.
    pub fn target_milestone_index(&self) -> u32 {
        match self {
            SnapshotHeader::Full(h) => h.target_milestone_index,
            SnapshotHeader::Delta(h) => h.target_milestone_index,
        }
    }
}
