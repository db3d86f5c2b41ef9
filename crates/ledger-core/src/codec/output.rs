//! Outputs and their parts (wire-format §7.3–§7.6).

use super::address::{read_address, write_address};
use super::reader::{at, field, Reader};
use super::writer::Write;
use crate::error::{Error, Result};
use crate::model::*;

pub fn write_output(out: &mut Vec<u8>, output: &Output) {
    out.u8(output.type_code());
    match output {
        Output::Treasury { amount } => out.u64(*amount),
        Output::Basic(o) => {
            out.u64(o.amount);
            write_native_tokens(out, &o.native_tokens);
            write_unlock_conditions(out, &o.unlock_conditions);
            write_features(out, &o.features);
        }
        Output::Alias(o) => {
            out.u64(o.amount);
            write_native_tokens(out, &o.native_tokens);
            out.bytes(&o.alias_id);
            out.u32(o.state_index);
            out.u16(o.state_metadata.len() as u16);
            out.bytes(&o.state_metadata);
            out.u32(o.foundry_counter);
            write_unlock_conditions(out, &o.unlock_conditions);
            write_features(out, &o.features);
            write_features(out, &o.immutable_features);
        }
        Output::Foundry(o) => {
            out.u64(o.amount);
            write_native_tokens(out, &o.native_tokens);
            out.u32(o.serial_number);
            let TokenScheme::Simple { minted_tokens, melted_tokens, maximum_supply } = &o.token_scheme;
            out.u8(0);
            out.bytes(minted_tokens);
            out.bytes(melted_tokens);
            out.bytes(maximum_supply);
            write_unlock_conditions(out, &o.unlock_conditions);
            write_features(out, &o.features);
            write_features(out, &o.immutable_features);
        }
        Output::Nft(o) => {
            out.u64(o.amount);
            write_native_tokens(out, &o.native_tokens);
            out.bytes(&o.nft_id);
            write_unlock_conditions(out, &o.unlock_conditions);
            write_features(out, &o.features);
            write_features(out, &o.immutable_features);
        }
    }
}

/// Serialized length of an output, computed without serializing it (storage deposit).
pub fn output_len(output: &Output) -> usize {
    fn features_len(fs: &[Feature]) -> usize {
        1 + fs
            .iter()
            .map(|f| match f {
                Feature::Sender(_) | Feature::Issuer(_) => 34,
                Feature::Metadata(d) => 3 + d.len(),
                Feature::Tag(t) => 2 + t.len(),
            })
            .sum::<usize>()
    }
    fn conditions_len(ucs: &[UnlockCondition]) -> usize {
        1 + ucs
            .iter()
            .map(|uc| match uc {
                UnlockCondition::Address(_)
                | UnlockCondition::StateControllerAddress(_)
                | UnlockCondition::GovernorAddress(_)
                | UnlockCondition::ImmutableAliasAddress(_) => 34,
                UnlockCondition::StorageDepositReturn { .. } => 42,
                UnlockCondition::Timelock { .. } => 5,
                UnlockCondition::Expiration { .. } => 38,
            })
            .sum::<usize>()
    }
    let tokens = |nt: &[NativeToken]| 1 + 70 * nt.len();
    match output {
        Output::Treasury { .. } => 9,
        Output::Basic(o) => 9 + tokens(&o.native_tokens) + conditions_len(&o.unlock_conditions) + features_len(&o.features),
        Output::Alias(o) => {
            9 + tokens(&o.native_tokens)
                + 32
                + 4
                + 2
                + o.state_metadata.len()
                + 4
                + conditions_len(&o.unlock_conditions)
                + features_len(&o.features)
                + features_len(&o.immutable_features)
        }
        Output::Foundry(o) => {
            9 + tokens(&o.native_tokens)
                + 4
                + 97
                + conditions_len(&o.unlock_conditions)
                + features_len(&o.features)
                + features_len(&o.immutable_features)
        }
        Output::Nft(o) => {
            9 + tokens(&o.native_tokens)
                + 32
                + conditions_len(&o.unlock_conditions)
                + features_len(&o.features)
                + features_len(&o.immutable_features)
        }
    }
}

