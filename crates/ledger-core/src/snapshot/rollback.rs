//! The ledger at a snapshot's target milestone (snapshot.md §3, §4): the checks that need
//! more than the file's structure, and the milestone diffs above the target undone.
//!
//! Outputs are checked with every syntactic rule under the file's protocol parameters
//! except the storage deposit, as Hornet does: an output keeps the deposit rule of the
//! rent structure it was created under. A diff is undone by restoring what its milestone
//! consumed and then removing what it created (an output created and spent by the same
//! milestone is in both lists); each step must find the ledger as the diff says it was.

use super::format::*;
use crate::codec::encode_protocol_parameters;
use crate::error::{Code, Error, Result};
use crate::ids;
use crate::model::{Id32, MilestoneOption, MilestonePayload, Output, OutputId, PROTOCOL_VERSION};
use crate::protocol::ProtocolParameters;
use crate::validate::{validate_milestone, validate_output};
use std::collections::BTreeMap;

/// Everything a node keeps of a snapshot, at its target index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerAtTarget {
    pub protocol: ProtocolParameters,
    pub genesis_milestone_index: u32,
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    pub target_milestone_id: Id32,
    /// The unspent treasury output at the target index (amount 0: none).
    pub treasury: TreasuryOutput,
    /// Unspent outputs at the target index, ascending by output id.
    pub unspent: Vec<SnapshotOutput>,
    /// The milestones of the diffs above the target, ascending by index.
    pub milestones_above_target: Vec<MilestonePayload>,
    pub solid_entry_points: Vec<Id32>,
}

/// Check a decoded snapshot and roll its ledger back to the target index.
pub fn roll_back_to_target(s: FullSnapshot) -> Result<LedgerAtTarget> {
    let option = &s.protocol_parameters;
    if option.protocol_version != PROTOCOL_VERSION || option.params.version != PROTOCOL_VERSION {
        return Err(Error::new(
            Code::SnapshotProtocolVersion,
            "protocolParameters.protocolVersion",
            format!("protocol version {} (parameters say {}); this node speaks version {PROTOCOL_VERSION}", option.protocol_version, option.params.version),
        ));
    }
    let protocol = option.params.clone();
    check_no_parameter_changes(&s.milestone_diffs, &encode_protocol_parameters(&protocol))?;
    let rules = ProtocolParameters {
        rent_structure: crate::protocol::RentStructure {
            v_byte_cost: 0,
            ..protocol.rent_structure
        },
        ..protocol.clone()
    };
    let check = |o: &SnapshotOutput, path: &str| {
        validate_output(&o.output, &rules).map_err(|e| e.within(&format!("{path}.output")))
    };

    let mut unspent: BTreeMap<OutputId, SnapshotOutput> = BTreeMap::new();
    for (i, o) in s.outputs.into_iter().enumerate() {
        check(&o, &format!("outputs[{i}]"))?;
        let id = o.output_id;
        if unspent.insert(id, o).is_some() {
            return Err(Error::new(
                Code::SnapshotDuplicateOutput,
                format!("outputs[{i}].outputId"),
                format!("output 0x{} is listed twice", hex::encode(id)),
            ));
        }
    }

    let mut treasury = s.treasury;
    let above = (s.ledger_milestone_index - s.target_milestone_index) as usize;
    let mut milestones_above_target = Vec::with_capacity(above);
    for (i, diff) in s.milestone_diffs.into_iter().enumerate() {
        let path = format!("milestoneDiffs[{i}]");
        validate_milestone(&diff.milestone).map_err(|e| e.within(&format!("{path}.milestone")))?;
        if i >= above {
            continue;
        }
        let index = diff.index();
        let inconsistent = |part: String, why: String| {
            Error::new(
                Code::SnapshotDiffInconsistent,
                format!("{path}.{part}"),
                format!("milestone {index}: {why}"),
            )
        };
        for (k, spent) in diff.consumed.into_iter().enumerate() {
            check(&spent.output, &format!("{path}.consumed[{k}]"))?;
            let id = spent.output.output_id;
            if unspent.insert(id, spent.output).is_some() {
                return Err(inconsistent(
                    format!("consumed[{k}].outputId"),
                    format!("consumes output 0x{}, which is unspent after it", hex::encode(id)),
                ));
            }
        }
        for (j, created) in diff.created.iter().enumerate() {
            check(created, &format!("{path}.created[{j}]"))?;
            if created.milestone_index_booked != index {
                return Err(inconsistent(
                    format!("created[{j}].milestoneIndexBooked"),
                    format!("creates an output booked at {}", created.milestone_index_booked),
                ));
            }
            if unspent.remove(&created.output_id).is_none() {
                return Err(inconsistent(
                    format!("created[{j}].outputId"),
                    format!(
                        "creates output 0x{}, which is not unspent after it",
                        hex::encode(created.output_id)
                    ),
                ));
            }
        }
        if let Some(spent) = diff.spent_treasury {
            treasury = undo_receipt(&diff.milestone, treasury, spent)
                .map_err(|why| inconsistent("spentTreasuryOutput".into(), why))?;
        }
        milestones_above_target.push(diff.milestone);
    }
    milestones_above_target.reverse();

    let outputs: u128 = unspent.values().map(|o| o.output.amount() as u128).sum();
    if outputs + treasury.amount as u128 != protocol.token_supply as u128 {
        return Err(Error::new(
            Code::SnapshotSupplyMismatch,
            "outputs",
            format!(
                "at the target index the unspent outputs hold {outputs} and the treasury {}, together not the token supply {}",
                treasury.amount, protocol.token_supply
            ),
        ));
    }
    Ok(LedgerAtTarget {
        protocol,
        genesis_milestone_index: s.genesis_milestone_index,
        target_milestone_index: s.target_milestone_index,
        target_milestone_timestamp: s.target_milestone_timestamp,
        target_milestone_id: s.target_milestone_id,
        treasury,
        unspent: unspent.into_values().collect(),
        milestones_above_target,
        solid_entry_points: s.solid_entry_points,
    })
}

