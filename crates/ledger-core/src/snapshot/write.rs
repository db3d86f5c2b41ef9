//! The bytes of full and delta snapshots (snapshot.md §2, §7), as Hornet writes them: for a
//! genesis, identical to `hornet tool snap-gen` for the same inputs (§6).
//!
//! Two ways in: whole snapshots held in memory (`write_full_snapshot`, `write_delta_snapshot`)
//! and the pieces a streaming writer needs (`ledger-store`'s export writes a ledger of any size
//! to a file record by record): the headers with counts to patch later, and each record. Output
//! records come from decoded outputs or straight from stored bytes (`RawOutputRecord`), so
//! that an export does not decode and re-encode every output of the ledger.

use super::format::*;
use crate::codec::{encode_milestone_payload, encode_output, encode_protocol_parameters};
use crate::error::{Code, Error, Result};
use crate::model::{Id32, MilestoneOption, OutputId};

pub fn write_full_snapshot(s: &FullSnapshot) -> Result<Vec<u8>> {
    let header = FullHeader {
        genesis_milestone_index: s.genesis_milestone_index,
        target_milestone_index: s.target_milestone_index,
        target_milestone_timestamp: s.target_milestone_timestamp,
        target_milestone_id: s.target_milestone_id,
        ledger_milestone_index: s.ledger_milestone_index,
        treasury: s.treasury,
        protocol_parameters: s.protocol_parameters.clone(),
        output_count: s.outputs.len() as u64,
        milestone_diff_count: count_u32(s.milestone_diffs.len(), "milestoneDiffs")?,
        solid_entry_point_count: count_u16(s.solid_entry_points.len())?,
    };
    let mut out = Vec::with_capacity(256 + 128 * s.outputs.len());
    out.extend_from_slice(&encode_full_header(&header));
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

pub fn write_delta_snapshot(s: &DeltaSnapshot) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(DELTA_HEADER_LENGTH + 1024 * s.milestone_diffs.len());
    out.extend_from_slice(&[0; DELTA_HEADER_LENGTH]);
    for diff in &s.milestone_diffs {
        write_milestone_diff(&mut out, diff)?;
    }
    let header = DeltaHeader {
        target_milestone_index: s.target_milestone_index,
        target_milestone_timestamp: s.target_milestone_timestamp,
        full_snapshot_target_milestone_id: s.full_snapshot_target_milestone_id,
        sep_file_offset: out.len() as i64,
        milestone_diff_count: count_u32(s.milestone_diffs.len(), "milestoneDiffs")?,
        solid_entry_point_count: count_u16(s.solid_entry_points.len())?,
    };
    out[..DELTA_HEADER_LENGTH].copy_from_slice(&encode_delta_header(&header));
    for id in &s.solid_entry_points {
        out.extend_from_slice(id);
    }
    Ok(out)
}

fn too_many(what: &str, max: u64) -> Error {
    Error::new(Code::SnapshotTooLarge, what, format!("a snapshot holds at most {max} {what}"))
}

pub fn count_u32(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| too_many(what, u32::MAX as u64))
}

pub fn count_u16(n: usize) -> Result<u16> {
    u16::try_from(n).map_err(|_| too_many("solidEntryPoints", u16::MAX as u64))
}

/// A full snapshot's header with its counts; a streaming writer writes it with zero counts
/// first and then overwrites its last `FULL_COUNTS_LENGTH` bytes with `encode_full_counts`.
pub fn encode_full_header(h: &FullHeader) -> Vec<u8> {
    let option = protocol_parameters_option(&h.protocol_parameters);
    let mut out = Vec::with_capacity(FULL_HEADER_FIXED_LENGTH + option.len());
    out.push(FORMAT_VERSION);
    out.push(FULL_SNAPSHOT);
    out.extend_from_slice(&h.genesis_milestone_index.to_le_bytes());
    out.extend_from_slice(&h.target_milestone_index.to_le_bytes());
    out.extend_from_slice(&h.target_milestone_timestamp.to_le_bytes());
    out.extend_from_slice(&h.target_milestone_id);
    out.extend_from_slice(&h.ledger_milestone_index.to_le_bytes());
    out.extend_from_slice(&h.treasury.milestone_id);
    out.extend_from_slice(&h.treasury.amount.to_le_bytes());
    out.extend_from_slice(&(option.len() as u16).to_le_bytes());
    out.extend_from_slice(&option);
    out.extend_from_slice(&encode_full_counts(
        h.output_count,
        h.milestone_diff_count,
        h.solid_entry_point_count,
    ));
    out
}

/// Output count u64 ‖ diff count u32 ‖ SEP count u16: the last bytes of a full header.
pub fn encode_full_counts(outputs: u64, diffs: u32, seps: u16) -> [u8; FULL_COUNTS_LENGTH] {
    let mut b = [0u8; FULL_COUNTS_LENGTH];
    b[..8].copy_from_slice(&outputs.to_le_bytes());
    b[8..12].copy_from_slice(&diffs.to_le_bytes());
    b[12..].copy_from_slice(&seps.to_le_bytes());
    b
}

