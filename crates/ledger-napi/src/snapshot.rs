//! Snapshots for JavaScript (snapshot.md §6, §8): the genesis of a data directory
//! (`ledger-node snapshot write`), a full or delta snapshot of the running store (REST,
//! periodic) or of a data directory (`ledger-node snapshot create`), the header of a
//! snapshot file (download probes, `snapshot info`), and the store's snapshot status for
//! `/metrics`.
//!
//! Error convention (errors.rs): the command-line calls are synchronous and throw; the
//! running store's `createSnapshot` is an async task that rejects with the same error.

use crate::errors::{rejection, to_napi, Result};
use crate::store::LedgerStore;
use ledger_core::json::hex;
use ledger_core::snapshot::{read_snapshot_header, SnapshotHeader};
use ledger_store::{
    create_snapshot_from_directory as create_from_directory, protocol_json,
    write_genesis_snapshot as write_genesis, SnapshotKind, SnapshotRequest, Store, WrittenSnapshot,
};
use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi::{Env, Task};
use napi_derive::napi;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

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

/// What to write (snapshot.md §8).
#[napi(object)]
pub struct SnapshotRequestJs {
    /// `full` or `delta`.
    pub kind: String,
    /// The target milestone index.
    pub index: u32,
    /// The full snapshot to write, or the one a delta continues.
    pub full_path: String,
    /// The delta snapshot to write or extend; after a recorded full snapshot, the delta to
    /// remove.
    pub delta_path: Option<String>,
    /// Written to the node's snapshot paths (periodic): the snapshot index moves.
    pub record: bool,
    /// Test hook: microseconds to pause after every record.
    pub pace_micros: Option<u32>,
}

/// A written snapshot (`ledger_store::WrittenSnapshot`).
#[napi(object)]
pub struct SnapshotWrittenJs {
    pub kind: String,
    pub file_path: String,
    pub index: u32,
    pub target_milestone_timestamp: u32,
    pub target_milestone_id: String,
    pub ledger_index: u32,
    pub bytes: f64,
    pub outputs: f64,
    pub milestone_diffs: u32,
    pub solid_entry_points: u32,
    /// How long the write took.
    pub micros: f64,
    /// When it was complete (Unix milliseconds).
    pub finished_at_ms: f64,
}

fn kind_of(text: &str) -> Result<SnapshotKind> {
    match text {
        "full" => Ok(SnapshotKind::Full),
        "delta" => Ok(SnapshotKind::Delta),
        other => Err(crate::errors::invalid_argument(
            "kind",
            format!("{other:?} is neither full nor delta"),
        )),
    }
}

fn request_of(r: SnapshotRequestJs) -> Result<SnapshotRequest> {
    Ok(SnapshotRequest {
        kind: kind_of(&r.kind)?,
        target: r.index,
        full_path: r.full_path.into(),
        delta_path: r.delta_path.filter(|p| !p.is_empty()).map(Into::into),
        record: r.record,
        pace: r.pace_micros.map(|us| Duration::from_micros(us as u64)),
    })
}

fn written_js(w: WrittenSnapshot) -> SnapshotWrittenJs {
    SnapshotWrittenJs {
        kind: w.kind.as_str().to_string(),
        file_path: w.path.to_string_lossy().into_owned(),
        index: w.target_milestone_index,
        target_milestone_timestamp: w.target_milestone_timestamp,
        target_milestone_id: hex(&w.target_milestone_id),
        ledger_index: w.ledger_milestone_index,
        bytes: w.bytes as f64,
        outputs: w.outputs as f64,
        milestone_diffs: w.milestone_diffs,
        solid_entry_points: w.solid_entry_points as u32,
        micros: w.micros as f64,
        finished_at_ms: w.finished_at_ms as f64,
    }
}

/// Write a snapshot of the running store off the event loop; refused with `history-task-running`
/// while another one is written (by any thread of this process).
#[napi(ts_return_type = "Promise<SnapshotWrittenJs>")]
pub fn create_snapshot(
    store: &LedgerStore,
    request: SnapshotRequestJs,
) -> Result<AsyncTask<SnapshotTask>> {
    Ok(AsyncTask::new(SnapshotTask { store: store.get()?, request: request_of(request)? }))
}

pub struct SnapshotTask {
    store: Arc<Store>,
    request: SnapshotRequest,
}

impl Task for SnapshotTask {
    type Output = ledger_core::Result<WrittenSnapshot>;
    type JsValue = SnapshotWrittenJs;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.store.create_snapshot(&self.request))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<SnapshotWrittenJs> {
        output.map(written_js).map_err(|e| rejection(&env, to_napi(e)))
    }
}