/// This node has no protocol upgrades: a milestone of the file that announces parameters
/// other than the header's would make the node apply the wrong rules later, so such a
/// file is refused instead.
fn check_no_parameter_changes(diffs: &[MilestoneDiff], current: &[u8]) -> Result<()> {
    for (i, diff) in diffs.iter().enumerate() {
        for (j, option) in diff.milestone.options.iter().enumerate() {
            if let MilestoneOption::ProtocolParameters { target_milestone_index, params, .. } =
                option
            {
                if params.as_slice() != current {
                    return Err(Error::new(
                        Code::SnapshotProtocolUpgradeUnsupported,
                        format!("milestoneDiffs[{i}].milestone.options[{j}]"),
                        format!("milestone {} changes the protocol parameters from index {target_milestone_index}; this node cannot follow protocol upgrades", diff.index()),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Before a milestone with a receipt, the treasury was the output its receipt spent; after
/// it, the one its treasury transaction created (with the milestone's id).
fn undo_receipt(
    milestone: &MilestonePayload,
    after: TreasuryOutput,
    spent: TreasuryOutput,
) -> std::result::Result<TreasuryOutput, String> {
    let created = milestone.options.iter().find_map(|o| match o {
        MilestoneOption::Receipt(r) => match r.transaction.output {
            Output::Treasury { amount } => Some(amount),
            _ => None,
        },
        _ => None,
    });
    let expected =
        TreasuryOutput { milestone_id: ids::milestone_id(milestone), amount: created.unwrap_or(0) };
    if after != expected {
        return Err(format!(
            "its receipt creates a treasury output of {} but the treasury after it is {} from milestone 0x{}",
            expected.amount,
            after.amount,
            hex::encode(after.milestone_id)
        ));
    }
    Ok(spent)
}
