//! The ledger at a snapshot's target milestone (snapshot.md §3, §4): the checks that need
//! more than the file's structure, and the milestone diffs above the target undone; then,
//! for a delta snapshot, the diffs after the full snapshot's target applied (§7).
//!
//! Outputs are checked with every syntactic rule under the file's protocol parameters
//! except the storage deposit, as Hornet does: an output keeps the deposit rule of the
//! rent structure it was created under. A diff is undone by restoring what its milestone
//! consumed and then removing what it created (an output created and spent by the same
//! milestone is in both lists); each step must find the ledger as the diff says it was.
//! A delta's diff is applied the other way round: created outputs booked, then consumed ones
//! removed. The milestones of the diffs must form one chain (each names the previous one's
//! id) that meets the target milestone of the header.

use super::format::*;
use crate::codec::encode_protocol_parameters;
use crate::error::{Code, Error, Result};
use crate::ids;
use crate::model::{
    Id32, MilestoneOption, MilestonePayload, Output, OutputId, ReceiptOption, PROTOCOL_VERSION,
};
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
    /// The receipts of the milestones a delta snapshot applied, ascending by milestone index
    /// (a full snapshot alone carries none: its diffs above the target are undone).
    pub receipts: Vec<(u32, ReceiptOption)>,
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

    check_chain_downwards(&s.milestone_diffs, s.target_milestone_index, &s.target_milestone_id)?;
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

    check_supply(&unspent, &treasury, &protocol)?;
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
        receipts: Vec::new(),
    })
}

/// The ledger of `full` (already at its target) brought to the target of `delta`: the
/// delta must continue that full snapshot (its recorded full target milestone id, diffs from
/// the next index on, a milestone chain from the full target's id), and every diff must
/// find the ledger as it says.
pub fn roll_forward(full: LedgerAtTarget, delta: DeltaSnapshot) -> Result<LedgerAtTarget> {
    if delta.full_snapshot_target_milestone_id != full.target_milestone_id {
        return Err(Error::new(
            Code::SnapshotDeltaMismatch,
            "fullSnapshotTargetMilestoneId",
            format!(
                "the delta continues a full snapshot whose target milestone is 0x{}, the full snapshot's is 0x{} (milestone {})",
                hex::encode(delta.full_snapshot_target_milestone_id),
                hex::encode(full.target_milestone_id),
                full.target_milestone_index
            ),
        ));
    }
    let from = full.target_milestone_index;
    let expected = delta.target_milestone_index.checked_sub(from).map(|n| n as usize);
    if expected != Some(delta.milestone_diffs.len()) {
        return Err(Error::new(
            Code::SnapshotDeltaMismatch,
            "targetMilestoneIndex",
            format!(
                "the delta's target is milestone {} with {} diff(s); from the full snapshot's target {from} that needs the diffs {}..{}",
                delta.target_milestone_index,
                delta.milestone_diffs.len(),
                from + 1,
                delta.target_milestone_index
            ),
        ));
    }
    let current = encode_protocol_parameters(&full.protocol);
    check_no_parameter_changes(&delta.milestone_diffs, &current)?;
    let rules = ProtocolParameters {
        rent_structure: crate::protocol::RentStructure {
            v_byte_cost: 0,
            ..full.protocol.rent_structure
        },
        ..full.protocol.clone()
    };
    let mut unspent: BTreeMap<OutputId, SnapshotOutput> =
        full.unspent.into_iter().map(|o| (o.output_id, o)).collect();
    let mut treasury = full.treasury;
    let mut receipts = full.receipts;
    let mut previous_id = full.target_milestone_id;
    let mut target_milestone_id = full.target_milestone_id;
    for (i, diff) in delta.milestone_diffs.into_iter().enumerate() {
        let path = format!("milestoneDiffs[{i}]");
        let index = diff.index();
        if index != from + 1 + i as u32 {
            return Err(Error::new(
                Code::SnapshotDeltaMismatch,
                format!("{path}.milestone.index"),
                format!(
                    "milestone {index}, expected {} (the full snapshot's target is {from})",
                    from + 1 + i as u32
                ),
            ));
        }
        validate_milestone(&diff.milestone).map_err(|e| e.within(&format!("{path}.milestone")))?;
        if diff.milestone.previous_milestone_id != previous_id {
            return Err(chain_broken(&path, index, &previous_id));
        }
        previous_id = ids::milestone_id(&diff.milestone);
        target_milestone_id = previous_id;
        let inconsistent = |part: String, why: String| {
            Error::new(
                Code::SnapshotDiffInconsistent,
                format!("{path}.{part}"),
                format!("milestone {index}: {why}"),
            )
        };
        for (j, created) in diff.created.into_iter().enumerate() {
            validate_output(&created.output, &rules)
                .map_err(|e| e.within(&format!("{path}.created[{j}].output")))?;
            if created.milestone_index_booked != index {
                return Err(inconsistent(
                    format!("created[{j}].milestoneIndexBooked"),
                    format!("creates an output booked at {}", created.milestone_index_booked),
                ));
            }
            let id = created.output_id;
            if unspent.insert(id, created).is_some() {
                return Err(inconsistent(
                    format!("created[{j}].outputId"),
                    format!("creates output 0x{}, which is unspent before it", hex::encode(id)),
                ));
            }
        }
        for (k, spent) in diff.consumed.iter().enumerate() {
            let id = spent.output.output_id;
            match unspent.remove(&id) {
                Some(found) if found == spent.output => {}
                Some(_) => {
                    return Err(inconsistent(
                        format!("consumed[{k}].output"),
                        format!(
                            "consumes output 0x{} as another output than the ledger holds",
                            hex::encode(id)
                        ),
                    ))
                }
                None => {
                    return Err(inconsistent(
                        format!("consumed[{k}].outputId"),
                        format!(
                            "consumes output 0x{}, which is not unspent before it",
                            hex::encode(id)
                        ),
                    ))
                }
            }
        }
        if let Some(spent) = diff.spent_treasury {
            if spent != treasury {
                return Err(inconsistent(
                    "spentTreasuryOutput".into(),
                    format!(
                        "its receipt spends a treasury output of {} from milestone 0x{}, the treasury is {} from 0x{}",
                        spent.amount,
                        hex::encode(spent.milestone_id),
                        treasury.amount,
                        hex::encode(treasury.milestone_id)
                    ),
                ));
            }
            let Some(receipt) = diff.milestone.options.iter().find_map(|o| match o {
                MilestoneOption::Receipt(r) => Some(r.clone()),
                _ => None,
            }) else {
                return Err(inconsistent(
                    "spentTreasuryOutput".into(),
                    "a spent treasury output without a receipt".into(),
                ));
            };
            let amount = match receipt.transaction.output {
                Output::Treasury { amount } => amount,
                _ => 0,
            };
            treasury = TreasuryOutput { milestone_id: previous_id, amount };
            receipts.push((index, receipt));
        }
    }
    check_supply(&unspent, &treasury, &full.protocol)?;
    let target = delta.target_milestone_index;
    Ok(LedgerAtTarget {
        protocol: full.protocol,
        genesis_milestone_index: full.genesis_milestone_index,
        target_milestone_index: target,
        target_milestone_timestamp: delta.target_milestone_timestamp,
        target_milestone_id,
        treasury,
        unspent: unspent.into_values().collect(),
        milestones_above_target: full
            .milestones_above_target
            .into_iter()
            .filter(|m| m.index > target)
            .collect(),
        solid_entry_points: delta.solid_entry_points,
        receipts,
    })
}

