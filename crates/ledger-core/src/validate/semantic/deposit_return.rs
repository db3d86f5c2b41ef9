//! Step 7: storage deposit returns are fulfilled (validation.md §8.3).

use super::context::Context;
use super::unlocks::Unlocked;
use super::ConflictReason;
use crate::model::*;
use std::collections::HashMap;

pub(super) fn returns_fulfilled(ctx: &Context, unlocked: &Unlocked) -> Result<(), ConflictReason> {
    let mut need: HashMap<Address, u128> = HashMap::new();
    for (i, (_, output)) in ctx.consumed.iter().enumerate() {
        for uc in output.unlock_conditions() {
            if let UnlockCondition::StorageDepositReturn { return_address, amount } = uc {
                // The return address taking the output itself (after expiration, or when it
                // is also the owner) owes nothing to itself.
                if unlocked.owners[i] != *return_address {
                    *need.entry(*return_address).or_default() += *amount as u128;
                }
            }
        }
    }
    if need.is_empty() {
        return Ok(());
    }
    let mut have: HashMap<Address, u128> = HashMap::new();
    for output in &ctx.tx.essence.outputs {
        // Only a plain return counts: a Basic output with nothing but an Address condition,
        // which its receiver can spend at once.
        if let Output::Basic(b) = output {
            if let ([UnlockCondition::Address(address)], true, true) =
                (&b.unlock_conditions[..], b.native_tokens.is_empty(), b.features.is_empty())
            {
                *have.entry(*address).or_default() += b.amount as u128;
            }
        }
    }
    for (address, needed) in need {
        if have.get(&address).copied().unwrap_or(0) < needed {
            return Err(ConflictReason::StorageDepositReturnUnfulfilled);
        }
    }
    Ok(())
}
