//! The bytes of a full snapshot (snapshot.md §2), as Hornet writes them: for a genesis,
//! identical to `hornet tool snap-gen` for the same inputs (§6).

use super::format::*;
use crate::codec::{encode_milestone_payload, encode_output, encode_protocol_parameters};
use crate::error::{Code, Error, Result};
use crate::model::MilestoneOption;

pub fn write_full_snapshot(s: &FullSnapshot) -> Result<Vec<u8>> {
    let too_many = |what: &str, max: u64| {
        Error::new(Code::SnapshotTooLarge, what, format!("a snapshot holds at most {max} {what}"))
    };
    let diff_count = u32::try_from(s.milestone_diffs.len())
        .map_err(|_| too_many("milestoneDiffs", u32::MAX as u64))?;
    let sep_count = u16::try_from(s.solid_entry_points.len())
        .map_err(|_| too_many("solidEntryPoints", u16::MAX as u64))?;
    let mut out = Vec::with_capacity(256 + 128 * s.outputs.len());
    out.push(FORMAT_VERSION);
    out.push(FULL_SNAPSHOT);
    out.extend_from_slice(&s.genesis_milestone_index.to_le_bytes());
    out.extend_from_slice(&s.target_milestone_index.to_le_bytes());
    out.extend_from_slice(&s.target_milestone_timestamp.to_le_bytes());
    out.extend_from_slice(&s.target_milestone_id);
    out.extend_from_slice(&s.ledger_milestone_index.to_le_bytes());
    out.extend_from_slice(&s.treasury.milestone_id);
    out.extend_from_slice(&s.treasury.amount.to_le_bytes());
    let option = protocol_parameters_option(&s.protocol_parameters);
    out.extend_from_slice(&(option.len() as u16).to_le_bytes());
    out.extend_from_slice(&option);
    out.extend_from_slice(&(s.outputs.len() as u64).to_le_bytes());
    out.extend_from_slice(&diff_count.to_le_bytes());
    out.extend_from_slice(&sep_count.to_le_bytes());
    for o in &s.outputs {
        write_output_record(&mut out, o);
    }
    for diff in &s.milestone_diffs {
        write_milestone_diff(&mut out, diff)?;
    }
    for id in &s.solid_entry_points {
        out.extend_from_slice(id);
    }
    Ok(out)
}

/// Option type ‖ target index ‖ protocol version ‖ u16-prefixed parameters blob.
fn protocol_parameters_option(o: &ProtocolParametersOption) -> Vec<u8> {
    let blob = encode_protocol_parameters(&o.params);
    let mut out = Vec::with_capacity(8 + blob.len());
    out.push(PROTOCOL_PARAMETERS_OPTION_TYPE);
    out.extend_from_slice(&o.target_milestone_index.to_le_bytes());
    out.push(o.protocol_version);
    out.extend_from_slice(&(blob.len() as u16).to_le_bytes());
    out.extend_from_slice(&blob);
    out
}

fn write_output_record(out: &mut Vec<u8>, o: &SnapshotOutput) {
    let bytes = encode_output(&o.output);
    out.extend_from_slice(&o.output_id);
    out.extend_from_slice(&o.block_id);
    out.extend_from_slice(&o.milestone_index_booked.to_le_bytes());
    out.extend_from_slice(&o.milestone_timestamp_booked.to_le_bytes());
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&bytes);
}

fn write_milestone_diff(out: &mut Vec<u8>, d: &MilestoneDiff) -> Result<()> {
    let has_receipt = d.milestone.options.iter().any(|o| matches!(o, MilestoneOption::Receipt(_)));
    if has_receipt != d.spent_treasury.is_some() {
        return Err(Error::new(
            Code::SnapshotDiffInconsistent,
            "spentTreasuryOutput",
            "a diff carries the spent treasury output exactly when its milestone has a receipt",
        ));
    }
    let start = out.len();
    out.extend_from_slice(&[0; 4]); // the record length, known at the end
    let milestone = encode_milestone_payload(&d.milestone);
    out.extend_from_slice(&(milestone.len() as u32).to_le_bytes());
    out.extend_from_slice(&milestone);
    if let Some(t) = &d.spent_treasury {
        out.extend_from_slice(&t.milestone_id);
        out.extend_from_slice(&t.amount.to_le_bytes());
    }
    out.extend_from_slice(&(d.created.len() as u32).to_le_bytes());
    for o in &d.created {
        write_output_record(out, o);
    }
    out.extend_from_slice(&(d.consumed.len() as u32).to_le_bytes());
    for s in &d.consumed {
        write_output_record(out, &s.output);
        out.extend_from_slice(&s.transaction_id_spent);
    }
    let length = (out.len() - start) as u32;
    out[start..start + 4].copy_from_slice(&length.to_le_bytes());
    Ok(())
}
