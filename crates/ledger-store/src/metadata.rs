//! The metadata objects of the API (ledger.md §9–§10, api.md §2.7–§2.9) as JSON text, in
//! Hornet's field order.

use crate::records::{BlockMeta, OutputRecord, SpentRecord};
use crate::tips::TipScore;
use ledger_core::model::{Id32, OutputId};
use std::fmt::Write;

fn hex_id(out: &mut String, id: &[u8]) {
    out.push_str("\"0x");
    out.push_str(&hex::encode(id));
    out.push('"');
}

/// Block metadata; `score` is the tip score of an unreferenced block (None once referenced).
pub fn block_json(
    block_id: &Id32,
    parents: &[Id32],
    meta: &BlockMeta,
    score: Option<TipScore>,
) -> String {
    let mut out = String::with_capacity(160 + 70 * parents.len());
    out.push_str("{\"blockId\":");
    hex_id(&mut out, block_id);
    out.push_str(",\"parents\":[");
    for (i, p) in parents.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        hex_id(&mut out, p);
    }
    out.push_str("],\"isSolid\":true");
    if meta.referenced_by > 0 {
        let _ = write!(out, ",\"referencedByMilestoneIndex\":{}", meta.referenced_by);
    }
    if meta.milestone_index > 0 {
        let _ = write!(out, ",\"milestoneIndex\":{}", meta.milestone_index);
    }
    if meta.referenced_by > 0 {
        if let Some(state) = meta.inclusion {
            let _ = write!(out, ",\"ledgerInclusionState\":\"{}\"", state.as_str());
        }
        if meta.conflict != 0 {
            let _ = write!(out, ",\"conflictReason\":{}", meta.conflict);
        }
        let _ = write!(out, ",\"whiteFlagIndex\":{}", meta.white_flag_index);
    } else if let Some(score) = score {
        let promote = matches!(score, TipScore::Lazy | TipScore::SemiLazy);
        let reattach = score == TipScore::BelowMaxDepth;
        let _ = write!(out, ",\"shouldPromote\":{promote},\"shouldReattach\":{reattach}");
    }
    out.push('}');
    out
}

pub fn output_json(
    output_id: &OutputId,
    record: &OutputRecord,
    spent: Option<&SpentRecord>,
    ledger_index: u32,
) -> String {
    let mut out = String::with_capacity(400);
    out.push_str("{\"blockId\":");
    hex_id(&mut out, &record.block_id);
    out.push_str(",\"transactionId\":");
    hex_id(&mut out, &output_id[..32]);
    let index = u16::from_le_bytes([output_id[32], output_id[33]]);
    let _ = write!(out, ",\"outputIndex\":{index},\"isSpent\":{}", spent.is_some());
    if let Some(s) = spent {
        let _ = write!(
            out,
            ",\"milestoneIndexSpent\":{},\"milestoneTimestampSpent\":{},\"transactionIdSpent\":",
            s.milestone_index, s.milestone_timestamp
        );
        hex_id(&mut out, &s.transaction_id);
    }
    let _ = write!(
        out,
        ",\"milestoneIndexBooked\":{},\"milestoneTimestampBooked\":{},\"ledgerIndex\":{ledger_index}}}",
        record.milestone_index, record.milestone_timestamp
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::InclusionState;

    #[test]
    fn referenced_and_unreferenced_blocks() {
        let meta = BlockMeta {
            referenced_by: 2,
            white_flag_index: 2,
            inclusion: Some(InclusionState::Included),
            ..Default::default()
        };
        let json = block_json(&[4; 32], &[[1; 32], [2; 32]], &meta, None);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["referencedByMilestoneIndex"], 2);
        assert_eq!(v["ledgerInclusionState"], "included");
        assert_eq!(v["whiteFlagIndex"], 2);
        assert!(v.get("shouldPromote").is_none());
        let pending = block_json(
            &[4; 32],
            &[[1; 32], [2; 32]],
            &BlockMeta::default(),
            Some(TipScore::BelowMaxDepth),
        );
        let v: serde_json::Value = serde_json::from_str(&pending).unwrap();
        assert_eq!(v["shouldPromote"], false);
        assert_eq!(v["shouldReattach"], true);
        assert!(v.get("ledgerInclusionState").is_none());
    }

    #[test]
    fn spent_output_metadata_has_the_fields_of_the_spec() {
        let record = OutputRecord {
            block_id: [0; 32],
            milestone_index: 0,
            milestone_timestamp: 0,
            output: vec![3; 10],
        };
        let spent = SpentRecord {
            transaction_id: [0x77; 32],
            milestone_index: 2,
            milestone_timestamp: 1_700_000_010,
        };
        let json = output_json(&[0; 34], &record, Some(&spent), 2);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys.len(), 10);
        assert_eq!(v["isSpent"], true);
        assert_eq!(v["milestoneIndexSpent"], 2);
        assert_eq!(v["ledgerIndex"], 2);
    }
}
