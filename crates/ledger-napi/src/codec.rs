//! Codec and identifiers: JSON text ↔ bytes, ids of blocks, transactions, milestones and
//! outputs. JSON crosses the boundary as text: `JSON.stringify`/`JSON.parse` in JavaScript
//! are faster than walking or building the object through napi calls. The text of a block
//! to encode is read with one copy (`js_text.rs`). Encoded bytes are
//! copied into a JS Buffer: for block-sized data that is cheaper than an external buffer,
//! whose finalizer and handle cost more than the copy.

use crate::errors::{binding_failure, invalid_argument, to_napi, Result};
use crate::js_text::with_js_text;
use ledger_core::model::{Address, Block, Payload};
use ledger_core::Code;
use ledger_core::{codec, ids, json};
use napi::bindgen_prelude::{Buffer, BufferSlice, Either, Object};
use napi::Env;
use napi::JsString;
use napi_derive::napi;

fn hex(id: &[u8]) -> String {
    json::hex(id)
}

fn parse(text: &str) -> Result<serde_json::Value> {
    json::parse(text).map_err(to_napi)
}

pub fn block_from_json_text(text: &str) -> Result<Block> {
    json::block_from_text(text).map_err(to_napi)
}

fn js_buffer<'env>(env: &'env Env, bytes: &[u8]) -> Result<BufferSlice<'env>> {
    BufferSlice::copy_from(env, bytes).map_err(binding_failure)
}

thread_local! {
    /// Where blocks are encoded before their bytes are copied into a JS Buffer: one
    /// allocation per thread instead of one (and its growth) per block.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Encode a block given as JSON text into the scratch buffer and hand its bytes to `then`
/// (a fresh buffer if `then` should reach here again, through a setter it triggers).
fn with_encoded<T>(json_text: &str, then: impl FnOnce(&[u8]) -> Result<T>) -> Result<T> {
    let block = block_from_json_text(json_text)?;
    SCRATCH.with(|scratch| {
        let Ok(mut out) = scratch.try_borrow_mut() else {
            return then(&codec::encode_block(&block));
        };
        codec::encode_block_into(&mut out, &block);
        let result = then(&out);
        // A 32 KB block once should not pin 32 KB per thread for ever.
        if out.capacity() > 64 * 1024 {
            *out = Vec::new();
        }
        result
    })
}

#[napi(ts_return_type = "Buffer")]
pub fn encode_block_json<'env>(env: &'env Env, json_text: JsString) -> Result<BufferSlice<'env>> {
    with_js_text(json_text, |text| with_encoded(text, |bytes| js_buffer(env, bytes)))
}

/// Encode a block given as JSON text into `out`: its wire bytes, then its 32-byte block id
/// hashed from the bytes just written. Answers the bytes' length, or `-needed` when `out`
/// is too small (nothing written then). The caller copies out of `out` into a pooled
/// Buffer: cheaper than a Buffer of its own per call, whose backing store V8 allocates and
/// tracks one by one (src/core/codec.ts keeps `out`).
#[napi]
pub fn encode_block_json_into(json_text: JsString, mut out: BufferSlice<'_>) -> Result<i64> {
    with_js_text(json_text, |text| {
        with_encoded(text, |bytes| {
            let needed = bytes.len() + 32;
            let Some(target) = out.get_mut(..needed) else {
                return Ok(-(needed as i64));
            };
            target[..bytes.len()].copy_from_slice(bytes);
            target[bytes.len()..].copy_from_slice(&ids::block_id(bytes));
            Ok(bytes.len() as i64)
        })
    })
}

#[napi]
pub fn decode_block_to_json(bytes: Buffer) -> Result<String> {
    let block = codec::decode_block(&bytes).map_err(to_napi)?;
    Ok(json::text::block(&block))
}

/// The canonical JSON text and the block id of a block's bytes, in one call.
#[napi(ts_return_type = "{ json: string; id: string }")]
pub fn decode_block_to_json_with_id<'env>(env: &'env Env, bytes: Buffer) -> Result<Object<'env>> {
    let block = codec::decode_block(&bytes).map_err(to_napi)?;
    let mut result = Object::new(env).map_err(binding_failure)?;
    result.set("json", json::text::block(&block)).map_err(binding_failure)?;
    result.set("id", hex(&ids::block_id(&bytes))).map_err(binding_failure)?;
    Ok(result)
}

