//! Structured views of what the store keeps, for Rust consumers that need the facts rather
//! than the API's JSON objects (the INX server, `crates/ledger-inx`): a block's metadata, an
//! output with where and when it was booked, a spent output with how it was spent, one
//! milestone's ledger changes. They carry the same facts as `metadata.rs` writes as JSON.

use crate::records::{BlockMeta, InclusionState, OutputRecord, SpentRecord};
use crate::tips::TipScore;
use ledger_core::model::{Id32, OutputId};

/// A stored block's metadata (api.md §2.7) as values. Every stored block is solid: intake
/// needs its parents first (D13).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockMetadata {
    pub block_id: Id32,
    pub parents: Vec<Id32>,
    /// The milestone whose white flag referenced it; 0 while unreferenced.
    pub referenced_by: u32,
    /// Its position in that milestone's white-flag order.
    pub white_flag_index: u32,
    /// How white flag judged it; None while unreferenced.
    pub inclusion: Option<InclusionState>,
    /// Conflict reason code (TIP-25 numbering), 0 unless conflicting.
    pub conflict: u8,
    /// The index of the milestone the block carries; 0 for other blocks.
    pub milestone_index: u32,
    /// The tip score at the confirmed milestone of an unreferenced block
    /// (`BelowMaxDepth` for one that left the pending graph); None once referenced.
    pub score: Option<TipScore>,
}

impl BlockMetadata {
    pub(crate) fn of(
        block_id: &Id32,
        parents: &[Id32],
        meta: &BlockMeta,
        score: Option<TipScore>,
    ) -> BlockMetadata {
        let referenced = meta.referenced_by > 0;
        BlockMetadata {
            block_id: *block_id,
            parents: parents.to_vec(),
            referenced_by: meta.referenced_by,
            white_flag_index: if referenced { meta.white_flag_index } else { 0 },
            inclusion: if referenced { meta.inclusion } else { None },
            conflict: if referenced { meta.conflict } else { 0 },
            milestone_index: meta.milestone_index,
            score: if referenced { None } else { score },
        }
    }
}

/// Where and when an output was booked: the block whose transaction created it (all zero
/// for a genesis or snapshot output) and the milestone that applied it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Booking {
    pub block_id: Id32,
    pub milestone_index: u32,
    pub milestone_timestamp: u32,
}

/// An output of the ledger (spent or not) with its booking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerOutput {
    pub output_id: OutputId,
    pub booked: Booking,
    /// The serialized output, type byte first.
    pub output: Vec<u8>,
}

impl LedgerOutput {
    pub(crate) fn of(output_id: &OutputId, record: OutputRecord) -> LedgerOutput {
        LedgerOutput {
            output_id: *output_id,
            booked: Booking {
                block_id: record.block_id,
                milestone_index: record.milestone_index,
                milestone_timestamp: record.milestone_timestamp,
            },
            output: record.output,
        }
    }
}

/// A spent output and how it was spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerSpent {
    pub output: LedgerOutput,
    pub transaction_id_spent: Id32,
    pub milestone_index_spent: u32,
    pub milestone_timestamp_spent: u32,
}

impl LedgerSpent {
    pub(crate) fn of(output: LedgerOutput, spent: &SpentRecord) -> LedgerSpent {
        LedgerSpent {
            output,
            transaction_id_spent: spent.transaction_id,
            milestone_index_spent: spent.milestone_index,
            milestone_timestamp_spent: spent.milestone_timestamp,
        }
    }
}

/// An output as the ledger knows it now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputState {
    Unspent(LedgerOutput),
    Spent(LedgerSpent),
}

/// The ledger changes of one applied milestone, in the order white flag made them (the
/// order of `GET …/milestones/by-index/{index}/utxo-changes`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerDiff {
    pub index: u32,
    pub consumed: Vec<LedgerSpent>,
    pub created: Vec<LedgerOutput>,
}
