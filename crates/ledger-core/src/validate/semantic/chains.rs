//! Step 9: alias, NFT and foundry transitions (validation.md §8.5, TIP-18). Every
//! violation is reason 12.

use super::context::{foundry_alias, foundry_id_of, AliasTransition, Context};
use super::native_tokens::token_sums;
use super::token_scheme;
use super::unlocks::Unlocked;
use super::ConflictReason;
use crate::model::*;
use std::collections::HashMap;

const INVALID: ConflictReason = ConflictReason::InvalidChainStateTransition;

fn check(ok: bool) -> Result<(), ConflictReason> {
    if ok {
        Ok(())
    } else {
        Err(INVALID)
    }
}

pub(super) fn transitions_valid(ctx: &Context, unlocked: &Unlocked) -> Result<(), ConflictReason> {
    check(!ctx.malformed_output_chains)?;
    let new_foundries = foundries_valid(ctx)?;
    let outputs = &ctx.tx.essence.outputs;
    for output in outputs {
        match output {
            Output::Alias(next) if next.alias_id == [0; 32] => {
                issuer_unlocked(ctx, unlocked, &next.immutable_features)?
            }
            Output::Alias(next) => {
                let &i = ctx.input_aliases.get(&next.alias_id).ok_or(INVALID)?;
                let Output::Alias(current) = &ctx.consumed[i].1 else { return Err(INVALID) };
                check(current.immutable_features == next.immutable_features)?;
                match ctx.alias_transition(i) {
                    AliasTransition::State => {
                        let created =
                            new_foundries.get(&next.alias_id).map_or(0, |(count, _)| *count);
                        check(state_transition_valid(current, next, created))?
                    }
                    AliasTransition::Governance => {
                        check(governance_transition_valid(current, next))?
                    }
                    _ => return Err(INVALID),
                }
            }
            Output::Nft(next) if next.nft_id == [0; 32] => {
                issuer_unlocked(ctx, unlocked, &next.immutable_features)?
            }
            Output::Nft(next) => {
                let &i = ctx.input_nfts.get(&next.nft_id).ok_or(INVALID)?;
                check(ctx.consumed[i].1.immutable_features() == &next.immutable_features[..])?;
            }
            _ => {}
        }
    }
    // Consumed aliases and NFTs missing on the output side are destroyed, which needs no
    // more than the unlock already checked (a governor for an alias).
    Ok(())
}

/// A new chain's Issuer must be unlocked in the transaction that creates it.
fn issuer_unlocked(
    ctx: &Context,
    unlocked: &Unlocked,
    immutable_features: &[Feature],
) -> Result<(), ConflictReason> {
    for feature in immutable_features {
        if let Feature::Issuer(address) = feature {
            check(unlocked.is_unlocked(ctx, address))?;
        }
    }
    Ok(())
}

fn metadata(features: &[Feature]) -> Option<&Vec<u8>> {
    features.iter().find_map(|f| match f {
        Feature::Metadata(data) => Some(data),
        _ => None,
    })
}

/// State transition (index + 1): controllers and Metadata feature unchanged; the foundry
/// counter grows by exactly the number of foundries this alias creates here.
fn state_transition_valid(
    current: &AliasOutput,
    next: &AliasOutput,
    created_foundries: u32,
) -> bool {
    current.unlock_conditions == next.unlock_conditions
        && metadata(&current.features) == metadata(&next.features)
        && next.foundry_counter.checked_sub(current.foundry_counter) == Some(created_foundries)
}

/// Governance transition (same index): only controllers and features may change.
fn governance_transition_valid(current: &AliasOutput, next: &AliasOutput) -> bool {
    current.amount == next.amount
        && current.native_tokens == next.native_tokens
        && current.state_metadata == next.state_metadata
        && current.foundry_counter == next.foundry_counter
}

/// Every foundry created, transitioned or destroyed; returns, per alias, how many
/// foundries it creates and the last serial number.
fn foundries_valid(ctx: &Context) -> Result<HashMap<Id32, (u32, u32)>, ConflictReason> {
    let mut created: HashMap<Id32, (u32, u32)> = HashMap::new();
    if ctx.input_foundries.is_empty() && ctx.output_foundries.is_empty() {
        return Ok(created);
    }
    // Step 8 already rejected sums that leave u256.
    let consumed_sums = token_sums(ctx.consumed.iter().map(|(_, o)| o))
        .ok_or(ConflictReason::InvalidNativeTokens)?;
    let created_sums =
        token_sums(ctx.tx.essence.outputs.iter()).ok_or(ConflictReason::InvalidNativeTokens)?;
    let zero = [0u8; 32];
    let sums = |id: &TokenId| {
        (consumed_sums.get(id).unwrap_or(&zero), created_sums.get(id).unwrap_or(&zero))
    };

    for output in &ctx.tx.essence.outputs {
        let Output::Foundry(next) = output else { continue };
        let (Some(id), Some(alias)) = (foundry_id_of(next), foundry_alias(next)) else {
            return Err(INVALID);
        };
        let (in_sum, out_sum) = sums(&id);
        match ctx.input_foundries.get(&id) {
            Some(&i) => {
                let Output::Foundry(current) = &ctx.consumed[i].1 else { return Err(INVALID) };
                check(current.immutable_features == next.immutable_features)?;
                check(token_scheme::transition_valid(
                    &current.token_scheme,
                    &next.token_scheme,
                    in_sum,
                    out_sum,
                ))?;
            }
            None => {
                // Only a state-transitioned alias creates foundries, numbered in order
                // above its old counter and up to its new one.
                check(ctx.alias_state_transitioned(&alias))?;
                let Output::Alias(old) = &ctx.consumed[ctx.input_aliases[&alias]].1 else {
                    return Err(INVALID);
                };
                let &j = ctx.output_aliases.get(&alias).ok_or(INVALID)?;
                let Output::Alias(new) = &ctx.tx.essence.outputs[j] else { return Err(INVALID) };
                check(
                    next.serial_number > old.foundry_counter
                        && next.serial_number <= new.foundry_counter,
                )?;
                let entry = created.entry(alias).or_insert((0, old.foundry_counter));
                check(next.serial_number > entry.1)?;
                *entry = (entry.0 + 1, next.serial_number);
                check(token_scheme::creation_valid(&next.token_scheme, in_sum, out_sum))?;
            }
        }
    }
    for (id, &i) in &ctx.input_foundries {
        if ctx.output_foundries.contains_key(id) {
            continue;
        }
        let Output::Foundry(current) = &ctx.consumed[i].1 else { return Err(INVALID) };
        let (in_sum, out_sum) = sums(id);
        check(token_scheme::destruction_valid(&current.token_scheme, in_sum, out_sum))?;
    }
    Ok(created)
}
