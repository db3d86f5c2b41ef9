//! Output rules (validation.md §5): amounts, native tokens, unlock conditions, features,
//! per-type constraints and the storage deposit.

use super::deposit::{min_deposit, min_return_deposit};
use super::u256;
use crate::error::{Error, Result};
use crate::model::*;
use crate::protocol::ProtocolParameters;

pub const MAX_NATIVE_TOKENS: usize = 64;
pub const MAX_METADATA_LENGTH: usize = 8192;
pub const MAX_TAG_LENGTH: usize = 64;

/// `path` is the output's own path, e.g. `payload.essence.outputs[2]`.
pub fn validate_output(output: &Output, params: &ProtocolParameters, path: &str) -> Result<()> {
    crate::path::precise(|| validate_output_at(output, params, path))
}

fn validate_output_at(output: &Output, params: &ProtocolParameters, path: &str) -> Result<()> {
    let p = |field: &str| crate::path::key(path, field);
    let amount = output.amount();
    if amount == 0 {
        return Err(Error::new("output-amount-zero", p("amount"), "an output must hold a positive amount"));
    }
    if amount > params.token_supply {
        return Err(Error::new(
            "output-amount-exceeds-supply",
            p("amount"),
            format!("{amount} exceeds the token supply {}", params.token_supply),
        ));
    }
    native_tokens(output.native_tokens(), &p("nativeTokens"))?;
    let (allowed_conditions, allowed_features, allowed_immutable): (&[u8], &[u8], &[u8]) = match output {
        Output::Basic(_) | Output::Nft(_) => (&[0, 1, 2, 3], &[0, 2, 3], &[1, 2]),
        Output::Alias(_) => (&[4, 5], &[0, 2], &[1, 2]),
        Output::Foundry(_) => (&[6], &[2], &[2]),
        Output::Treasury { .. } => (&[], &[], &[]),
    };
    unlock_conditions(output, allowed_conditions, params, &p("unlockConditions"))?;
    features(output.features(), allowed_features, &p("features"))?;
    features(output.immutable_features(), allowed_immutable, &p("immutableFeatures"))?;
    match output {
        Output::Alias(a) => alias_rules(a, path)?,
        Output::Foundry(f) => foundry_rules(f, path)?,
        Output::Nft(n) => nft_rules(n, path)?,
        _ => {}
    }
    let deposit = min_deposit(output, &params.rent_structure);
    if amount < deposit {
        return Err(Error::new(
            "storage-deposit-too-low",
            p("amount"),
            format!("{amount} is below the minimum storage deposit {deposit}"),
        ));
    }
    Ok(())
}

fn native_tokens(tokens: &[NativeToken], path: &str) -> Result<()> {
    if tokens.len() > MAX_NATIVE_TOKENS {
        return Err(Error::new(
            "too-many-native-tokens",
            path,
            format!("{} native tokens, at most {MAX_NATIVE_TOKENS}", tokens.len()),
        ));
    }
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            strictly_after(&tokens[i - 1].id, &t.id, "native-tokens", &format!("{path}[{i}].id"))?;
        }
        if u256::is_zero(&t.amount) {
            return Err(Error::new("native-token-amount-zero", format!("{path}[{i}].amount"), "a native token amount must not be zero"));
        }
    }
    Ok(())
}

/// Ascending and unique: equal → `<what>-duplicate`, smaller → `<what>-unsorted`.
pub(crate) fn strictly_after<T: Ord>(previous: &T, current: &T, what: &'static str, path: &str) -> Result<()> {
    use std::cmp::Ordering::*;
    match previous.cmp(current) {
        Less => Ok(()),
        Equal => Err(Error::new(reason(what, true), path, "duplicate entry; the list must be strictly ascending")),
        Greater => Err(Error::new(reason(what, false), path, "the list must be strictly ascending")),
    }
}

