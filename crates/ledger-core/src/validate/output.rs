//! Output rules (validation.md §5): amounts, native tokens, unlock conditions, features,
//! per-type constraints and the storage deposit.

use super::deposit::min_deposit;
use super::features::validate_features;
use super::ordering::{strictly_after, List};
use super::u256;
use super::unlock_conditions::validate_unlock_conditions;
use crate::error::{Code, Error, Result};
use crate::model::*;
use crate::protocol::ProtocolParameters;

pub const MAX_NATIVE_TOKENS: usize = 64;
pub const MAX_METADATA_LENGTH: usize = 8192;

/// Every rule of one output on its own; error paths start at the output (`amount`,
/// `unlockConditions[1].amount`).
pub fn validate_output(output: &Output, params: &ProtocolParameters) -> Result<()> {
    crate::path::precise(|| validate_output_at(output, params, ""))
}

/// `path` is the output's own path, e.g. `payload.essence.outputs[2]`.
pub(crate) fn validate_output_at(
    output: &Output,
    params: &ProtocolParameters,
    path: &str,
) -> Result<()> {
    let p = |field: &str| crate::path::key(path, field);
    let amount = output.amount();
    if amount == 0 {
        return Err(Error::new(
            Code::OutputAmountZero,
            p("amount"),
            "an output must hold a positive amount",
        ));
    }
    if amount > params.token_supply {
        return Err(Error::new(
            Code::OutputAmountExceedsSupply,
            p("amount"),
            format!("{amount} exceeds the token supply {}", params.token_supply),
        ));
    }
    native_tokens(output.native_tokens(), &p("nativeTokens"))?;
    let (allowed_conditions, allowed_features, allowed_immutable): (&[u8], &[u8], &[u8]) =
        match output {
            Output::Basic(_) | Output::Nft(_) => (&[0, 1, 2, 3], &[0, 2, 3], &[1, 2]),
            Output::Alias(_) => (&[4, 5], &[0, 2], &[1, 2]),
            Output::Foundry(_) => (&[6], &[2], &[2]),
            Output::Treasury { .. } => (&[], &[], &[]),
        };
    validate_unlock_conditions(output, allowed_conditions, params, &p("unlockConditions"))?;
    validate_features(output.features(), allowed_features, &p("features"))?;
    validate_features(output.immutable_features(), allowed_immutable, &p("immutableFeatures"))?;
    match output {
        Output::Alias(a) => alias_rules(a, path)?,
        Output::Foundry(f) => foundry_rules(f, path)?,
        Output::Nft(n) => nft_rules(n, path)?,
        _ => {}
    }
    let deposit = min_deposit(output, &params.rent_structure);
    if amount < deposit {
        return Err(Error::new(
            Code::StorageDepositTooLow,
            p("amount"),
            format!("{amount} is below the minimum storage deposit {deposit}"),
        ));
    }
    Ok(())
}

fn native_tokens(tokens: &[NativeToken], path: &str) -> Result<()> {
    if tokens.len() > MAX_NATIVE_TOKENS {
        return Err(Error::new(
            Code::TooManyNativeTokens,
            path,
            format!("{} native tokens, at most {MAX_NATIVE_TOKENS}", tokens.len()),
        ));
    }
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            strictly_after(&tokens[i - 1].id, &t.id, List::NativeTokens, || {
                format!("{path}[{i}].id")
            })?;
        }
        if u256::is_zero(&t.amount) {
            return Err(Error::new(
                Code::NativeTokenAmountZero,
                format!("{path}[{i}].amount"),
                "a native token amount must not be zero",
            ));
        }
    }
    Ok(())
}

fn alias_rules(a: &AliasOutput, path: &str) -> Result<()> {
    if a.state_metadata.len() > MAX_METADATA_LENGTH {
        return Err(Error::new(
            Code::StateMetadataTooLong,
            crate::path::key(path, "stateMetadata"),
            format!("{} bytes, at most {MAX_METADATA_LENGTH}", a.state_metadata.len()),
        ));
    }
    if a.alias_id == [0; 32] {
        if a.state_index != 0 || a.foundry_counter != 0 {
            return Err(Error::new(
                Code::AliasZeroIdNonzeroStateIndex,
                crate::path::key(path, "stateIndex"),
                "a new alias (zero id) starts with state index 0 and foundry counter 0",
            ));
        }
    } else {
        let own = Address::Alias(a.alias_id);
        for (i, uc) in a.unlock_conditions.iter().enumerate() {
            if let UnlockCondition::StateControllerAddress(x)
            | UnlockCondition::GovernorAddress(x) = uc
            {
                if *x == own {
                    return Err(Error::new(
                        Code::SelfControlledAlias,
                        crate::path::key(path, &format!("unlockConditions[{i}].address")),
                        "an alias cannot be controlled by its own address",
                    ));
                }
            }
        }
    }
    Ok(())
}

fn foundry_rules(f: &FoundryOutput, path: &str) -> Result<()> {
    let TokenScheme::Simple { minted_tokens, melted_tokens, maximum_supply } = &f.token_scheme;
    let bad = |why: &str| {
        Err(Error::new(
            Code::FoundrySupplyInvalid,
            crate::path::key(path, "tokenScheme"),
            why.to_string(),
        ))
    };
    if u256::is_zero(maximum_supply) {
        return bad("maximum supply must be positive");
    }
    if u256::cmp(melted_tokens, minted_tokens).is_gt() {
        return bad("melted tokens exceed minted tokens");
    }
    let circulating = u256::sub(minted_tokens, melted_tokens).expect("minted ≥ melted");
    if u256::cmp(&circulating, maximum_supply).is_gt() {
        return bad("minted minus melted tokens exceed the maximum supply");
    }
    Ok(())
}

fn nft_rules(n: &NftOutput, path: &str) -> Result<()> {
    if n.nft_id != [0; 32] {
        let own = Address::Nft(n.nft_id);
        for (i, uc) in n.unlock_conditions.iter().enumerate() {
            if matches!(uc, UnlockCondition::Address(a) if *a == own) {
                return Err(Error::new(
                    Code::SelfDepositNft,
                    crate::path::key(path, &format!("unlockConditions[{i}].address")),
                    "an NFT cannot be owned by its own address",
                ));
            }
        }
    }
    Ok(())
}
