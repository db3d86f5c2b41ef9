//! Strict decoding of a full snapshot file (snapshot.md §2, the structural checks of §3).
//!
//! The file is untrusted: every count is checked against the bytes that remain before a
//! vector is sized by it, every length-prefixed part must be consumed exactly, and nothing
//! may follow the last solid entry point. Outputs and milestone payloads go through the
//! node's own codec. Errors name the field as a path (`milestoneDiffs[2].created[0].output.amount`)
//! and say at which file offset the record or field starts.

use super::format::*;
use crate::codec::{decode_milestone_payload, decode_output, decode_protocol_parameters, Reader};
use crate::error::{Code, Error, Result};
use crate::model::{MilestoneOption, Output};

/// Decode a whole full snapshot (format version 2, type 0).
pub fn read_full_snapshot(bytes: &[u8]) -> Result<FullSnapshot> {
    let mut r = Reader::new(bytes);
    let version = r.u8("version")?;
    if version != FORMAT_VERSION {
        return Err(Error::new(Code::SnapshotVersionUnsupported, "version", format!("format version {version} at file offset 0; only version {FORMAT_VERSION} can be read")));
    }
    let kind = r.u8("type")?;
    if kind != FULL_SNAPSHOT {
        let name = if kind == 1 { " (a delta snapshot)" } else { "" };
        return Err(Error::new(
            Code::SnapshotTypeUnsupported,
            "type",
            format!(
                "type {kind}{name} at file offset 1; only full snapshots (type 0) can be loaded"
            ),
        ));
    }
    let genesis_milestone_index = r.u32("genesisMilestoneIndex")?;
    let target_milestone_index = r.u32("targetMilestoneIndex")?;
    let target_milestone_timestamp = r.u32("targetMilestoneTimestamp")?;
    let target_milestone_id = r.array("targetMilestoneId")?;
    let ledger_milestone_index = r.u32("ledgerMilestoneIndex")?;
    if genesis_milestone_index > target_milestone_index {
        return Err(Error::new(
            Code::SnapshotIndexOrder,
            "targetMilestoneIndex",
            format!("target index {target_milestone_index} (file offset 6) is below the genesis index {genesis_milestone_index}"),
        ));
    }
    if target_milestone_index > ledger_milestone_index {
        return Err(Error::new(
            Code::SnapshotIndexOrder,
            "ledgerMilestoneIndex",
            format!("ledger index {ledger_milestone_index} (file offset 46) is below the target index {target_milestone_index}"),
        ));
    }
    let treasury = TreasuryOutput {
        milestone_id: r.array("treasuryOutput.milestoneId")?,
        amount: r.u64("treasuryOutput.amount")?,
    };
    let protocol_parameters = read_protocol_parameters_option(&mut r)?;
    let counts_at = r.position();
    let output_count = r.u64("outputCount")?;
    let diff_count = r.u32("milestoneDiffCount")?;
    let sep_count = r.u16("solidEntryPointCount")?;

    let count = usize::try_from(output_count).unwrap_or(usize::MAX);
    check_count(&r, count, MIN_OUTPUT_RECORD_LENGTH, "outputCount", counts_at)?;
    let mut outputs = Vec::with_capacity(count);
    for i in 0..count {
        let start = r.position();
        outputs
            .push(read_output_record(&mut r).map_err(|e| {
                located(e.within(&format!("outputs[{i}]")), "output record", start)
            })?);
    }

    check_count(
        &r,
        diff_count as usize,
        MIN_DIFF_RECORD_LENGTH,
        "milestoneDiffCount",
        counts_at + 8,
    )?;
    let mut milestone_diffs = Vec::with_capacity(diff_count as usize);
    for i in 0..diff_count as usize {
        let start = r.position();
        let diff = read_milestone_diff(&mut r).map_err(|e| {
            located(e.within(&format!("milestoneDiffs[{i}]")), "milestone diff", start)
        })?;
        milestone_diffs.push(diff);
    }
    check_diff_order(&milestone_diffs, target_milestone_index, ledger_milestone_index)?;

    check_count(&r, sep_count as usize, 32, "solidEntryPointCount", counts_at + 12)?;
    let mut solid_entry_points = Vec::with_capacity(sep_count as usize);
    for i in 0..sep_count as usize {
        let id = r.array(&format!("solidEntryPoints[{i}]"))?;
        if solid_entry_points.contains(&id) {
            return Err(Error::new(
                Code::SnapshotDuplicateEntryPoint,
                format!("solidEntryPoints[{i}]"),
                format!(
                    "0x{} at file offset {} is listed twice",
                    hex::encode(id),
                    r.position() - 32
                ),
            ));
        }
        solid_entry_points.push(id);
    }
    r.finish("")?;
    Ok(FullSnapshot {
        genesis_milestone_index,
        target_milestone_index,
        target_milestone_timestamp,
        target_milestone_id,
        ledger_milestone_index,
        treasury,
        protocol_parameters,
        outputs,
        milestone_diffs,
        solid_entry_points,
    })
}