pub fn read_output(r: &mut Reader, path: &str) -> Result<Output> {
    let kind = r.u8(&field(path, "type"))?;
    let amount_path = field(path, "amount");
    Ok(match kind {
        2 => Output::Treasury { amount: r.u64(&amount_path)? },
        3 => {
            let amount = r.u64(&amount_path)?;
            Output::Basic(BasicOutput {
                amount,
                native_tokens: read_native_tokens(r, &field(path, "nativeTokens"))?,
                unlock_conditions: read_unlock_conditions(r, &field(path, "unlockConditions"))?,
                features: read_features(r, &field(path, "features"))?,
            })
        }
        4 => {
            let amount = r.u64(&amount_path)?;
            let native_tokens = read_native_tokens(r, &field(path, "nativeTokens"))?;
            let alias_id = r.array(&field(path, "aliasId"))?;
            let state_index = r.u32(&field(path, "stateIndex"))?;
            let state_metadata = r.u16_prefixed(&field(path, "stateMetadata"))?;
            let foundry_counter = r.u32(&field(path, "foundryCounter"))?;
            Output::Alias(AliasOutput {
                amount,
                native_tokens,
                alias_id,
                state_index,
                state_metadata,
                foundry_counter,
                unlock_conditions: read_unlock_conditions(r, &field(path, "unlockConditions"))?,
                features: read_features(r, &field(path, "features"))?,
                immutable_features: read_features(r, &field(path, "immutableFeatures"))?,
            })
        }
        5 => {
            let amount = r.u64(&amount_path)?;
            let native_tokens = read_native_tokens(r, &field(path, "nativeTokens"))?;
            let serial_number = r.u32(&field(path, "serialNumber"))?;
            let scheme_path = field(path, "tokenScheme");
            let scheme_type = r.u8(&field(&scheme_path, "type"))?;
            if scheme_type != 0 {
                return Err(Error::new(
                    "unknown-token-scheme-type",
                    field(&scheme_path, "type"),
                    format!("unknown token scheme type {scheme_type}"),
                ));
            }
            let token_scheme = TokenScheme::Simple {
                minted_tokens: r.array(&field(&scheme_path, "mintedTokens"))?,
                melted_tokens: r.array(&field(&scheme_path, "meltedTokens"))?,
                maximum_supply: r.array(&field(&scheme_path, "maximumSupply"))?,
            };
            Output::Foundry(FoundryOutput {
                amount,
                native_tokens,
                serial_number,
                token_scheme,
                unlock_conditions: read_unlock_conditions(r, &field(path, "unlockConditions"))?,
                features: read_features(r, &field(path, "features"))?,
                immutable_features: read_features(r, &field(path, "immutableFeatures"))?,
            })
        }
        6 => {
            let amount = r.u64(&amount_path)?;
            let native_tokens = read_native_tokens(r, &field(path, "nativeTokens"))?;
            Output::Nft(NftOutput {
                amount,
                native_tokens,
                nft_id: r.array(&field(path, "nftId"))?,
                unlock_conditions: read_unlock_conditions(r, &field(path, "unlockConditions"))?,
                features: read_features(r, &field(path, "features"))?,
                immutable_features: read_features(r, &field(path, "immutableFeatures"))?,
            })
        }
        other => return Err(Error::new("unknown-output-type", field(path, "type"), format!("unknown output type {other}"))),
    })
}

fn write_native_tokens(out: &mut Vec<u8>, tokens: &[NativeToken]) {
    out.u8(tokens.len() as u8);
    for t in tokens {
        out.bytes(&t.id);
        out.bytes(&t.amount);
    }
}

