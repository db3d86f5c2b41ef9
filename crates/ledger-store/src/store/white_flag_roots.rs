//! The merkle roots of a milestone that is not issued yet (INX `ComputeWhiteFlag` and its
//! REST twin `POST /api/core/v2/whiteflag`, TIP-25): white flag over the given parents as
//! the milestone's commit would run it, with nothing written. A coordinator elsewhere
//! (inx-coordinator) asks for them before it signs, and its quorum asks other nodes.

use super::{lock, Store};
use crate::columns::BLOCKS;
use crate::signatures_ahead::Use;
use crate::white_flag;
use ledger_core::model::Id32;
use ledger_core::{Code, Error, Result};

impl Store {
    /// The inclusion and applied merkle roots milestone `index` with `timestamp` would
    /// carry if it approved `parents` after the milestone `previous_milestone_id`. As
    /// Hornet checks: `index` must be the next one; the first milestone has no previous
    /// one (all zero), any other names the latest, which must be in the parents' past
    /// cone with an older timestamp. Failures carry `Code::NotSynced`,
    /// `WhiteFlagParentsMissing`, `WhiteFlagParentUnknown` or `WhiteFlagPreviousMilestone`
    /// (Hornet's kinds); anything else is storage. Milestones wait meanwhile (the ledger cannot change
    /// under the walk); blocks go on being stored.
    pub fn white_flag_roots(
        &self,
        index: u32,
        timestamp: u32,
        parents: &[Id32],
        previous_milestone_id: &Id32,
    ) -> Result<(Id32, Id32)> {
        let _issuing = lock(&self.issuing);
        let order = {
            let state = lock(&self.state);
            let confirmed = state.latest.map_or(self.origin.target_milestone_index, |l| l.index);
            if index != confirmed + 1 {
                return Err(Error::new(
                    Code::NotSynced,
                    "index",
                    format!("the next milestone is {}, not {index}", confirmed + 1),
                ));
            }
            if parents.is_empty() {
                return Err(Error::new(
                    Code::WhiteFlagParentsMissing,
                    "parents",
                    "no parents given",
                ));
            }
            let entry_points = self.entry_points();
            for (i, p) in parents.iter().enumerate() {
                let known = entry_points.contains(p)
                    || state.graph.get(p).is_some()
                    || self.db.exists(BLOCKS, p)?;
                if !known {
                    return Err(Error::new(
                        Code::WhiteFlagParentUnknown,
                        format!("parents[{i}]"),
                        format!("block 0x{} is not solid on this node", hex::encode(p)),
                    ));
                }
            }
            let order = white_flag::traversal_order(parents, &state.graph);
            let first = index == self.origin.first_milestone_index();
            match (first, state.latest) {
                (true, _) if *previous_milestone_id != [0; 32] => {
                    return Err(previous_error("the first milestone has no previous milestone"))
                }
                (true, _) => {}
                (false, _) if *previous_milestone_id == [0; 32] => {
                    return Err(previous_error(format!("missing for milestone {index}")))
                }
                (false, None) => {
                    // After a snapshot: the previous milestone is the snapshot's target, whose
                    // block this node does not have.
                    if *previous_milestone_id != self.origin.target_milestone_id {
                        return Err(previous_error("not the snapshot's target milestone"));
                    }
                }
                (false, Some(latest)) => {
                    if *previous_milestone_id != latest.milestone_id {
                        return Err(previous_error(format!(
                            "0x{} is not milestone {}",
                            hex::encode(previous_milestone_id),
                            latest.index
                        )));
                    }
                    if latest.timestamp >= timestamp {
                        return Err(previous_error(format!(
                            "the previous milestone's timestamp {} is not before {timestamp}",
                            latest.timestamp
                        )));
                    }
                    // Its block is pending until the next milestone references it.
                    if latest.block_id != [0; 32] && !order.contains(&latest.block_id) {
                        return Err(previous_error(
                            "not referenced in the past cone of the parents",
                        ));
                    }
                }
            }
            order
        };
        let confirmation = white_flag::confirm(
            &self.db,
            (&self.signatures_ahead, Use::Keep),
            order,
            index,
            timestamp,
        )?;
        Ok((confirmation.inclusion_root, confirmation.applied_root))
    }
}

fn previous_error(detail: impl Into<String>) -> Error {
    Error::new(Code::WhiteFlagPreviousMilestone, "previousMilestoneId", detail)
}