fn chain_broken(path: &str, index: u32, expected: &Id32) -> Error {
    Error::new(
        Code::SnapshotMilestoneChainBroken,
        format!("{path}.milestone.previousMilestoneId"),
        format!(
            "milestone {index} does not follow milestone 0x{} (the milestone before it in the snapshot)",
            hex::encode(expected)
        ),
    )
}

/// A full snapshot's diffs come from the ledger index downwards: each milestone must name
/// the next diff's milestone as its previous one (where the indexes are consecutive), the
/// milestone right after the target must name the target milestone, and a diff of the
/// target itself must be that milestone.
fn check_chain_downwards(diffs: &[MilestoneDiff], target: u32, target_id: &Id32) -> Result<()> {
    let ids: Vec<Id32> = diffs.iter().map(|d| ids::milestone_id(&d.milestone)).collect();
    for (i, diff) in diffs.iter().enumerate() {
        let path = format!("milestoneDiffs[{i}]");
        let index = diff.index();
        if index == target && ids[i] != *target_id {
            return Err(Error::new(
                Code::SnapshotMilestoneChainBroken,
                format!("{path}.milestone"),
                format!(
                    "the diff of the target milestone {index} has milestone id 0x{}, the header names 0x{}",
                    hex::encode(ids[i]),
                    hex::encode(target_id)
                ),
            ));
        }
        let expected = match diffs.get(i + 1) {
            Some(next) if next.index() + 1 == index => Some(ids[i + 1]),
            _ if index == target + 1 => Some(*target_id),
            _ => None,
        };
        if let Some(expected) = expected {
            if diff.milestone.previous_milestone_id != expected {
                return Err(chain_broken(&path, index, &expected));
            }
        }
    }
    Ok(())
}

fn check_supply(
    unspent: &BTreeMap<OutputId, SnapshotOutput>,
    treasury: &TreasuryOutput,
    protocol: &ProtocolParameters,
) -> Result<()> {
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
    Ok(())
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