/// The 56-byte delta header.
pub fn encode_delta_header(h: &DeltaHeader) -> [u8; DELTA_HEADER_LENGTH] {
    let mut b = [0u8; DELTA_HEADER_LENGTH];
    b[0] = FORMAT_VERSION;
    b[1] = DELTA_SNAPSHOT;
    b[2..6].copy_from_slice(&h.target_milestone_index.to_le_bytes());
    b[6..10].copy_from_slice(&h.target_milestone_timestamp.to_le_bytes());
    b[10..42].copy_from_slice(&h.full_snapshot_target_milestone_id);
    b[42..50].copy_from_slice(&h.sep_file_offset.to_le_bytes());
    b[50..54].copy_from_slice(&h.milestone_diff_count.to_le_bytes());
    b[54..56].copy_from_slice(&h.solid_entry_point_count.to_le_bytes());
    b
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

/// An output record from stored bytes: the output is written as it is, not decoded.
#[derive(Clone, Copy, Debug)]
pub struct RawOutputRecord<'a> {
    pub output_id: &'a OutputId,
    pub block_id: &'a Id32,
    pub milestone_index_booked: u32,
    pub milestone_timestamp_booked: u32,
    pub output: &'a [u8],
}

/// Output id ‖ block id ‖ index booked ‖ timestamp booked ‖ u32 length ‖ output.
pub fn write_raw_output_record(out: &mut Vec<u8>, o: &RawOutputRecord<'_>) {
    out.extend_from_slice(o.output_id);
    out.extend_from_slice(o.block_id);
    out.extend_from_slice(&o.milestone_index_booked.to_le_bytes());
    out.extend_from_slice(&o.milestone_timestamp_booked.to_le_bytes());
    out.extend_from_slice(&(o.output.len() as u32).to_le_bytes());
    out.extend_from_slice(o.output);
}

pub fn write_output_record(out: &mut Vec<u8>, o: &SnapshotOutput) {
    let bytes = encode_output(&o.output);
    write_raw_output_record(
        out,
        &RawOutputRecord {
            output_id: &o.output_id,
            block_id: &o.block_id,
            milestone_index_booked: o.milestone_index_booked,
            milestone_timestamp_booked: o.milestone_timestamp_booked,
            output: &bytes,
        },
    );
}

/// A milestone diff from stored bytes: the milestone payload as stored (type code first),
/// whether it carries a receipt (then `spent_treasury` must be set), and the output records.
pub struct RawMilestoneDiff<'a> {
    pub milestone: &'a [u8],
    pub spent_treasury: Option<TreasuryOutput>,
    pub created: Vec<RawOutputRecord<'a>>,
    /// Each consumed output with the id of the transaction that spent it.
    pub consumed: Vec<(RawOutputRecord<'a>, Id32)>,
}

/// u32 record length (counting itself) ‖ u32-prefixed milestone payload ‖ spent treasury
/// (only with a receipt) ‖ created outputs ‖ consumed outputs with their spenders.
pub fn write_raw_milestone_diff(out: &mut Vec<u8>, d: &RawMilestoneDiff<'_>) {
    let start = out.len();
    out.extend_from_slice(&[0; 4]); // the record length, known at the end
    out.extend_from_slice(&(d.milestone.len() as u32).to_le_bytes());
    out.extend_from_slice(d.milestone);
    if let Some(t) = &d.spent_treasury {
        out.extend_from_slice(&t.milestone_id);
        out.extend_from_slice(&t.amount.to_le_bytes());
    }
    out.extend_from_slice(&(d.created.len() as u32).to_le_bytes());
    for o in &d.created {
        write_raw_output_record(out, o);
    }
    out.extend_from_slice(&(d.consumed.len() as u32).to_le_bytes());
    for (o, spender) in &d.consumed {
        write_raw_output_record(out, o);
        out.extend_from_slice(spender);
    }
    let length = (out.len() - start) as u32;
    out[start..start + 4].copy_from_slice(&length.to_le_bytes());
}

pub fn write_milestone_diff(out: &mut Vec<u8>, d: &MilestoneDiff) -> Result<()> {
    let has_receipt = d.milestone.options.iter().any(|o| matches!(o, MilestoneOption::Receipt(_)));
    if has_receipt != d.spent_treasury.is_some() {
        return Err(Error::new(
            Code::SnapshotDiffInconsistent,
            "spentTreasuryOutput",
            "a diff carries the spent treasury output exactly when its milestone has a receipt",
        ));
    }
    let milestone = encode_milestone_payload(&d.milestone);
    let outputs: Vec<Vec<u8>> = d
        .created
        .iter()
        .chain(d.consumed.iter().map(|s| &s.output))
        .map(|o| encode_output(&o.output))
        .collect();
    fn raw<'a>(o: &'a SnapshotOutput, bytes: &'a [u8]) -> RawOutputRecord<'a> {
        RawOutputRecord {
            output_id: &o.output_id,
            block_id: &o.block_id,
            milestone_index_booked: o.milestone_index_booked,
            milestone_timestamp_booked: o.milestone_timestamp_booked,
            output: bytes,
        }
    }
    let created = d.created.iter().zip(&outputs).map(|(o, b)| raw(o, b)).collect();
    let consumed = d
        .consumed
        .iter()
        .zip(&outputs[d.created.len()..])
        .map(|(s, b)| (raw(&s.output, b), s.transaction_id_spent))
        .collect();
    write_raw_milestone_diff(
        out,
        &RawMilestoneDiff {
            milestone: &milestone,
            spent_treasury: d.spent_treasury,
            created,
            consumed,
        },
    );
    Ok(())
}
