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
use crate::model::{Id32, MilestoneOption, Output};

/// Decode a whole full snapshot (format version 2, type 0).
pub fn read_full_snapshot(bytes: &[u8]) -> Result<FullSnapshot> {
    let mut r = Reader::new(bytes);
    let header = match read_header(&mut r)? {
        SnapshotHeader::Full(h) => h,
        SnapshotHeader::Delta(_) => {
            return Err(Error::new(
                Code::SnapshotTypeUnsupported,
                "type",
                "type 1 (a delta snapshot) at file offset 1 where a full snapshot (type 0) was expected",
            ))
        }
    };
    let counts_at = r.position() - FULL_COUNTS_LENGTH;
    let count = usize::try_from(header.output_count).unwrap_or(usize::MAX);
    check_count(&r, count, MIN_OUTPUT_RECORD_LENGTH, "outputCount", counts_at)?;
    let mut outputs = Vec::with_capacity(count);
    for i in 0..count {
        let start = r.position();
        outputs
            .push(read_output_record(&mut r).map_err(|e| {
                located(e.within(&format!("outputs[{i}]")), "output record", start)
            })?);
    }
    let milestone_diffs = read_diffs(&mut r, header.milestone_diff_count, counts_at + 8)?;
    check_diff_order(
        &milestone_diffs,
        header.target_milestone_index,
        header.ledger_milestone_index,
    )?;
    let solid_entry_points =
        read_solid_entry_points(&mut r, header.solid_entry_point_count, counts_at + 12)?;
    r.finish("")?;
    Ok(FullSnapshot {
        genesis_milestone_index: header.genesis_milestone_index,
        target_milestone_index: header.target_milestone_index,
        target_milestone_timestamp: header.target_milestone_timestamp,
        target_milestone_id: header.target_milestone_id,
        ledger_milestone_index: header.ledger_milestone_index,
        treasury: header.treasury,
        protocol_parameters: header.protocol_parameters,
        outputs,
        milestone_diffs,
        solid_entry_points,
    })
}

/// Decode a whole delta snapshot (format version 2, type 1). Its diffs must come in
/// ascending order without gaps and end at its target; its solid entry points must start
/// where the header says. Whether it follows a given full snapshot is the loader's check.
pub fn read_delta_snapshot(bytes: &[u8]) -> Result<DeltaSnapshot> {
    let mut r = Reader::new(bytes);
    let header = match read_header(&mut r)? {
        SnapshotHeader::Delta(h) => h,
        SnapshotHeader::Full(_) => {
            return Err(Error::new(
                Code::SnapshotTypeUnsupported,
                "type",
                "type 0 (a full snapshot) at file offset 1 where a delta snapshot (type 1) was expected",
            ))
        }
    };
    let milestone_diffs = read_diffs(&mut r, header.milestone_diff_count, 50)?;
    for (i, diff) in milestone_diffs.iter().enumerate().skip(1) {
        if diff.index() != milestone_diffs[i - 1].index() + 1 {
            return Err(Error::new(
                Code::SnapshotDiffOrder,
                format!("milestoneDiffs[{i}].milestone.index"),
                format!(
                    "milestone {}, expected {}",
                    diff.index(),
                    milestone_diffs[i - 1].index() + 1
                ),
            ));
        }
    }
    if let Some(last) = milestone_diffs.last() {
        if last.index() != header.target_milestone_index {
            return Err(Error::new(
                Code::SnapshotDiffOrder,
                format!("milestoneDiffs[{}].milestone.index", milestone_diffs.len() - 1),
                format!(
                    "the last diff is of milestone {}, the delta's target is {}",
                    last.index(),
                    header.target_milestone_index
                ),
            ));
        }
    }
    if header.sep_file_offset != r.position() as i64 {
        return Err(Error::new(
            Code::SnapshotSepOffsetMismatch,
            "solidEntryPointsFileOffset",
            format!(
                "the header (file offset 42) puts the solid entry points at {}, they start at {}",
                header.sep_file_offset,
                r.position()
            ),
        ));
    }
    let solid_entry_points = read_solid_entry_points(&mut r, header.solid_entry_point_count, 54)?;
    r.finish("")?;
    Ok(DeltaSnapshot {
        target_milestone_index: header.target_milestone_index,
        target_milestone_timestamp: header.target_milestone_timestamp,
        full_snapshot_target_milestone_id: header.full_snapshot_target_milestone_id,
        milestone_diffs,
        solid_entry_points,
    })
}

