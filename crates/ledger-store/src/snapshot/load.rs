//! A new ledger from a Hornet full snapshot (snapshot.md §3, §4): the file is read and
//! checked whole, in memory, before anything is written, so a refused file leaves no
//! ledger behind; what it holds then becomes the store's initial state, written in one
//! batch. Its protocol parameters replace the configured ones (only the network name must
//! agree), its ledger is rolled back to the target index, its entry points all belong to
//! that index, and the milestones of its diffs above the target are kept as milestones
//! without blocks.

use crate::entry_points::SolidEntryPoints;
use crate::initial_state::InitialState;
use crate::milestone::block_of;
use crate::origin::{GenesisStyle, Origin};
use crate::records::{MilestoneRecord, OutputRecord};
use ledger_core::codec::{encode_block, encode_milestone_payload, encode_output};
use ledger_core::ids;
use ledger_core::protocol::{network_id, ProtocolParameters};
use ledger_core::snapshot::{read_full_snapshot, roll_back_to_target};
use ledger_core::{Code, Error, Result};
use std::path::Path;

/// Read, check and roll back the snapshot at `path` for a node configured with `configured`.
pub fn initial_state(path: &Path, configured: &ProtocolParameters) -> Result<InitialState> {
    let bytes = std::fs::read(path).map_err(|e| {
        Error::new(
            Code::SnapshotUnreadable,
            "snapshot.loadPath",
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let in_file = |e: Error| Error { detail: format!("{} in {}", e.detail, path.display()), ..e };
    let snapshot = read_full_snapshot(&bytes).map_err(in_file)?;
    drop(bytes);
    let name = &snapshot.protocol_parameters.params.network_name;
    if *name != configured.network_name {
        return Err(in_file(Error::new(
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
        return Err(in_file(Error::new(
            Code::SnapshotNoEntryPoints,
            "solidEntryPointCount",
            "a snapshot needs at least one solid entry point for the next milestone to approve",
        )));
    }
    let ledger = roll_back_to_target(snapshot).map_err(in_file)?;
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
    // The blocks of these milestones are not in the file; a milestone block has the
    // milestone's parents and nonce 0 (D42), which gives its id.
    let milestones = ledger
        .milestones_above_target
        .into_iter()
        .map(|m| MilestoneRecord {
            index: m.index,
            milestone_id: ids::milestone_id(&m),
            timestamp: m.timestamp,
            payload: encode_milestone_payload(&m),
            block_id: ids::block_id(&encode_block(&block_of(m))),
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
        milestones,
    })
}
