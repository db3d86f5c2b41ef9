//! Outputs (wire-format §7.6): the five output types, field by field in wire order. Their
//! parts live beside: native_token.rs, unlock_condition.rs, feature.rs.

use super::feature::{read_features, write_features};
use super::native_token::{
    read_native_tokens, read_token_scheme, write_native_tokens, write_token_scheme,
};
use super::reader::{field, Reader};
use super::unlock_condition::{read_unlock_conditions, write_unlock_conditions};
use super::writer::Write;
use crate::error::{Code, Error, Result};
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
            write_token_scheme(out, &o.token_scheme);
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
            let token_scheme = read_token_scheme(r, &field(path, "tokenScheme"))?;
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
        other => {
            return Err(Error::new(
                Code::UnknownOutputType,
                field(path, "type"),
                format!("unknown output type {other}"),
            ))
        }
    })
}