/// The header of a snapshot of either type, read from the start of `bytes` (which may be
/// only the beginning of the file: a download probe), and the header's length.
pub fn read_snapshot_header(bytes: &[u8]) -> Result<(SnapshotHeader, usize)> {
    let mut r = Reader::new(bytes);
    let header = read_header(&mut r)?;
    Ok((header, r.position()))
}

fn read_header(r: &mut Reader) -> Result<SnapshotHeader> {
    let version = r.u8("version")?;
    if version != FORMAT_VERSION {
        return Err(Error::new(Code::SnapshotVersionUnsupported, "version", format!("format version {version} at file offset 0; only version {FORMAT_VERSION} can be read")));
    }
    match r.u8("type")? {
        FULL_SNAPSHOT => read_full_header(r).map(SnapshotHeader::Full),
        DELTA_SNAPSHOT => read_delta_header(r).map(SnapshotHeader::Delta),
        kind => Err(Error::new(
            Code::SnapshotTypeUnsupported,
            "type",
            format!("type {kind} at file offset 1; a snapshot is full (0) or delta (1)"),
        )),
    }
}

fn read_full_header(r: &mut Reader) -> Result<FullHeader> {
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
    let protocol_parameters = read_protocol_parameters_option(r)?;
    Ok(FullHeader {
        genesis_milestone_index,
        target_milestone_index,
        target_milestone_timestamp,
        target_milestone_id,
        ledger_milestone_index,
        treasury,
        protocol_parameters,
        output_count: r.u64("outputCount")?,
        milestone_diff_count: r.u32("milestoneDiffCount")?,
        solid_entry_point_count: r.u16("solidEntryPointCount")?,
    })
}

fn read_delta_header(r: &mut Reader) -> Result<DeltaHeader> {
    Ok(DeltaHeader {
        target_milestone_index: r.u32("targetMilestoneIndex")?,
        target_milestone_timestamp: r.u32("targetMilestoneTimestamp")?,
        full_snapshot_target_milestone_id: r.array("fullSnapshotTargetMilestoneId")?,
        sep_file_offset: r.u64("solidEntryPointsFileOffset")? as i64,
        milestone_diff_count: r.u32("milestoneDiffCount")?,
        solid_entry_point_count: r.u16("solidEntryPointCount")?,
    })
}

fn read_diffs(r: &mut Reader, count: u32, count_offset: usize) -> Result<Vec<MilestoneDiff>> {
    check_count(r, count as usize, MIN_DIFF_RECORD_LENGTH, "milestoneDiffCount", count_offset)?;
    let mut diffs = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let start = r.position();
        let diff = read_milestone_diff(r).map_err(|e| {
            located(e.within(&format!("milestoneDiffs[{i}]")), "milestone diff", start)
        })?;
        diffs.push(diff);
    }
    Ok(diffs)
}

/// Solid entry points, none twice.
fn read_solid_entry_points(r: &mut Reader, count: u16, count_offset: usize) -> Result<Vec<Id32>> {
    check_count(r, count as usize, 32, "solidEntryPointCount", count_offset)?;
    let mut solid_entry_points: Vec<Id32> = Vec::with_capacity(count as usize);
    let mut seen = std::collections::HashSet::with_capacity(count as usize);
    for i in 0..count as usize {
        let id = r.array(&format!("solidEntryPoints[{i}]"))?;
        if !seen.insert(id) {
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
    Ok(solid_entry_points)
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
