//! A full snapshot of a confirmed state at any target within reach (snapshot.md §8), written
//! as Hornet 2.0.1 writes one (`createFullSnapshotWithoutLocking`, `snapshot_write.go`): the
//! unspent outputs at the ledger index L, the milestone diffs from L down to the target N
//! and below it (up to 30 more, `AdditionalMilestoneDiffRange`, as far as they are stored),
//! and the solid entry points of N. The reader rolls the ledger back to N.
//!
//! Everything is read from one RocksDB snapshot (`source.rs`) taken when the write starts:
//! the ledger index and the unspent set agree, and milestones keep committing meanwhile.
//! Hornet holds its ledger read lock for the whole write instead, which stops confirmation.

use super::file::SnapshotFile;
use super::source::Source;
use super::EntryPoints;
use super::{ExportContext, SnapshotKind, WrittenSnapshot};
use crate::db::Db;
use ledger_core::model::PROTOCOL_VERSION;
use ledger_core::snapshot::{
    count_u16, encode_full_counts, encode_full_header, write_raw_output_record, FullHeader,
    ProtocolParametersOption, RawOutputRecord, FULL_COUNTS_LENGTH,
};
use ledger_core::{Code, Error, Result};
use std::path::Path;
use std::time::Instant;

/// Hornet's `AdditionalMilestoneDiffRange`: diffs below the target that only carry protocol
/// parameter changes the reader must know about.
pub const ADDITIONAL_DIFFS: u32 = 30;

/// Write the full snapshot of target `target` to `path`.
pub fn write_full(
    db: &Db,
    context: &ExportContext,
    target: u32,
    path: &Path,
    entry_points: EntryPoints<'_>,
) -> Result<WrittenSnapshot> {
    let started = Instant::now();
    let source = Source::of(db);
    let (ledger_index, milestone) = source.checked_target(context, target, context.increasing)?;
    let protocol = source.protocol()?;
    let solid_entry_points = entry_points(target, context.threshold())?;
    let header = FullHeader {
        genesis_milestone_index: context.genesis_milestone_index,
        target_milestone_index: target,
        target_milestone_timestamp: milestone.timestamp,
        target_milestone_id: milestone.milestone_id,
        ledger_milestone_index: ledger_index,
        treasury: source.treasury()?,
        protocol_parameters: ProtocolParametersOption {
            target_milestone_index: 0,
            protocol_version: PROTOCOL_VERSION,
            params: protocol,
        },
        output_count: 0,
        milestone_diff_count: 0,
        solid_entry_point_count: 0,
    };
    let mut file = SnapshotFile::create(path, context.pace)?;
    let written = (|| {
        let header_bytes = encode_full_header(&header);
        file.write(&header_bytes)?;
        let counts_at = header_bytes.len() - FULL_COUNTS_LENGTH;
        let mut record = Vec::with_capacity(256);
        let outputs = source.for_each_unspent(|id, r| {
            record.clear();
            write_raw_output_record(
                &mut record,
                &RawOutputRecord {
                    output_id: id,
                    block_id: &r.block_id,
                    milestone_index_booked: r.milestone_index,
                    milestone_timestamp_booked: r.milestone_timestamp,
                    output: &r.output,
                },
            );
            file.write(&record)?;
            file.record_done()
        })?;
        // L, L − 1, …, N + 1 must all be there (the reader rolls them back); N … N − 29 as
        // far down as the history reaches.
        let lowest = target.saturating_sub(ADDITIONAL_DIFFS - 1).max(1);
        let mut diffs = 0u32;
        for index in (lowest..=ledger_index).rev() {
            let Some(diff) = source.diff(index)? else {
                if index > target {
                    return Err(Error::new(
                        Code::SnapshotHistoryMissing,
                        "index",
                        format!("milestone diff {index} (between the target {target} and the ledger index {ledger_index}) is not stored"),
                    ));
                }
                break;
            };
            record.clear();
            diff.encode(&mut record);
            file.write(&record)?;
            file.record_done()?;
            diffs += 1;
        }
        for (id, _) in &solid_entry_points {
            file.write(id)?;
        }
        let seps = count_u16(solid_entry_points.len())?;
        file.patch(counts_at as u64, &encode_full_counts(outputs, diffs, seps))?;
        Ok((outputs, diffs, seps))
    })();
    let (outputs, milestone_diffs, seps) = match written {
        Ok(counts) => counts,
        Err(e) => {
            file.abandon();
            return Err(e);
        }
    };
    let bytes = file.commit()?;
    Ok(WrittenSnapshot {
        kind: SnapshotKind::Full,
        path: path.to_path_buf(),
        target_milestone_index: target,
        target_milestone_timestamp: milestone.timestamp,
        target_milestone_id: milestone.milestone_id,
        ledger_milestone_index: ledger_index,
        bytes,
        outputs,
        milestone_diffs,
        solid_entry_points: seps,
        micros: started.elapsed().as_micros() as u64,
        finished_at_ms: super::now_ms(),
    })
}