/// BLAKE2b-256 of the block bytes as given (no decoding: the id of exactly these bytes).
#[napi]
pub fn block_id(bytes: Buffer) -> String {
    hex(&ids::block_id(&bytes))
}

/// The block id of a block given as JSON text (no bytes cross back).
#[napi]
pub fn block_id_of_json(json_text: JsString) -> Result<String> {
    with_js_text(json_text, |text| with_encoded(text, |bytes| Ok(hex(&ids::block_id(bytes)))))
}

/// Bytes of a bare payload start with its u32 type code (`06000000`, `07000000`); a block
/// starts with its protocol version (`02`) and a parents count, never three zero bytes
/// after a version byte other than 2 that could pass the rules.
fn is_bare_payload(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && bytes[0] != ledger_core::model::PROTOCOL_VERSION && bytes[1..4] == [0, 0, 0]
}

/// A block or a bare payload, given as bytes or JSON text.
fn payload_of(input: Either<Buffer, String>) -> Result<Payload> {
    match input {
        Either::A(bytes) => {
            if !is_bare_payload(&bytes) {
                let block = codec::decode_block(&bytes).map_err(to_napi)?;
                block.payload.ok_or_else(|| invalid_argument("payload", "the block has no payload"))
            } else {
                codec::decode_payload(&bytes).map_err(to_napi)
            }
        }
        Either::B(text) => {
            let value = parse(&text)?;
            // Payloads carry a `type`; a block has none (a milestone payload also has a
            // `protocolVersion`, so that key cannot tell them apart).
            if value.get("type").is_none() {
                let block = json::block_from_json(&value).map_err(to_napi)?;
                block.payload.ok_or_else(|| invalid_argument("payload", "the block has no payload"))
            } else {
                json::payload_from_json(&value, "").map_err(to_napi)
            }
        }
    }
}

#[napi]
pub fn transaction_id_of(input: Either<Buffer, String>) -> Result<String> {
    match payload_of(input)? {
        Payload::Transaction(tx) => Ok(hex(&ids::transaction_id(&tx))),
        _ => Err(invalid_argument("payload.type", "not a transaction payload")),
    }
}

#[napi]
pub fn essence_hash_of(input: Either<Buffer, String>) -> Result<String> {
    match payload_of(input)? {
        Payload::Transaction(tx) => Ok(hex(&ids::essence_hash(&tx.essence))),
        _ => Err(invalid_argument("payload.type", "not a transaction payload")),
    }
}

#[napi]
pub fn milestone_id_of(input: Either<Buffer, String>) -> Result<String> {
    match payload_of(input)? {
        Payload::Milestone(m) => Ok(hex(&ids::milestone_id(&m))),
        _ => Err(invalid_argument("payload.type", "not a milestone payload")),
    }
}

/// Inputs commitment of the consumed outputs, given as a JSON array of outputs.
#[napi]
pub fn inputs_commitment_of(outputs_json: String) -> Result<String> {
    let value = parse(&outputs_json)?;
    let list =
        value.as_array().ok_or_else(|| invalid_argument("", "expected a JSON array of outputs"))?;
    let outputs = list
        .iter()
        .enumerate()
        .map(|(i, o)| json::output_from_json_at(o, &format!("[{i}]")).map_err(to_napi))
        .collect::<Result<Vec<_>>>()?;
    Ok(hex(&ids::inputs_commitment(&outputs.iter().collect::<Vec<_>>())))
}

fn id32(text: &str, path: &str) -> Result<[u8; 32]> {
    hex_array(text, path)
}

/// `0x` + exactly 2·N hex digits, as N bytes.
pub(crate) fn hex_array<const N: usize>(text: &str, path: &str) -> Result<[u8; N]> {
    let bytes = hex::decode(text.strip_prefix("0x").unwrap_or("-")).map_err(|_| {
        invalid_argument(path, format!("expected 0x followed by {} hex digits", 2 * N))
    })?;
    bytes.try_into().map_err(|_| invalid_argument(path, format!("expected {N} bytes")))
}

