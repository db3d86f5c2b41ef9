//! Store values as INX messages, and ids out of requests. Hornet's rules: an id of the wrong
//! length is the all-zero id (inx's Go `Unwrap`), so a malformed id is simply unknown; metadata of a referenced block carries its white-flag facts, of an
//! unreferenced one the promote/reattach advice of its tip score.

use crate::proto;
use ledger_core::codec::encode_protocol_parameters;
use ledger_core::model::{Id32, OutputId};
use ledger_core::protocol::ProtocolParameters;
use ledger_store::views::{BlockMetadata, LedgerOutput, LedgerSpent};
use ledger_store::{InclusionState, MilestoneRecord, TipScore};

/// Stardust's protocol version, the only one this node supports.
pub const PROTOCOL_VERSION: u32 = 2;

/// The bytes of an id field as a fixed-size id (see the file comment).
pub fn id<const N: usize>(bytes: &[u8]) -> [u8; N] {
    bytes.try_into().unwrap_or([0u8; N])
}

pub fn block_id(id: &Id32) -> proto::BlockId {
    proto::BlockId { id: id.to_vec() }
}

pub fn milestone_id(id: &Id32) -> proto::MilestoneId {
    proto::MilestoneId { id: id.to_vec() }
}

pub fn output_id(id: &OutputId) -> proto::OutputId {
    proto::OutputId { id: id.to_vec() }
}

/// How a tip score becomes advice. Block metadata reads judge by the tip score thresholds
/// (OCRI or YCRI reached: promote); tip updates by the tip pools (lazy: reattach,
/// semi-lazy: promote), as Hornet's `NewINXBlockMetadata` does with and without a tip.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Advice {
    Thresholds,
    TipPools,
}

pub fn metadata(m: &BlockMetadata, advice: Advice) -> proto::BlockMetadata {
    use proto::block_metadata::LedgerInclusionState as State;
    let mut out = proto::BlockMetadata {
        block_id: Some(block_id(&m.block_id)),
        parents: m.parents.iter().map(block_id).collect(),
        solid: true,
        ..Default::default()
    };
    if m.referenced_by > 0 {
        out.referenced_by_milestone_index = m.referenced_by;
        out.white_flag_index = m.white_flag_index;
        out.milestone_index = m.milestone_index;
        let state = match (m.conflict, m.inclusion) {
            (0, Some(InclusionState::Included)) => State::Included,
            (0, _) => State::NoTransaction,
            (reason, _) => {
                out.conflict_reason = reason as i32;
                State::Conflicting
            }
        };
        out.ledger_inclusion_state = state as i32;
        return out;
    }
    let (promote, reattach) = match (m.score, advice) {
        (Some(score), Advice::TipPools) => score.pool_advice(),
        (Some(TipScore::SemiLazy | TipScore::Lazy), Advice::Thresholds) => (true, false),
        (Some(TipScore::BelowMaxDepth), Advice::Thresholds) => (false, true),
        (Some(TipScore::Healthy), Advice::Thresholds) | (None, _) => (false, false),
    };
    out.should_promote = promote;
    out.should_reattach = reattach;
    out
}

/// A stored milestone: its id, index, timestamp and payload bytes.
pub fn milestone(r: &MilestoneRecord) -> proto::Milestone {
    proto::Milestone {
        milestone_info: Some(proto::MilestoneInfo {
            milestone_id: Some(milestone_id(&r.milestone_id)),
            milestone_index: r.index,
            milestone_timestamp: r.timestamp,
        }),
        milestone: Some(proto::RawMilestone { data: r.payload.clone() }),
    }
}

/// A milestone the node has no record of (at or below the pruning index): its index only.
pub fn milestone_index_only(index: u32) -> proto::Milestone {
    proto::Milestone {
        milestone_info: Some(proto::MilestoneInfo {
            milestone_id: None,
            milestone_index: index,
            milestone_timestamp: 0,
        }),
        milestone: None,
    }
}

pub fn protocol_parameters(p: &ProtocolParameters) -> proto::RawProtocolParameters {
    proto::RawProtocolParameters {
        protocol_version: PROTOCOL_VERSION,
        params: encode_protocol_parameters(p),
    }
}

pub fn ledger_output(o: &LedgerOutput) -> proto::LedgerOutput {
    proto::LedgerOutput {
        output_id: Some(output_id(&o.output_id)),
        block_id: Some(block_id(&o.booked.block_id)),
        milestone_index_booked: o.booked.milestone_index,
        milestone_timestamp_booked: o.booked.milestone_timestamp,
        output: Some(proto::RawOutput { data: o.output.clone() }),
    }
}

pub fn ledger_spent(s: &LedgerSpent) -> proto::LedgerSpent {
    proto::LedgerSpent {
        output: Some(ledger_output(&s.output)),
        transaction_id_spent: Some(proto::TransactionId { id: s.transaction_id_spent.to_vec() }),
        milestone_index_spent: s.milestone_index_spent,
        milestone_timestamp_spent: s.milestone_timestamp_spent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(score: TipScore) -> BlockMetadata {
        BlockMetadata {
            block_id: [1; 32],
            parents: vec![[2; 32]],
            referenced_by: 0,
            white_flag_index: 0,
            inclusion: None,
            conflict: 0,
            milestone_index: 0,
            score: Some(score),
        }
    }

    #[test]
    fn ids_of_the_wrong_length_are_the_zero_id_as_go_reads_them() {
        assert_eq!(id::<4>(&[1, 2, 3, 4]), [1, 2, 3, 4]);
        assert_eq!(id::<4>(&[1, 2]), [0; 4]);
        assert_eq!(id::<2>(&[1, 2, 3]), [0; 2]);
        assert_eq!(id::<2>(&[]), [0; 2]);
    }

    #[test]
    fn advice_by_thresholds_and_by_tip_pools() {
        let m = |s, a| {
            let p = metadata(&pending(s), a);
            (p.should_promote, p.should_reattach)
        };
        assert_eq!(m(TipScore::Healthy, Advice::Thresholds), (false, false));
        assert_eq!(m(TipScore::SemiLazy, Advice::Thresholds), (true, false));
        assert_eq!(m(TipScore::Lazy, Advice::Thresholds), (true, false));
        assert_eq!(m(TipScore::Lazy, Advice::TipPools), (false, true));
        assert_eq!(m(TipScore::BelowMaxDepth, Advice::Thresholds), (false, true));
    }

    #[test]
    fn referenced_metadata_carries_white_flag_facts() {
        let conflicting = BlockMetadata {
            referenced_by: 7,
            white_flag_index: 3,
            inclusion: Some(InclusionState::Conflicting),
            conflict: 2,
            milestone_index: 0,
            score: None,
            ..pending(TipScore::Healthy)
        };
        let p = metadata(&conflicting, Advice::Thresholds);
        assert_eq!(p.referenced_by_milestone_index, 7);
        assert_eq!(p.white_flag_index, 3);
        assert_eq!(
            p.ledger_inclusion_state,
            proto::block_metadata::LedgerInclusionState::Conflicting as i32
        );
        assert_eq!(
            p.conflict_reason,
            proto::block_metadata::ConflictReason::InputAlreadySpentInThisMilestone as i32
        );
        let included =
            BlockMetadata { inclusion: Some(InclusionState::Included), conflict: 0, ..conflicting };
        assert_eq!(
            metadata(&included, Advice::Thresholds).ledger_inclusion_state,
            proto::block_metadata::LedgerInclusionState::Included as i32
        );
    }
}
