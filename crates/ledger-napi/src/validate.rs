//! Syntactic validation of whole blocks (validation.md §2–§7) and storage deposits.

use crate::codec::block_from_json_text;
use crate::errors::{invalid_argument, to_napi, Result};
use ledger_core::protocol::{ProtocolParameters, RentStructure};
use ledger_core::{codec, json, validate};
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use serde_json::Value;

fn number(o: &Value, key: &str, max: u64) -> Result<u64> {
    o.get(key).and_then(Value::as_u64).filter(|v| *v <= max).ok_or_else(|| {
        invalid_argument(&format!("protocol.{key}"), format!("expected an integer up to {max}"))
    })
}

fn rent_of(o: &Value, path: &str) -> Result<RentStructure> {
    let field = |key: &str, max: u64| {
        o.get(key).and_then(Value::as_u64).filter(|v| *v <= max).ok_or_else(|| {
            invalid_argument(&format!("{path}.{key}"), format!("expected an integer up to {max}"))
        })
    };
    Ok(RentStructure {
        v_byte_cost: field("vByteCost", u32::MAX as u64)? as u32,
        v_byte_factor_data: field("vByteFactorData", 255)? as u8,
        v_byte_factor_key: field("vByteFactorKey", 255)? as u8,
    })
}

/// The `protocol` object of the info endpoint (api.md §2.3); absent = development network.
pub fn protocol_of(protocol_json: Option<String>) -> Result<ProtocolParameters> {
    let Some(text) = protocol_json else { return Ok(ProtocolParameters::dev_default()) };
    let o = json::parse(&text).map_err(to_napi)?;
    let text_field = |key: &str| {
        o.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| invalid_argument(&format!("protocol.{key}"), "expected a string"))
    };
    let supply = match o.get("tokenSupply") {
        Some(Value::String(s)) => s.parse::<u64>().ok(),
        Some(v) => v.as_u64(),
        None => None,
    }
    .ok_or_else(|| invalid_argument("protocol.tokenSupply", "expected a decimal string"))?;
    Ok(ProtocolParameters {
        version: number(&o, "version", 255)? as u8,
        network_name: text_field("networkName")?,
        bech32_hrp: text_field("bech32Hrp")?,
        min_pow_score: number(&o, "minPowScore", u32::MAX as u64)? as u32,
        below_max_depth: number(&o, "belowMaxDepth", 255)? as u8,
        rent_structure: rent_of(
            o.get("rentStructure").unwrap_or(&Value::Null),
            "protocol.rentStructure",
        )?,
        token_supply: supply,
    })
}

#[napi]
pub fn validate_block_bytes(bytes: Buffer, protocol_json: Option<String>) -> Result<()> {
    let params = protocol_of(protocol_json)?;
    let block = codec::decode_block(&bytes).map_err(to_napi)?;
    validate::validate_block(&block, &bytes, &params).map_err(to_napi)
}

#[napi]
pub fn validate_block_json(json_text: String, protocol_json: Option<String>) -> Result<()> {
    let params = protocol_of(protocol_json)?;
    let block = block_from_json_text(&json_text)?;
    let bytes = codec::encode_block(&block);
    validate::validate_block(&block, &bytes, &params).map_err(to_napi)
}

/// Minimum storage deposit of an output (decimal string) under a rent structure
/// `{vByteCost, vByteFactorData, vByteFactorKey}`.
#[napi]
pub fn storage_deposit(output_json: String, rent_json: String) -> Result<String> {
    let output =
        json::output_from_json(&json::parse(&output_json).map_err(to_napi)?).map_err(to_napi)?;
    let rent = rent_of(&json::parse(&rent_json).map_err(to_napi)?, "rent")?;
    Ok(validate::deposit::min_deposit(&output, &rent).to_string())
}
