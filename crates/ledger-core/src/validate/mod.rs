//! The rules of validation.md: syntactic (§2–§7), storage deposit (§6) and semantic (§8).
//!
//! `validate_block` is what the node runs on every submitted block: everything that can be
//! judged from the block's own bytes and the protocol parameters, each failure with a
//! stable reason code and the JSON path of the offending field. Parent existence and the
//! "no milestones over the API" rule belong to the node; semantic checks to white flag
//! (`semantic::check_transaction`).

mod block;
pub mod deposit;
mod features;
mod milestone;
mod ordering;
mod output;
pub mod semantic;
mod tagged_data;
mod transaction;
pub mod u256;
mod unlock_conditions;
mod unlocks;

pub use block::{
    check_pow_zeros, validate_block, validate_block_from, validate_parents, BlockOrigin,
    MAX_PARENTS, MIN_PARENTS, MIN_PARENTS_RECEIVED,
};
pub use milestone::{validate_milestone, validate_milestone_block};
pub use output::{validate_output, MAX_METADATA_LENGTH, MAX_NATIVE_TOKENS};
pub use semantic::{check_prechecked_transaction, check_transaction, ConflictReason, Prechecked};
pub use tagged_data::MAX_TAG_LENGTH;
pub use transaction::{validate_transaction, MAX_INPUTS, MAX_OUTPUTS};
