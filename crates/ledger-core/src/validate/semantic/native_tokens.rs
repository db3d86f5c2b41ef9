//! Step 8: native token balances (validation.md §8.4).

use super::context::Context;
use super::ConflictReason;
use crate::model::*;
use crate::validate::u256;
use std::collections::HashMap;

pub const MAX_NATIVE_TOKENS_PER_TRANSACTION: usize = 64;

/// Sum of each native token over a list of outputs; None if a sum leaves u256.
pub(super) fn token_sums<'o>(
    outputs: impl Iterator<Item = &'o Output>,
) -> Option<HashMap<TokenId, U256>> {
    let mut sums: HashMap<TokenId, U256> = HashMap::new();
    for output in outputs {
        for token in output.native_tokens() {
            let sum = sums.entry(token.id).or_insert([0; 32]);
            *sum = u256::add(sum, &token.amount)?;
        }
    }
    Some(sums)
}

pub(super) fn tokens_balance(ctx: &Context) -> Result<(), ConflictReason> {
    let invalid = ConflictReason::InvalidNativeTokens;
    let consumed = token_sums(ctx.consumed.iter().map(|(_, o)| o)).ok_or(invalid)?;
    let created = token_sums(ctx.tx.essence.outputs.iter()).ok_or(invalid)?;
    if consumed.len() > MAX_NATIVE_TOKENS_PER_TRANSACTION {
        return Err(invalid);
    }
    let only_created = created.keys().filter(|id| !consumed.contains_key(*id)).count();
    if consumed.len() + only_created > MAX_NATIVE_TOKENS_PER_TRANSACTION {
        return Err(invalid);
    }
    for (id, out_sum) in &created {
        // A foundry on the output side balances its own token (§8.5, step 9).
        if ctx.output_foundries.contains_key(id) {
            continue;
        }
        // Without its foundry a token can only be moved or burned, never created.
        let in_sum = consumed.get(id).copied().unwrap_or([0; 32]);
        if u256::cmp(out_sum, &in_sum).is_gt() {
            return Err(invalid);
        }
    }
    Ok(())
}
