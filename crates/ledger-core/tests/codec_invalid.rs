//! The codec's share of invalid.jsonl: structural defects (lengths, counts, type codes,
//! hex and number syntax) are reported by decoding with exactly the record's reason; every
//! other record is well-formed and must decode, so that the rules can judge it.

mod common;
use common::*;
use ledger_core::Code;

use ledger_core::{codec, json};

/// Reasons a binary decoder reports itself.
const BINARY_REASONS: &[Code] = &[
    Code::BlockTooLarge,
    Code::LengthPrefixTooLarge,
    Code::PayloadLengthMismatch,
    Code::TrailingBytes,
    Code::TruncatedBytes,
    Code::InvalidBool,
    Code::UnknownPayloadType,
    Code::UnknownOutputType,
    Code::UnknownInputType,
    Code::UnknownAddressType,
    Code::UnknownUnlockConditionType,
    Code::UnknownFeatureType,
    Code::UnknownUnlockType,
    Code::UnknownSignatureType,
    Code::UnknownEssenceType,
    Code::UnknownMilestoneOptionType,
    Code::UnknownTokenSchemeType,
];

/// Reasons the JSON reader reports itself (plus the unknown type codes above).
const JSON_REASONS: &[Code] = &[
    Code::BadHex,
    Code::Missing0x,
    Code::OddHexLength,
    Code::Uppercase0XPrefix,
    Code::WrongIdLength,
    Code::AmountNotDecimal,
    Code::AmountOverflowU64,
    Code::NonceNotDecimal,
    Code::NonceOverflowU64,
    Code::NetworkIdNotDecimal,
    Code::NativeTokenAmountNotHex,
    Code::NativeTokenAmountOverUint256,
    Code::MissingField,
    Code::InvalidType,
    Code::NumberOutOfRange,
];

fn is_codec_reason(reason: Code, form: &str) -> bool {
    BINARY_REASONS.contains(&reason)
        && (form == "binary" || reason.as_str().starts_with("unknown-"))
        || form == "json" && JSON_REASONS.contains(&reason)
}

#[test]
fn binary_records_fail_or_decode_as_the_codec_should() {
    let mut wrong = Vec::new();
    for r in records("invalid.jsonl").iter().filter(|r| r["form"] == "binary") {
        let name = r["name"].as_str().unwrap();
        let reason: Code = r["reason"].as_str().unwrap().parse().unwrap();
        let bytes = hex_of(&r["bytes"]);
        match (codec::decode_block(&bytes), is_codec_reason(reason, "binary")) {
            (Err(e), true) if e.code == reason => {}
            (Ok(block), false) => {
                // Well-formed: it must also be canonical, byte for byte.
                if codec::encode_block(&block) != bytes {
                    wrong.push(format!("{name}: decoded but re-encodes differently"));
                }
            }
            (Err(e), _) => wrong.push(format!(
                "{name}: {} at {} ({}), expected {reason}",
                e.code, e.path, e.detail
            )),
            (Ok(_), true) => wrong.push(format!("{name}: decoded, expected {reason}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn json_records_fail_or_read_as_the_codec_should() {
    let mut wrong = Vec::new();
    for r in records("invalid.jsonl").iter().filter(|r| r["form"] == "json") {
        let name = r["name"].as_str().unwrap();
        let reason: Code = r["reason"].as_str().unwrap().parse().unwrap();
        match (json::block_from_json(&r["json"]), is_codec_reason(reason, "json")) {
            (Err(e), true) if e.code == reason => {
                if e.path.is_empty() {
                    wrong.push(format!("{name}: {reason} without a path"));
                }
                // The records write list indices as `.0`; our paths write `[0]`.
                if let Some(field) = r.get("field").and_then(|f| f.as_str()) {
                    if e.path.replace('[', ".").replace(']', "") != field {
                        wrong.push(format!("{name}: path {} but the record names {field}", e.path));
                    }
                }
            }
            (Ok(block), false) => {
                let bytes = codec::encode_block(&block);
                match codec::decode_block(&bytes) {
                    Ok(back) if back == block => {}
                    Err(e) if reason == Code::BlockTooLarge && e.code == reason => {}
                    Ok(_) => wrong.push(format!("{name}: bytes decode to a different block")),
                    Err(e) => wrong.push(format!("{name}: own bytes rejected: {e}")),
                }
            }
            (Err(e), _) => wrong.push(format!(
                "{name}: {} at {} ({}), expected {reason}",
                e.code, e.path, e.detail
            )),
            (Ok(_), true) => wrong.push(format!("{name}: read, expected {reason}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
