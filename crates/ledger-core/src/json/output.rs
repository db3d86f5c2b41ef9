//! Outputs and their parts ↔ JSON (wire-format §7.2–§7.6).

use super::read::*;
use crate::error::{Code, Error, Result};
use crate::model::*;
use serde_json::Value;

pub fn address_from_json(v: &Value, path: &str) -> Result<Address> {
    crate::path::precise(|| address_from_json_at(v, path))
}

fn address_from_json_at(v: &Value, path: &str) -> Result<Address> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    Ok(match kind {
        0 => Address::Ed25519(field_fixed_hex(o, "pubKeyHash", path)?),
        8 => Address::Alias(field_fixed_hex(o, "aliasId", path)?),
        16 => Address::Nft(field_fixed_hex(o, "nftId", path)?),
        other => {
            return Err(Error::new(
                Code::UnknownAddressType,
                path_of(path, "type"),
                format!("unknown address type {other}"),
            ))
        }
    })
}

fn amount(o: &Obj, key: &str, path: &str) -> Result<u64> {
    u64_decimal(
        required(o, key, path)?,
        &path_of(path, key),
        Code::AmountNotDecimal,
        Code::AmountOverflowU64,
    )
}

pub fn output_from_json(v: &Value) -> Result<Output> {
    crate::path::precise(|| output_from_json_at(v, ""))
}

pub fn output_from_json_at(v: &Value, path: &str) -> Result<Output> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    if kind == 2 {
        return Ok(Output::Treasury { amount: amount(o, "amount", path)? });
    }
    if !(3..=6).contains(&kind) {
        return Err(Error::new(
            Code::UnknownOutputType,
            path_of(path, "type"),
            format!("unknown output type {kind}"),
        ));
    }
    let amount = amount(o, "amount", path)?;
    let native_tokens = native_tokens_from_json(o, path)?;
    let unlock_conditions = list(o, "unlockConditions", path, unlock_condition_from_json)?;
    let features = list(o, "features", path, feature_from_json)?;
    Ok(match kind {
        3 => Output::Basic(BasicOutput { amount, native_tokens, unlock_conditions, features }),
        4 => Output::Alias(AliasOutput {
            amount,
            native_tokens,
            alias_id: field_fixed_hex(o, "aliasId", path)?,
            state_index: field_integer(o, "stateIndex", u32::MAX as u64, path)? as u32,
            state_metadata: bounded_hex(
                o,
                "stateMetadata",
                path,
                u16::MAX as usize,
                Code::StateMetadataTooLong,
            )?,
            foundry_counter: field_integer(o, "foundryCounter", u32::MAX as u64, path)? as u32,
            unlock_conditions,
            features,
            immutable_features: list(o, "immutableFeatures", path, feature_from_json)?,
        }),
        5 => Output::Foundry(FoundryOutput {
            amount,
            native_tokens,
            serial_number: field_integer(o, "serialNumber", u32::MAX as u64, path)? as u32,
            token_scheme: token_scheme_from_json(
                required(o, "tokenScheme", path)?,
                &path_of(path, "tokenScheme"),
            )?,
            unlock_conditions,
            features,
            immutable_features: list(o, "immutableFeatures", path, feature_from_json)?,
        }),
        _ => Output::Nft(NftOutput {
            amount,
            native_tokens,
            nft_id: field_fixed_hex(o, "nftId", path)?,
            unlock_conditions,
            features,
            immutable_features: list(o, "immutableFeatures", path, feature_from_json)?,
        }),
    })
}

fn list<T>(o: &Obj, key: &str, path: &str, each: fn(&Value, &str) -> Result<T>) -> Result<Vec<T>> {
    let list_path = path_of(path, key);
    let items = optional_array(o, key, path)?;
    if items.len() > 255 {
        let code =
            if key == "nativeTokens" { Code::TooManyNativeTokens } else { Code::NumberOutOfRange };
        return Err(Error::new(code, list_path, "at most 255 entries fit the wire format"));
    }
    items.iter().enumerate().map(|(i, v)| each(v, &path_at(&list_path, i))).collect()
}