fn reason(what: &'static str, duplicate: bool) -> &'static str {
    match (what, duplicate) {
        ("native-tokens", true) => "native-tokens-duplicate",
        ("native-tokens", false) => "native-tokens-unsorted",
        ("unlock-conditions", true) => "unlock-conditions-duplicate",
        ("unlock-conditions", false) => "unlock-conditions-unsorted",
        ("features", true) => "features-duplicate",
        ("features", false) => "features-unsorted",
        ("parents", true) => "parents-duplicate",
        _ => "parents-unsorted",
    }
}

fn unlock_conditions(output: &Output, allowed: &[u8], params: &ProtocolParameters, path: &str) -> Result<()> {
    let list = output.unlock_conditions();
    for (i, uc) in list.iter().enumerate() {
        let at = crate::path::index(&path, i);
        let kind = uc.type_code();
        if !allowed.contains(&kind) {
            return Err(Error::new(
                "unlock-condition-not-allowed",
                format!("{at}.type"),
                format!("unlock condition type {kind} is not allowed in output type {}", output.type_code()),
            ));
        }
        if i > 0 {
            strictly_after(&list[i - 1].type_code(), &kind, "unlock-conditions", &format!("{at}.type"))?;
        }
        match uc {
            UnlockCondition::StorageDepositReturn { amount, .. } => {
                let minimum = min_return_deposit(&params.rent_structure);
                if *amount < minimum {
                    return Err(Error::new(
                        "storage-deposit-return-below-minimum",
                        format!("{at}.amount"),
                        format!("return amount {amount} is below the minimum deposit {minimum}"),
                    ));
                }
                if *amount > output.amount() {
                    return Err(Error::new(
                        "storage-deposit-return-exceeds-amount",
                        format!("{at}.amount"),
                        format!("return amount {amount} exceeds the output amount {}", output.amount()),
                    ));
                }
            }
            UnlockCondition::Timelock { unix_time: 0 } => {
                return Err(Error::new("timelock-zero", format!("{at}.unixTime"), "a timelock needs a non-zero time"))
            }
            UnlockCondition::Expiration { unix_time: 0, .. } => {
                return Err(Error::new("expiration-zero", format!("{at}.unixTime"), "an expiration needs a non-zero time"))
            }
            UnlockCondition::ImmutableAliasAddress(a) if !matches!(a, Address::Alias(_)) => {
                return Err(Error::new(
                    "foundry-not-alias-address",
                    format!("{at}.address"),
                    "a foundry is controlled by an alias address",
                ))
            }
            _ => {}
        }
    }
    let has = |kind: u8| list.iter().any(|uc| uc.type_code() == kind);
    match output {
        Output::Basic(_) if !has(0) => {
            Err(Error::new("basic-missing-address-unlock-condition", path, "a basic output needs an address unlock condition"))
        }
        Output::Nft(_) if !has(0) => {
            Err(Error::new("nft-missing-address-unlock-condition", path, "an NFT output needs an address unlock condition"))
        }
        Output::Alias(_) if !(has(4) && has(5)) => Err(Error::new(
            "alias-missing-controller-unlock-condition",
            path,
            "an alias output needs a state controller and a governor address",
        )),
        Output::Foundry(_) if !has(6) => Err(Error::new(
            "foundry-missing-alias-unlock-condition",
            path,
            "a foundry output needs an immutable alias address unlock condition",
        )),
        _ => Ok(()),
    }
}

fn features(list: &[Feature], allowed: &[u8], path: &str) -> Result<()> {
    for (i, f) in list.iter().enumerate() {
        let at = crate::path::index(&path, i);
        let kind = f.type_code();
        if !allowed.contains(&kind) {
            return Err(Error::new("feature-not-allowed", format!("{at}.type"), format!("feature type {kind} is not allowed here")));
        }
        if i > 0 {
            strictly_after(&list[i - 1].type_code(), &kind, "features", &format!("{at}.type"))?;
        }
        match f {
            Feature::Metadata(d) if d.is_empty() => {
                return Err(Error::new("metadata-feature-empty", format!("{at}.data"), "metadata must not be empty"))
            }
            Feature::Metadata(d) if d.len() > MAX_METADATA_LENGTH => {
                return Err(Error::new(
                    "metadata-feature-too-long",
                    format!("{at}.data"),
                    format!("{} bytes, at most {MAX_METADATA_LENGTH}", d.len()),
                ))
            }
            Feature::Tag(t) if t.is_empty() => {
                return Err(Error::new("tag-feature-empty", format!("{at}.tag"), "a tag must not be empty"))
            }
            Feature::Tag(t) if t.len() > MAX_TAG_LENGTH => {
                return Err(Error::new(
                    "tag-feature-too-long",
                    format!("{at}.tag"),
                    format!("{} bytes, at most {MAX_TAG_LENGTH}", t.len()),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

fn alias_rules(a: &AliasOutput, path: &str) -> Result<()> {
    if a.state_metadata.len() > MAX_METADATA_LENGTH {
        return Err(Error::new(
            "state-metadata-too-long",
            format!("{path}.stateMetadata"),
            format!("{} bytes, at most {MAX_METADATA_LENGTH}", a.state_metadata.len()),
        ));
    }
    if a.alias_id == [0; 32] {
        if a.state_index != 0 || a.foundry_counter != 0 {
            return Err(Error::new(
                "alias-zero-id-nonzero-state-index",
                format!("{path}.stateIndex"),
                "a new alias (zero id) starts with state index 0 and foundry counter 0",
            ));
        }
    } else {
        let own = Address::Alias(a.alias_id);
        for (i, uc) in a.unlock_conditions.iter().enumerate() {
            if let UnlockCondition::StateControllerAddress(x) | UnlockCondition::GovernorAddress(x) = uc {
                if *x == own {
                    return Err(Error::new(
                        "self-controlled-alias",
                        format!("{path}.unlockConditions[{i}].address"),
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
    let bad = |why: &str| Err(Error::new("foundry-supply-invalid", format!("{path}.tokenScheme"), why.to_string()));
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
                    "self-deposit-nft",
                    format!("{path}.unlockConditions[{i}].address"),
                    "an NFT cannot be owned by its own address",
                ));
            }
        }
    }
    Ok(())
}