#[napi]
pub fn output_id_of(transaction_id: String, index: u32) -> Result<String> {
    let tx = id32(&transaction_id, "transactionId")?;
    let index = u16::try_from(index)
        .map_err(|_| invalid_argument("index", "an output index fits 16 bits"))?;
    Ok(hex(&ids::output_id(&tx, index)))
}

#[napi]
pub fn network_id_of(name: String) -> String {
    ledger_core::protocol::network_id(&name).to_string()
}

#[napi]
pub fn encode_output_json(json_text: String) -> Result<Buffer> {
    let output = json::output_from_text(&json_text).map_err(to_napi)?;
    Ok(codec::encode_output(&output).into())
}

#[napi]
pub fn decode_output_to_json(bytes: Buffer) -> Result<String> {
    let output = codec::decode_output(&bytes).map_err(to_napi)?;
    Ok(json::text::output(&output))
}

#[napi]
pub fn encode_payload_json(json_text: String) -> Result<Buffer> {
    let payload = json::payload_from_text(&json_text).map_err(to_napi)?;
    Ok(codec::encode_payload(&payload).into())
}

#[napi]
pub fn decode_payload_to_json(bytes: Buffer) -> Result<String> {
    let payload = codec::decode_payload(&bytes).map_err(to_napi)?;
    Ok(json::text::payload(&payload))
}

/// TIP-4 merkle root of block ids (0x-hex), as milestones carry it.
#[napi]
pub fn merkle_root_of(ids: Vec<String>) -> Result<String> {
    let ids = ids
        .iter()
        .enumerate()
        .map(|(i, id)| id32(id, &format!("[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    Ok(hex(&ledger_core::merkle::merkle_root(&ids)))
}

/// An address given as its JSON object, as `0x` + 33 bytes (kind byte first) or as `0x` +
/// 32 bytes (an Ed25519 address, the form of `genesis.address` in the configuration).
fn address_of(input: &str) -> Result<Address> {
    let text = input.trim();
    if !text.starts_with("0x") {
        return json::address_from_json(&parse(text)?, "").map_err(to_napi);
    }
    let bytes = json::hex_str(text, "").map_err(to_napi)?;
    let id = |b: &[u8]| -> [u8; 32] { b.try_into().expect("32 bytes") };
    match bytes.len() {
        32 => Ok(Address::Ed25519(id(&bytes))),
        33 => match bytes[0] {
            0 => Ok(Address::Ed25519(id(&bytes[1..]))),
            8 => Ok(Address::Alias(id(&bytes[1..]))),
            16 => Ok(Address::Nft(id(&bytes[1..]))),
            k => Err(to_napi(ledger_core::Error::new(
                Code::UnknownAddressType,
                "type",
                format!("unknown address type {k}"),
            ))),
        },
        n => Err(to_napi(ledger_core::Error::new(
            Code::WrongIdLength,
            "",
            format!("an address is 32 or 33 bytes, got {n}"),
        ))),
    }
}

/// Bech32 form (BIP-173) of an address given as JSON text or hex.
#[napi]
pub fn address_to_bech32(hrp: String, address_json_or_hex: String) -> Result<String> {
    if hrp.is_empty()
        || hrp.len() > 83
        || !hrp.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Err(invalid_argument(
            "hrp",
            "a human-readable part is 1 to 83 lower-case letters or digits",
        ));
    }
    Ok(ledger_core::bech32::encode_address(&hrp, &address_of(&address_json_or_hex)?))
}

/// The HRP and the address JSON object (as text) of a bech32 address.
#[napi(object)]
pub struct Bech32Address {
    pub hrp: String,
    pub address_json: String,
}

#[napi]
pub fn bech32_to_address_json(bech32: String) -> Result<Bech32Address> {
    let (hrp, address) = ledger_core::bech32::decode_address(&bech32).map_err(to_napi)?;
    Ok(Bech32Address { hrp, address_json: json::text::address(&address) })
}
