//! `ledger-node snapshot write`: the genesis of a data directory as a Hornet full snapshot
//! (snapshot.md §6). Synchronous: it is a command-line call, not a request.

use crate::errors::{to_napi, Result};
use ledger_store::write_genesis_snapshot as write_genesis;
use napi_derive::napi;
use std::path::Path;

#[napi(object)]
pub struct WrittenSnapshotJs {
    pub bytes: u32,
    pub outputs: u32,
    pub solid_entry_points: u32,
    /// `ledger` or `hornet`.
    pub genesis_style: String,
}

/// Write the genesis of the ledger in `dataDir` (opened read-only, so a node may run on
/// it) to `outFile`, which must not exist.
#[napi]
pub fn write_genesis_snapshot(data_dir: String, out_file: String) -> Result<WrittenSnapshotJs> {
    let written = write_genesis(&Path::new(&data_dir).join("ledger"), Path::new(&out_file))
        .map_err(to_napi)?;
    Ok(WrittenSnapshotJs {
        bytes: written.bytes as u32,
        outputs: written.outputs as u32,
        solid_entry_points: written.solid_entry_points as u32,
        genesis_style: written.style.as_str().to_string(),
    })
}