fn read_native_tokens(r: &mut Reader, path: &str) -> Result<Vec<NativeToken>> {
    let count = r.u8(path)? as usize;
    r.check_len(count, 70, path)?;
    let mut tokens = Vec::with_capacity(count);
    for i in 0..count {
        let p = at(path, i);
        tokens.push(NativeToken { id: r.array(&field(&p, "id"))?, amount: r.array(&field(&p, "amount"))? });
    }
    Ok(tokens)
}

pub fn write_unlock_conditions(out: &mut Vec<u8>, conditions: &[UnlockCondition]) {
    out.u8(conditions.len() as u8);
    for uc in conditions {
        out.u8(uc.type_code());
        match uc {
            UnlockCondition::Address(a)
            | UnlockCondition::StateControllerAddress(a)
            | UnlockCondition::GovernorAddress(a)
            | UnlockCondition::ImmutableAliasAddress(a) => write_address(out, a),
            UnlockCondition::StorageDepositReturn { return_address, amount } => {
                write_address(out, return_address);
                out.u64(*amount);
            }
            UnlockCondition::Timelock { unix_time } => out.u32(*unix_time),
            UnlockCondition::Expiration { return_address, unix_time } => {
                write_address(out, return_address);
                out.u32(*unix_time);
            }
        }
    }
}

fn read_unlock_conditions(r: &mut Reader, path: &str) -> Result<Vec<UnlockCondition>> {
    let count = r.u8(path)? as usize;
    r.check_len(count, 5, path)?;
    let mut list = Vec::with_capacity(count);
    for i in 0..count {
        let p = at(path, i);
        let kind = r.u8(&field(&p, "type"))?;
        list.push(match kind {
            0 => UnlockCondition::Address(read_address(r, &field(&p, "address"))?),
            1 => UnlockCondition::StorageDepositReturn {
                return_address: read_address(r, &field(&p, "returnAddress"))?,
                amount: r.u64(&field(&p, "amount"))?,
            },
            2 => UnlockCondition::Timelock { unix_time: r.u32(&field(&p, "unixTime"))? },
            3 => UnlockCondition::Expiration {
                return_address: read_address(r, &field(&p, "returnAddress"))?,
                unix_time: r.u32(&field(&p, "unixTime"))?,
            },
            4 => UnlockCondition::StateControllerAddress(read_address(r, &field(&p, "address"))?),
            5 => UnlockCondition::GovernorAddress(read_address(r, &field(&p, "address"))?),
            6 => UnlockCondition::ImmutableAliasAddress(read_address(r, &field(&p, "address"))?),
            other => {
                return Err(Error::new(
                    "unknown-unlock-condition-type",
                    field(&p, "type"),
                    format!("unknown unlock condition type {other}"),
                ))
            }
        });
    }
    Ok(list)
}

pub fn write_features(out: &mut Vec<u8>, features: &[Feature]) {
    out.u8(features.len() as u8);
    for f in features {
        out.u8(f.type_code());
        match f {
            Feature::Sender(a) | Feature::Issuer(a) => write_address(out, a),
            Feature::Metadata(d) => {
                out.u16(d.len() as u16);
                out.bytes(d);
            }
            Feature::Tag(t) => {
                out.u8(t.len() as u8);
                out.bytes(t);
            }
        }
    }
}

fn read_features(r: &mut Reader, path: &str) -> Result<Vec<Feature>> {
    let count = r.u8(path)? as usize;
    r.check_len(count, 2, path)?;
    let mut list = Vec::with_capacity(count);
    for i in 0..count {
        let p = at(path, i);
        let kind = r.u8(&field(&p, "type"))?;
        list.push(match kind {
            0 => Feature::Sender(read_address(r, &field(&p, "address"))?),
            1 => Feature::Issuer(read_address(r, &field(&p, "address"))?),
            2 => Feature::Metadata(r.u16_prefixed(&field(&p, "data"))?),
            3 => Feature::Tag(r.u8_prefixed(&field(&p, "tag"))?),
            other => return Err(Error::new("unknown-feature-type", field(&p, "type"), format!("unknown feature type {other}"))),
        });
    }
    Ok(list)
}