fn native_tokens_from_json(o: &Obj, path: &str) -> Result<Vec<NativeToken>> {
    list(o, "nativeTokens", path, |v, p| {
        let t = object(v, p)?;
        Ok(NativeToken {
            id: field_fixed_hex(t, "id", p)?,
            amount: u256(
                required(t, "amount", p)?,
                &path_of(p, "amount"),
                Code::NativeTokenAmountNotHex,
                Code::NativeTokenAmountOverUint256,
            )?,
        })
    })
}

fn token_scheme_from_json(v: &Value, path: &str) -> Result<TokenScheme> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    if kind != 0 {
        return Err(Error::new(
            Code::UnknownTokenSchemeType,
            path_of(path, "type"),
            format!("unknown token scheme type {kind}"),
        ));
    }
    let value = |key: &str| {
        u256(
            required(o, key, path)?,
            &path_of(path, key),
            Code::TokenAmountNotHex,
            Code::TokenAmountOverUint256,
        )
    };
    Ok(TokenScheme::Simple {
        minted_tokens: value("mintedTokens")?,
        melted_tokens: value("meltedTokens")?,
        maximum_supply: value("maximumSupply")?,
    })
}

fn unlock_condition_from_json(v: &Value, path: &str) -> Result<UnlockCondition> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    let addr = |key: &str| address_from_json(required(o, key, path)?, &path_of(path, key));
    let unix_time =
        || Ok::<u32, Error>(field_integer(o, "unixTime", u32::MAX as u64, path)? as u32);
    Ok(match kind {
        0 => UnlockCondition::Address(addr("address")?),
        1 => {
            // `amount` (Hornet, iota-sdk) or TIP-25's `returnAmount` (D15).
            let key = if optional(o, "amount").is_some() { "amount" } else { "returnAmount" };
            UnlockCondition::StorageDepositReturn {
                return_address: addr("returnAddress")?,
                amount: amount(o, key, path)?,
            }
        }
        2 => UnlockCondition::Timelock { unix_time: unix_time()? },
        3 => UnlockCondition::Expiration {
            return_address: addr("returnAddress")?,
            unix_time: unix_time()?,
        },
        4 => UnlockCondition::StateControllerAddress(addr("address")?),
        5 => UnlockCondition::GovernorAddress(addr("address")?),
        6 => UnlockCondition::ImmutableAliasAddress(addr("address")?),
        other => {
            return Err(Error::new(
                Code::UnknownUnlockConditionType,
                path_of(path, "type"),
                format!("unknown unlock condition type {other}"),
            ))
        }
    })
}

fn feature_from_json(v: &Value, path: &str) -> Result<Feature> {
    let o = object(v, path)?;
    let kind = field_integer(o, "type", 255, path)?;
    Ok(match kind {
        0 => Feature::Sender(address_from_json(
            required(o, "address", path)?,
            &path_of(path, "address"),
        )?),
        1 => Feature::Issuer(address_from_json(
            required(o, "address", path)?,
            &path_of(path, "address"),
        )?),
        2 => Feature::Metadata(bounded_hex(
            o,
            "data",
            path,
            u16::MAX as usize,
            Code::MetadataFeatureTooLong,
        )?),
        3 => Feature::Tag(bounded_hex(o, "tag", path, u8::MAX as usize, Code::TagFeatureTooLong)?),
        other => {
            return Err(Error::new(
                Code::UnknownFeatureType,
                path_of(path, "type"),
                format!("unknown feature type {other}"),
            ))
        }
    })
}

/// A byte string whose wire length prefix has a maximum (u8/u16). Longer ones cannot be
/// encoded at all; they are reported with the reason of the rule whose (lower) limit they
/// also break, so JSON and bytes name the same defect alike.
pub fn bounded_hex(o: &Obj, key: &str, path: &str, max: usize, too_long: Code) -> Result<Vec<u8>> {
    let bytes = optional_hex(o, key, path)?;
    if bytes.len() > max {
        return Err(Error::new(
            too_long,
            path_of(path, key),
            format!("{} bytes do not fit a length prefix of at most {max}", bytes.len()),
        ));
    }
    Ok(bytes)
}