/// Write a snapshot of the ledger in `dataDir` without a running node (opened read-only).
#[napi]
pub fn create_snapshot_from_directory(
    data_dir: String,
    request: SnapshotRequestJs,
) -> Result<SnapshotWrittenJs> {
    let r = request_of(request)?;
    let written = create_from_directory(
        &Path::new(&data_dir).join("ledger"),
        r.kind,
        r.target,
        &r.full_path,
        r.delta_path.as_deref(),
        r.pace,
    )
    .map_err(to_napi)?;
    Ok(written_js(written))
}

/// The store's snapshots, for `/metrics` and the periodic schedule.
#[napi(object)]
pub struct SnapshotStatusJs {
    /// A snapshot or a pruning run (the store's one history task) is in progress.
    pub busy: bool,
    /// The last snapshot written to the snapshot paths, or loaded.
    pub snapshot_index: u32,
    /// The last snapshot written since the store was opened.
    pub last: Option<SnapshotWrittenJs>,
}

#[napi]
pub fn snapshot_status(store: &LedgerStore) -> Result<SnapshotStatusJs> {
    let store = store.get()?;
    Ok(SnapshotStatusJs {
        busy: store.history_task().is_some(),
        snapshot_index: store.history_indexes().snapshot_index,
        last: store.last_snapshot().map(written_js),
    })
}

/// A snapshot file's header as `hornet tool snap-info` prints it (snapshot.md §7).
#[napi(object)]
pub struct SnapshotHeaderJs {
    /// `full` or `delta`.
    pub kind: String,
    pub version: u32,
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    /// Full: its target milestone id; delta: the full snapshot's it continues.
    pub target_milestone_id: Option<String>,
    pub full_snapshot_target_milestone_id: Option<String>,
    pub genesis_milestone_index: Option<u32>,
    pub ledger_milestone_index: Option<u32>,
    /// Full: the treasury output, `{milestoneId, amount}` as JSON text.
    pub treasury_output_json: Option<String>,
    /// Full: the protocol parameters as the info endpoint shows them (JSON text).
    pub protocol_parameters_json: Option<String>,
    pub network_name: Option<String>,
    pub output_count: Option<f64>,
    pub milestone_diff_count: u32,
    pub solid_entry_points_count: u32,
    pub solid_entry_points_file_offset: Option<f64>,
    /// The header's length in bytes.
    pub header_length: u32,
}

/// The header at the start of `bytes` (the beginning of a file is enough); throws with
/// `truncated-bytes` when more bytes are needed.
#[napi]
pub fn read_snapshot_header_bytes(bytes: Buffer) -> Result<SnapshotHeaderJs> {
    let (header, length) = read_snapshot_header(&bytes).map_err(to_napi)?;
    Ok(match header {
        SnapshotHeader::Full(h) => SnapshotHeaderJs {
            kind: "full".into(),
            version: 2,
            target_milestone_index: h.target_milestone_index,
            target_milestone_timestamp: h.target_milestone_timestamp,
            target_milestone_id: Some(hex(&h.target_milestone_id)),
            full_snapshot_target_milestone_id: None,
            genesis_milestone_index: Some(h.genesis_milestone_index),
            ledger_milestone_index: Some(h.ledger_milestone_index),
            treasury_output_json: Some(format!(
                "{{\"milestoneId\":\"{}\",\"amount\":\"{}\"}}",
                hex(&h.treasury.milestone_id),
                h.treasury.amount
            )),
            network_name: Some(h.protocol_parameters.params.network_name.clone()),
            protocol_parameters_json: Some(protocol_json(&h.protocol_parameters.params)),
            output_count: Some(h.output_count as f64),
            milestone_diff_count: h.milestone_diff_count,
            solid_entry_points_count: h.solid_entry_point_count as u32,
            solid_entry_points_file_offset: None,
            header_length: length as u32,
        },
        SnapshotHeader::Delta(h) => SnapshotHeaderJs {
            kind: "delta".into(),
            version: 2,
            target_milestone_index: h.target_milestone_index,
            target_milestone_timestamp: h.target_milestone_timestamp,
            target_milestone_id: None,
            full_snapshot_target_milestone_id: Some(hex(&h.full_snapshot_target_milestone_id)),
            genesis_milestone_index: None,
            ledger_milestone_index: None,
            treasury_output_json: None,
            protocol_parameters_json: None,
            network_name: None,
            output_count: None,
            milestone_diff_count: h.milestone_diff_count,
            solid_entry_points_count: h.solid_entry_point_count as u32,
            solid_entry_points_file_offset: Some(h.sep_file_offset as f64),
            header_length: length as u32,
        },
    })
}
