//! The metadata objects of the API (ledger.md §9–§10, api.md §2.7–§2.9) as JSON text, in
//! Hornet's field order.

use crate::records::{BlockMeta, InclusionState, OutputRecord, SpentRecord};
use crate::tips::TipScore;
use crate::views::BlockMetadata;
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
    out.push_str(",\"parents\":");
    push_id_array(&mut out, parents);
    out.push_str(",\"isSolid\":true");
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

/// The payload inx-mqtt 1.0.0 publishes on `tip-score-updates` (events.md §3): its
/// `blockMetadataPayload` of the INX metadata Hornet sends for a tip update, fields in that
/// struct's order. The parents are `parentBlockIds` only; a referenced block has its
/// white-flag facts (no milestone index of its own unless it carries one), an unreferenced
/// one the tip pools' advice (`TipScore::pool_advice`).
pub fn tip_update_json(m: &BlockMetadata) -> String {
    let mut out = String::with_capacity(160 + 70 * m.parents.len());
    out.push_str("{\"blockId\":");
    hex_id(&mut out, &m.block_id);
    out.push_str(",\"parentBlockIds\":");
    push_id_array(&mut out, &m.parents);
    out.push_str(",\"isSolid\":true");
    if m.referenced_by > 0 {
        let _ = write!(out, ",\"referencedByMilestoneIndex\":{}", m.referenced_by);
        if m.milestone_index > 0 {
            let _ = write!(out, ",\"milestoneIndex\":{}", m.milestone_index);
        }
        let state = match (m.conflict, m.inclusion) {
            (0, Some(InclusionState::Included)) => "included",
            (0, _) => "noTransaction",
            _ => "conflicting",
        };
        let _ = write!(out, ",\"ledgerInclusionState\":\"{state}\"");
        if m.conflict != 0 {
            let _ = write!(out, ",\"conflictReason\":{}", m.conflict);
        }
        let _ = write!(out, ",\"whiteFlagIndex\":{}", m.white_flag_index);
    } else {
        let (promote, reattach) = m.score.map_or((false, false), TipScore::pool_advice);
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

/// `["0x…","0x…"]`: ids as a JSON array of hex strings.
fn push_id_array(out: &mut String, ids: &[Id32]) {
    out.push('[');
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        hex_id(out, id);
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn tip_updates_as_inx_mqtt_writes_them() {
        let mut m = BlockMetadata {
            block_id: [4; 32],
            parents: vec![[1; 32], [2; 32]],
            referenced_by: 0,
            white_flag_index: 0,
            inclusion: None,
            conflict: 0,
            milestone_index: 0,
            score: Some(TipScore::Healthy),
        };
        let (b, p1, p2) = ("04".repeat(32), "01".repeat(32), "02".repeat(32));
        let head = format!(
            "{{\"blockId\":\"0x{b}\",\"parentBlockIds\":[\"0x{p1}\",\"0x{p2}\"],\"isSolid\":true"
        );
        assert_eq!(
            tip_update_json(&m),
            format!("{head},\"shouldPromote\":false,\"shouldReattach\":false}}")
        );
        // The tip pools' advice: lazy is reattached (a metadata read would say promote).
        for (score, promote, reattach) in [
            (TipScore::SemiLazy, true, false),
            (TipScore::Lazy, false, true),
            (TipScore::BelowMaxDepth, false, true),
        ] {
            m.score = Some(score);
            assert_eq!(
                tip_update_json(&m),
                format!("{head},\"shouldPromote\":{promote},\"shouldReattach\":{reattach}}}")
            );
        }
        m.score = None;
        m.referenced_by = 7;
        m.white_flag_index = 3;
        m.conflict = 2;
        m.inclusion = Some(InclusionState::Conflicting);
        assert_eq!(
            tip_update_json(&m),
            format!(
                "{head},\"referencedByMilestoneIndex\":7,\"ledgerInclusionState\":\"conflicting\",\"conflictReason\":2,\"whiteFlagIndex\":3}}"
            )
        );
        m.conflict = 0;
        m.inclusion = Some(InclusionState::NoTransaction);
        m.white_flag_index = 0;
        m.milestone_index = 7;
        assert_eq!(
            tip_update_json(&m),
            format!(
                "{head},\"referencedByMilestoneIndex\":7,\"milestoneIndex\":7,\"ledgerInclusionState\":\"noTransaction\",\"whiteFlagIndex\":0}}"
            )
        );
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