/// Field 10–11: a u16 length and, exactly that long, option type 1 ‖ target index ‖
/// protocol version ‖ u16-prefixed parameters blob (wire-format §8.1).
fn read_protocol_parameters_option(r: &mut Reader) -> Result<ProtocolParametersOption> {
    const PATH: &str = "protocolParameters";
    let length = r.u16(PATH)? as usize;
    let start = r.position();
    let bytes = r.take(length, PATH)?;
    let mut option = Reader::new(bytes);
    let inner = |e: Error| located(e.within(PATH), "protocol parameters option", start);
    let kind = option.u8("type").map_err(inner)?;
    if kind != PROTOCOL_PARAMETERS_OPTION_TYPE {
        return Err(inner(Error::new(Code::SnapshotOptionInvalid, "type", format!("option type {kind}, expected {PROTOCOL_PARAMETERS_OPTION_TYPE} (protocol parameters)"))));
    }
    let target_milestone_index = option.u32("targetMilestoneIndex").map_err(inner)?;
    let protocol_version = option.u8("protocolVersion").map_err(inner)?;
    let blob = option.u16_prefixed("params").map_err(inner)?;
    option.finish("").map_err(inner)?;
    let params = decode_protocol_parameters(&blob).map_err(|e| inner(e.within("params")))?;
    Ok(ProtocolParametersOption { target_milestone_index, protocol_version, params })
}

/// Output id ‖ block id ‖ index booked ‖ timestamp booked ‖ u32 length ‖ output.
fn read_output_record(r: &mut Reader) -> Result<SnapshotOutput> {
    let output_id = r.array("outputId")?;
    let block_id = r.array("blockId")?;
    let milestone_index_booked = r.u32("milestoneIndexBooked")?;
    let milestone_timestamp_booked = r.u32("milestoneTimestampBooked")?;
    let length = r.u32("outputLength")? as usize;
    let bytes = r.take(length, "output")?;
    let output = decode_output(bytes).map_err(|e| e.within("output"))?;
    if matches!(output, Output::Treasury { .. }) {
        return Err(Error::new(
            Code::SnapshotTreasuryAsOutput,
            "output.type",
            "the treasury output is carried in the header, not among the outputs",
        ));
    }
    Ok(SnapshotOutput {
        output_id,
        block_id,
        milestone_index_booked,
        milestone_timestamp_booked,
        output,
    })
}

/// u32 record length (counting itself) ‖ u32-prefixed milestone payload ‖ spent treasury
/// (only with a receipt) ‖ created outputs ‖ consumed outputs with their spenders.
fn read_milestone_diff(r: &mut Reader) -> Result<MilestoneDiff> {
    let start = r.position();
    let declared = r.u32("diffLength")? as usize;
    let milestone_length = r.u32("milestoneLength")? as usize;
    let milestone = decode_milestone_payload(r.take(milestone_length, "milestone")?)
        .map_err(|e| e.within("milestone"))?;
    let has_receipt = milestone.options.iter().any(|o| matches!(o, MilestoneOption::Receipt(_)));
    let spent_treasury = match has_receipt {
        true => Some(TreasuryOutput {
            milestone_id: r.array("spentTreasuryOutput.milestoneId")?,
            amount: r.u64("spentTreasuryOutput.amount")?,
        }),
        false => None,
    };
    let created_count = r.u32("createdCount")? as usize;
    r.check_len(created_count, MIN_OUTPUT_RECORD_LENGTH, "createdCount")?;
    let mut created = Vec::with_capacity(created_count);
    for j in 0..created_count {
        created.push(read_output_record(r).map_err(|e| e.within(&format!("created[{j}]")))?);
    }
    let consumed_count = r.u32("consumedCount")? as usize;
    r.check_len(consumed_count, MIN_SPENT_RECORD_LENGTH, "consumedCount")?;
    let mut consumed = Vec::with_capacity(consumed_count);
    for k in 0..consumed_count {
        let output = read_output_record(r).map_err(|e| e.within(&format!("consumed[{k}]")))?;
        let transaction_id_spent = r.array(&format!("consumed[{k}].transactionIdSpent"))?;
        consumed.push(SpentOutput { output, transaction_id_spent });
    }
    let taken = r.position() - start;
    if taken != declared {
        return Err(Error::new(
            Code::SnapshotDiffLengthMismatch,
            "diffLength",
            format!("the record declares {declared} bytes but its parts take {taken}"),
        ));
    }
    Ok(MilestoneDiff { milestone, spent_treasury, created, consumed })
}

/// Diffs come from the ledger index downwards: first exactly ledger, ledger − 1, …,
/// target + 1 (to roll the ledger back), then any number at or below the target (read
/// for their protocol parameter options only), still descending.
fn check_diff_order(diffs: &[MilestoneDiff], target: u32, ledger: u32) -> Result<()> {
    let above = (ledger - target) as usize;
    if diffs.len() < above {
        return Err(Error::new(
            Code::SnapshotDiffsMissing,
            "milestoneDiffCount",
            format!("the ledger is at index {ledger} and the target at {target}: {above} diff(s) are needed to roll it back, the file has {}", diffs.len()),
        ));
    }
    for (i, diff) in diffs.iter().enumerate() {
        let index = diff.index();
        let ok = match i < above {
            true => index == ledger - i as u32,
            false => index <= target && (i == 0 || index < diffs[i - 1].index()),
        };
        if !ok {
            let expected = if i < above {
                format!("{}", ledger - i as u32)
            } else {
                "a lower index at or below the target".to_string()
            };
            return Err(Error::new(
                Code::SnapshotDiffOrder,
                format!("milestoneDiffs[{i}].milestone.index"),
                format!("milestone {index}, expected {expected}"),
            ));
        }
    }
    Ok(())
}

/// A count of the header (which sits at `field_offset`), checked against the bytes that
/// remain before anything is sized by it.
fn check_count(
    r: &Reader,
    count: usize,
    min_element_size: usize,
    path: &str,
    field_offset: usize,
) -> Result<()> {
    r.check_len(count, min_element_size, path).map_err(|e| located(e, "count", field_offset))
}

/// The error with where its record starts in the file.
fn located(mut e: Error, what: &str, offset: usize) -> Error {
    e.detail = format!("{} ({what} at file offset {offset})", e.detail);
    e
}
