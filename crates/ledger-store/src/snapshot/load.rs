//! A new ledger from a Hornet full snapshot, and optionally a delta snapshot on top of it
//! (snapshot.md §3, §4, §7): the files are read and checked whole, in memory, before
//! anything is written, so a refused file leaves no ledger behind; what they hold then
//! becomes the store's initial state, written in one batch. The full snapshot's protocol
//! parameters replace the configured ones (only the network name must agree), its ledger is
//! rolled back to its target index, a delta's diffs are applied from there to the delta's
//! target (the delta must name the full snapshot's target milestone, which Hornet's import
//! does not check), and the entry points all belong to the final target.
//!
//! No milestone is stored (as in Hornet's import): the diffs' milestones above the target
//! were undone, the delta's are history below the new target, and the node gets the
//! milestones after the target over gossip, with their blocks. `/milestones/{index}` thus
//! answers only for milestones whose ledger changes this node applied.

use crate::entry_points::SolidEntryPoints;
use crate::initial_state::InitialState;
use crate::origin::{GenesisStyle, Origin};
use crate::records::OutputRecord;
use ledger_core::codec::encode_output;
use ledger_core::protocol::{network_id, ProtocolParameters};
use ledger_core::snapshot::{
    read_delta_snapshot, read_full_snapshot, roll_back_to_target, roll_forward,
};
use ledger_core::{Code, Error, Result};
use std::path::Path;

fn read_file(path: &Path, key: &str) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        Error::new(Code::SnapshotUnreadable, key, format!("cannot read {}: {e}", path.display()))
    })
}

fn in_file(path: &Path) -> impl Fn(Error) -> Error + '_ {
    move |e: Error| Error { detail: format!("{} in {}", e.detail, path.display()), ..e }
}

/// Read, check and roll back the full snapshot at `full` (and bring it forward with the
/// delta snapshot at `delta`) for a node configured with `configured`.
pub fn initial_state(
    full: &Path,
    delta: Option<&Path>,
    configured: &ProtocolParameters,
) -> Result<InitialState> {
    let bytes = read_file(full, "snapshot.loadPath")?;
    let snapshot = read_full_snapshot(&bytes).map_err(in_file(full))?;
    drop(bytes);
    let name = &snapshot.protocol_parameters.params.network_name;
    if *name != configured.network_name {
        return Err(in_file(full)(Error::new(
            Code::SnapshotNetworkMismatch,
            "protocolParameters.params.networkName",
            format!(
                "the snapshot is for network '{name}' (id {}), this node is configured for '{}' (id {})",
                network_id(name),
                configured.network_name,
                configured.network_id()
            ),
        )));
    }
    if snapshot.solid_entry_points.is_empty() {
        return Err(in_file(full)(Error::new(
            Code::SnapshotNoEntryPoints,
            "solidEntryPointCount",
            "a snapshot needs at least one solid entry point for the next milestone to approve",
        )));
    }
    let mut ledger = roll_back_to_target(snapshot).map_err(in_file(full))?;
    if let Some(delta) = delta {
        let bytes = read_file(delta, "snapshots.deltaPath")?;
        let snapshot = read_delta_snapshot(&bytes).map_err(in_file(delta))?;
        drop(bytes);
        if snapshot.solid_entry_points.is_empty() {
            return Err(in_file(delta)(Error::new(
                Code::SnapshotNoEntryPoints,
                "solidEntryPointCount",
                "a snapshot needs at least one solid entry point for the next milestone to approve",
            )));
        }
        ledger = roll_forward(ledger, snapshot).map_err(in_file(delta))?;
    }
    let target = ledger.target_milestone_index;
    let outputs = ledger
        .unspent
        .into_iter()
        .map(|o| {
            let record = OutputRecord {
                block_id: o.block_id,
                milestone_index: o.milestone_index_booked,
                milestone_timestamp: o.milestone_timestamp_booked,
                output: encode_output(&o.output),
            };
            (o.output_id, record)
        })
        .collect();
    Ok(InitialState {
        protocol: ledger.protocol,
        origin: Origin {
            style: GenesisStyle::Hornet,
            from_snapshot: true,
            genesis_milestone_index: ledger.genesis_milestone_index,
            target_milestone_index: target,
            target_milestone_timestamp: ledger.target_milestone_timestamp,
            target_milestone_id: ledger.target_milestone_id,
        },
        outputs,
        entry_points: SolidEntryPoints::new(
            ledger.solid_entry_points.into_iter().map(|id| (id, target)),
        ),
        treasury: ledger.treasury,
        receipts: ledger.receipts,
    })
}
