//! Semantic validation of a transaction (validation.md §8–§9, TIP-20 and TIP-18).
//!
//! White flag calls `check_transaction` for every transaction a milestone confirms, in
//! white-flag order, after it has looked up the consumed outputs (step 1 of §8: existence
//! and double spends are the ledger's business). The steps run in the order of §8 and the
//! first failure decides the conflict reason; a conflicting transaction never changes the
//! ledger, so this function only judges and has no side effects.

mod chains;
mod conflict;
mod context;
mod deposit_return;
mod native_tokens;
mod owner;
mod precheck;
mod token_scheme;
mod unlocks;

#[cfg(test)]
mod tests;

pub use conflict::ConflictReason;
pub use precheck::Prechecked;

use crate::ids;
use crate::model::*;
use context::Context;

/// Steps 2–9 of validation.md §8 for `tx`, given the outputs its inputs consume (in input
/// order, each with its output id) and `milestone_timestamp`, the timestamp T of the
/// confirming milestone.
pub fn check_transaction(
    tx: &TransactionPayload,
    consumed: &[(OutputId, Output)],
    milestone_timestamp: u32,
) -> Result<(), ConflictReason> {
    check_prechecked_transaction(tx, consumed, milestone_timestamp, &Prechecked::unverified(tx))
}

/// `check_transaction` for a transaction whose ledger-free part was done beforehand
/// (`Prechecked::of`, typically on other threads for a whole milestone at once). Same
/// verdict and same reason as `check_transaction` for every input.
pub fn check_prechecked_transaction(
    tx: &TransactionPayload,
    consumed: &[(OutputId, Output)],
    milestone_timestamp: u32,
    pre: &Prechecked,
) -> Result<(), ConflictReason> {
    let ctx = Context::new(tx, consumed, milestone_timestamp)?;
    timelocks_expired(&ctx)?;
    inputs_commitment_matches(&ctx)?;
    let unlocked = unlocks::unlock_inputs(&ctx, pre)?;
    senders_unlocked(&ctx, &unlocked)?;
    amounts_balance(&ctx)?;
    deposit_return::returns_fulfilled(&ctx, &unlocked)?;
    native_tokens::tokens_balance(&ctx)?;
    chains::transitions_valid(&ctx, &unlocked)
}

/// Step 2: an input under a Timelock can be spent from the timelock's time on.
fn timelocks_expired(ctx: &Context) -> Result<(), ConflictReason> {
    for (_, output) in ctx.consumed {
        for uc in output.unlock_conditions() {
            if let UnlockCondition::Timelock { unix_time } = uc {
                if ctx.time < *unix_time {
                    return Err(ConflictReason::TimelockNotExpired);
                }
            }
        }
    }
    Ok(())
}

/// Step 3: the essence commits to exactly the outputs that are consumed.
fn inputs_commitment_matches(ctx: &Context) -> Result<(), ConflictReason> {
    let outputs: Vec<&Output> = ctx.consumed.iter().map(|(_, o)| o).collect();
    if ids::inputs_commitment(&outputs) != ctx.tx.essence.inputs_commitment {
        return Err(ConflictReason::InvalidInputsCommitment);
    }
    Ok(())
}

/// Step 5: a Sender feature may only name an address this transaction unlocks (§8.2).
fn senders_unlocked(ctx: &Context, unlocked: &unlocks::Unlocked) -> Result<(), ConflictReason> {
    for output in &ctx.tx.essence.outputs {
        for feature in output.features() {
            if let Feature::Sender(address) = feature {
                if !unlocked.is_unlocked(ctx, address) {
                    return Err(ConflictReason::SenderNotUnlocked);
                }
            }
        }
    }
    Ok(())
}

/// Step 6: base tokens are neither created nor destroyed. Sums in u128 cannot overflow
/// (at most 128 amounts of 64 bits each).
fn amounts_balance(ctx: &Context) -> Result<(), ConflictReason> {
    let consumed: u128 = ctx.consumed.iter().map(|(_, o)| o.amount() as u128).sum();
    let created: u128 = ctx.tx.essence.outputs.iter().map(|o| o.amount() as u128).sum();
    if consumed != created {
        return Err(ConflictReason::AmountMismatch);
    }
    Ok(())
}
