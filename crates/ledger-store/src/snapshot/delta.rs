//! A delta snapshot at a target within reach (snapshot.md §8), written as Hornet 2.0.1
//! writes one (`createDeltaSnapshotWithoutLocking`, `snapshot_write.go`): the milestone diffs
//! from the full snapshot's target + 1 up to the target, ascending, and the solid entry points
//! of the target. It names the full snapshot it continues by that snapshot's target
//! milestone id, read from the full snapshot file's header.
//!
//! An existing delta of the same full snapshot is extended: its header and diffs are kept
//! (up to its `SEPFileOffset`), the diffs after its target appended, the new entry points
//! written and the header's target, timestamp, offset and counts patched. Hornet does this
//! in place on the renamed file, so a crash in the middle loses the delta; here the kept
//! part is copied into the temporary file, and the old delta stays whole until the new one
//! replaces it.
//!
//! Only fixed history is read: diffs of milestones at or below the target never change, so
//! no lock is needed (Hornet PR #1764); the reads still come from one RocksDB snapshot.

use super::file::{write_failed, SnapshotFile};
use super::source::Source;
use super::EntryPoints;
use super::{ExportContext, SnapshotKind, WrittenSnapshot};
use crate::db::Db;
use ledger_core::snapshot::{
    count_u16, count_u32, encode_delta_header, read_snapshot_header, DeltaHeader, SnapshotHeader,
    DELTA_HEADER_LENGTH,
};
use ledger_core::{Code, Error, Result};
use std::io::Read;
use std::path::Path;
use std::time::Instant;

/// The header of the snapshot file at `path` (only its first bytes are read).
pub fn read_header_of(path: &Path) -> Result<SnapshotHeader> {
    let unreadable = |e: std::io::Error| {
        Error::new(
            Code::SnapshotUnreadable,
            "filePath",
            format!("cannot read {}: {e}", path.display()),
        )
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    // A full header is 106 bytes plus a protocol parameters option of at most 64 KiB.
    let mut bytes = Vec::with_capacity(4096);
    file.take(106 + 65_536).read_to_end(&mut bytes).map_err(unreadable)?;
    let (header, _) = read_snapshot_header(&bytes)
        .map_err(|e| Error { detail: format!("{} in {}", e.detail, path.display()), ..e })?;
    Ok(header)
}

/// Write (or extend) the delta snapshot at `delta_path` up to `target`, on top of the full
/// snapshot at `full_path`.
pub fn write_delta(
    db: &Db,
    context: &ExportContext,
    target: u32,
    full_path: &Path,
    delta_path: &Path,
    entry_points: EntryPoints<'_>,
) -> Result<WrittenSnapshot> {
    let started = Instant::now();
    let source = Source::of(db);
    let (ledger_index, milestone) = source.checked_target(context, target, true)?;
    let full = match read_header_of(full_path) {
        Ok(SnapshotHeader::Full(h)) => h,
        Ok(SnapshotHeader::Delta(_)) => {
            return Err(Error::new(
                Code::SnapshotTypeUnsupported,
                "fullPath",
                format!("{} is a delta snapshot, not a full one", full_path.display()),
            ))
        }
        Err(e) => {
            return Err(Error {
                detail: format!("unable to read full snapshot header: {}", e.detail),
                ..e
            })
        }
    };
    let existing = match delta_path.exists() {
        false => None,
        true => match read_header_of(delta_path)? {
            SnapshotHeader::Delta(h) => Some(h),
            SnapshotHeader::Full(_) => {
                return Err(Error::new(
                    Code::SnapshotTypeUnsupported,
                    "deltaPath",
                    format!("{} is a full snapshot, not a delta", delta_path.display()),
                ))
            }
        },
    };
    if let Some(old) = &existing {
        if old.full_snapshot_target_milestone_id != full.target_milestone_id {
            return Err(Error::new(
                Code::SnapshotDeltaMismatch,
                "deltaPath",
                format!(
                    "unable to update existing delta snapshot: mismatching full snapshot target milestone ID (0x{} != 0x{})",
                    hex::encode(old.full_snapshot_target_milestone_id),
                    hex::encode(full.target_milestone_id)
                ),
            ));
        }
    }
    let from = existing.as_ref().map_or(full.target_milestone_index, |h| h.target_milestone_index);
    if target <= from {
        return Err(Error::new(
            Code::SnapshotTargetTooOld,
            "index",
            format!("milestone diff index is older than the old target index: {target}<={from}"),
        ));
    }
    let solid_entry_points = entry_points(target, context.threshold())?;
    let mut file = match &existing {
        Some(old) => {
            let keep = u64::try_from(old.sep_file_offset).unwrap_or(0);
            if keep < DELTA_HEADER_LENGTH as u64 {
                return Err(write_failed(delta_path, "its solid entry point offset is invalid"));
            }
            SnapshotFile::extending(delta_path, keep, delta_path, context.pace)?
        }
        None => {
            let mut file = SnapshotFile::create(delta_path, context.pace)?;
            file.write(&[0; DELTA_HEADER_LENGTH])?;
            file
        }
    };
    let written = (|| {
        let mut record = Vec::with_capacity(1024);
        let mut diffs = existing.as_ref().map_or(0, |h| h.milestone_diff_count);
        for index in from + 1..=target {
            let diff = source.diff(index)?.ok_or_else(|| {
                Error::new(
                    Code::SnapshotHistoryMissing,
                    "index",
                    format!("milestone diff {index} is not stored (the delta continues from milestone {from})"),
                )
            })?;
            record.clear();
            diff.encode(&mut record);
            file.write(&record)?;
            file.record_done()?;
            diffs = count_u32(diffs as usize + 1, "milestoneDiffs")?;
        }
        let sep_file_offset = file.position() as i64;
        for (id, _) in &solid_entry_points {
            file.write(id)?;
        }
        let seps = count_u16(solid_entry_points.len())?;
        let header = DeltaHeader {
            target_milestone_index: target,
            target_milestone_timestamp: milestone.timestamp,
            full_snapshot_target_milestone_id: full.target_milestone_id,
            sep_file_offset,
            milestone_diff_count: diffs,
            solid_entry_point_count: seps,
        };
        file.patch(0, &encode_delta_header(&header))?;
        Ok((diffs, seps))
    })();
    let (milestone_diffs, seps) = match written {
        Ok(counts) => counts,
        Err(e) => {
            file.abandon();
            return Err(e);
        }
    };
    let bytes = file.commit()?;
    Ok(WrittenSnapshot {
        kind: SnapshotKind::Delta,
        path: delta_path.to_path_buf(),
        target_milestone_index: target,
        target_milestone_timestamp: milestone.timestamp,
        target_milestone_id: milestone.milestone_id,
        ledger_milestone_index: ledger_index,
        bytes,
        outputs: 0,
        milestone_diffs,
        solid_entry_points: seps,
        micros: started.elapsed().as_micros() as u64,
        finished_at_ms: super::now_ms(),
    })
}
