//! `ledger-node snapshot write` (snapshot.md §6): the genesis of a data directory as a
//! Hornet full snapshot — format 2, full, indexes and timestamp 0, zero ids, the persisted
//! protocol parameters as option (target 0, version 2), the outputs booked at genesis
//! (spent since or not), no diffs, the entry points ascending. For a `hornet`-style dev
//! network this is byte for byte what `hornet tool snap-gen` writes.
//!
//! The ledger is opened read-only, so a node may keep running on it meanwhile.

use crate::columns::{state_key, OUTPUTS, STATE};
use crate::db::Db;
use crate::entry_points::SolidEntryPoints;
use crate::genesis::protocol_from_json;
use crate::ledger;
use crate::origin::{GenesisStyle, Origin};
use crate::records::OutputRecord;
use crate::storage_error;
use ledger_core::codec::decode_output;
use ledger_core::model::PROTOCOL_VERSION;
use ledger_core::snapshot::{
    write_full_snapshot, FullSnapshot, ProtocolParametersOption, SnapshotOutput,
};
use ledger_core::{Code, Error, Result};
use std::io::Write;
use std::path::Path;

/// What was written.
pub struct WrittenGenesis {
    pub bytes: usize,
    pub outputs: usize,
    pub solid_entry_points: usize,
    pub style: GenesisStyle,
}

/// Write the genesis snapshot of the ledger in `ledger_dir` to `out`, which must not exist.
pub fn write_genesis_snapshot(ledger_dir: &Path, out: &Path) -> Result<WrittenGenesis> {
    let (snapshot, origin) = genesis_snapshot(ledger_dir)?;
    let bytes = write_full_snapshot(&snapshot)?;
    write_new_file(out, &bytes)?;
    Ok(WrittenGenesis {
        bytes: bytes.len(),
        outputs: snapshot.outputs.len(),
        solid_entry_points: snapshot.solid_entry_points.len(),
        style: origin.style,
    })
}

fn genesis_snapshot(ledger_dir: &Path) -> Result<(FullSnapshot, Origin)> {
    let db = Db::open_ledger_read_only(ledger_dir)?;
    let origin = match db.get(STATE, state_key::ORIGIN)? {
        Some(b) => Origin::from_bytes(&b)?,
        None => {
            return Err(Error::new(Code::LedgerTooOld, "dataDir", "this ledger predates genesis styles: start the node once with this version to upgrade it"));
        }
    };
    if origin.target_milestone_index > 0 {
        return Err(Error::new(
            Code::SnapshotNotGenesis,
            "dataDir",
            format!("this ledger started from a snapshot at milestone {}; only a genesis can be written", origin.target_milestone_index),
        ));
    }
    let protocol_text = db
        .get(STATE, state_key::PROTOCOL)?
        .ok_or_else(|| storage_error("the ledger has no protocol parameters"))?;
    let protocol = protocol_from_json(&String::from_utf8_lossy(&protocol_text))?;
    let mut outputs = Vec::new();
    db.scan(OUTPUTS, &[], |key, value| {
        let record = OutputRecord::from_bytes(value)?;
        if record.milestone_index == 0 {
            let output = decode_output(&record.output).map_err(|e| {
                storage_error(format!("stored output 0x{} does not decode: {e}", hex::encode(key)))
            })?;
            let output_id = key
                .try_into()
                .map_err(|_| storage_error(format!("output key of {} bytes", key.len())))?;
            outputs.push(SnapshotOutput {
                output_id,
                block_id: record.block_id,
                milestone_index_booked: 0,
                milestone_timestamp_booked: record.milestone_timestamp,
                output,
            });
        }
        Ok(true)
    })?;
    // In creation order: by transaction id, then by output index as a number (the key
    // holds it little-endian).
    outputs.sort_by_key(|o| {
        (
            <[u8; 32]>::try_from(&o.output_id[..32]).expect("32 bytes"),
            u16::from_le_bytes([o.output_id[32], o.output_id[33]]),
        )
    });
    let entry_points = SolidEntryPoints::load(&db)?;
    let snapshot = FullSnapshot {
        genesis_milestone_index: origin.genesis_milestone_index,
        target_milestone_index: 0,
        target_milestone_timestamp: 0,
        target_milestone_id: [0; 32],
        ledger_milestone_index: 0,
        treasury: ledger::treasury(&db)?,
        protocol_parameters: ProtocolParametersOption {
            target_milestone_index: 0,
            protocol_version: PROTOCOL_VERSION,
            params: protocol,
        },
        outputs,
        milestone_diffs: Vec::new(),
        solid_entry_points: entry_points.sorted().to_vec(),
    };
    Ok((snapshot, origin))
}

/// Create `path` (never overwriting) with `bytes`, synced; a partial file is removed.
fn write_new_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let failed = |e: std::io::Error| {
        Error::new(Code::SnapshotWriteFailed, "out", format!("{}: {e}", path.display()))
    };
    let mut file =
        std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| match e
            .kind()
        {
            std::io::ErrorKind::AlreadyExists => Error::new(
                Code::FileExists,
                "out",
                format!("{} exists; choose another name or remove it", path.display()),
            ),
            _ => failed(e),
        })?;
    if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
        drop(file);
        let _ = std::fs::remove_file(path);
        return Err(failed(e));
    }
    Ok(())
}
