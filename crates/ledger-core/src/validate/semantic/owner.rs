//! Which address owns a consumed output at time T (validation.md §8.1, first table).

use super::context::{AliasTransition, Context};
use super::ConflictReason;
use crate::model::*;

/// The address whose unlock input `index` needs. An alias input whose output-side State
/// Index is neither the same nor one more has no valid owner: that is a chain error (12).
pub(super) fn owner_of(ctx: &Context, index: usize) -> Result<Address, ConflictReason> {
    let output = &ctx.consumed[index].1;
    let conditions = output.unlock_conditions();
    let find = |pick: fn(&UnlockCondition) -> Option<Address>| {
        conditions.iter().find_map(pick).ok_or(ConflictReason::SemanticValidationFailed)
    };
    match output {
        Output::Basic(_) | Output::Nft(_) => {
            // After the expiration time the return address owns the output, and only it.
            let expired_to = conditions.iter().find_map(|uc| match uc {
                UnlockCondition::Expiration { return_address, unix_time }
                    if ctx.time >= *unix_time =>
                {
                    Some(*return_address)
                }
                _ => None,
            });
            match expired_to {
                Some(address) => Ok(address),
                None => find(|uc| match uc {
                    UnlockCondition::Address(a) => Some(*a),
                    _ => None,
                }),
            }
        }
        Output::Alias(_) => match ctx.alias_transition(index) {
            AliasTransition::State => find(|uc| match uc {
                UnlockCondition::StateControllerAddress(a) => Some(*a),
                _ => None,
            }),
            AliasTransition::Governance | AliasTransition::Destruction => find(|uc| match uc {
                UnlockCondition::GovernorAddress(a) => Some(*a),
                _ => None,
            }),
            AliasTransition::Invalid => Err(ConflictReason::InvalidChainStateTransition),
        },
        Output::Foundry(_) => find(|uc| match uc {
            UnlockCondition::ImmutableAliasAddress(a) => Some(*a),
            _ => None,
        }),
        Output::Treasury { .. } => Err(ConflictReason::SemanticValidationFailed),
    }
}
