//! Every valid vector's JSON reads to the same bytes, and the bytes write back to exactly
//! the record's JSON (canonical form).

mod common;
use common::*;
use ledger_core::Code;

use ledger_core::{codec, json};
use serde_json::Value;

#[test]
fn blocks_json_to_bytes_and_back() {
    for r in records("valid.jsonl").iter().filter(|r| r["kind"] == "block") {
        let name = r["name"].as_str().unwrap();
        let block = json::block_from_json(&r["json"]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(codec::encode_block(&block), hex_of(&r["bytes"]), "{name}");
        assert_eq!(json::block_to_json(&block), r["json"], "{name}");
    }
}

#[test]
fn payloads_and_outputs_json_to_bytes_and_back() {
    let mut txs = records("transactions.jsonl");
    txs.extend(
        records("valid.jsonl")
            .into_iter()
            .filter(|r| r["kind"] == "transaction" || r["kind"] == "milestone"),
    );
    for r in txs {
        let name = r["name"].as_str().unwrap();
        let p = json::payload_from_json(&r["json"], "").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(codec::encode_payload(&p), hex_of(&r["bytes"]), "{name}");
        assert_eq!(json::payload_to_json(&p), r["json"], "{name}");
    }
    let mut outputs = records("outputs.jsonl");
    outputs.extend(records("valid.jsonl").into_iter().filter(|r| r["kind"] == "output"));
    for r in outputs {
        let name = r["name"].as_str().unwrap();
        let o = json::output_from_json(&r["json"]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(codec::encode_output(&o), hex_of(&r["bytes"]), "{name}");
        assert_eq!(json::output_to_json(&o), r["json"], "{name}");
    }
}

#[test]
fn lenient_input_forms_of_d14_d15() {
    let base = r#"{"protocolVersion":2,"parents":["0x00000000000000000000000000000000000000000000000000000000000000AA","0x00000000000000000000000000000000000000000000000000000000000000bb"],"nonce":"0x98b5"}"#;
    let block = json::block_from_json(&serde_json::from_str(base).unwrap()).unwrap();
    assert_eq!(block.nonce, 39093);
    assert_eq!(block.parents[0][31], 0xaa);
    for missing in [r#""""#, r#""0""#] {
        let text = base.replace(r#""0x98b5""#, missing);
        assert_eq!(json::block_from_json(&serde_json::from_str(&text).unwrap()).unwrap().nonce, 0);
    }
    let sdr = serde_json::json!({"type":3,"amount":1000000,"unlockConditions":[
        {"type":0,"address":{"type":0,"pubKeyHash":format!("0x{}", "11".repeat(32))}},
        {"type":1,"returnAddress":{"type":0,"pubKeyHash":format!("0x{}", "22".repeat(32))},"returnAmount":"42600"}],
        "nativeTokens":[{"id":format!("0x08{}0100000000", "11".repeat(32)),"amount":"0x0064"}]});
    let o = json::output_from_json(&sdr).unwrap();
    let back = json::output_to_json(&o);
    assert_eq!(back["amount"], "1000000");
    assert_eq!(back["unlockConditions"][1]["amount"], "42600");
    assert_eq!(back["nativeTokens"][0]["amount"], "0x64");
}

#[test]
fn malformed_json_values_name_reason_and_path() {
    let cases = [
        (r#"{"protocolVersion":2,"parents":["0X00"]}"#, Code::Uppercase0XPrefix, "parents[0]"),
        (r#"{"protocolVersion":2,"parents":["00"]}"#, Code::Missing0x, "parents[0]"),
        (r#"{"protocolVersion":2,"parents":["0x0"]}"#, Code::OddHexLength, "parents[0]"),
        (r#"{"protocolVersion":2,"parents":["0xzz"]}"#, Code::BadHex, "parents[0]"),
        (r#"{"protocolVersion":2,"parents":["0x00"]}"#, Code::WrongIdLength, "parents[0]"),
        (r#"{"protocolVersion":2,"nonce":151}"#, Code::NonceNotDecimal, "nonce"),
        (
            r#"{"protocolVersion":2,"nonce":"99999999999999999999"}"#,
            Code::NonceOverflowU64,
            "nonce",
        ),
        (r#"{"protocolVersion":300}"#, Code::NumberOutOfRange, "protocolVersion"),
        (r#"{"parents":[]}"#, Code::MissingField, "protocolVersion"),
        (r#"{"protocolVersion":2,"payload":{"type":9}}"#, Code::UnknownPayloadType, "payload.type"),
    ];
    for (text, code, path) in cases {
        let e = json::block_from_json(&serde_json::from_str(text).unwrap()).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (code, path), "{text}");
    }
}

#[test]
fn text_writer_equals_the_value_form_on_every_vector() {
    use ledger_core::json::text;
    // Equal as JSON values: key order is the spec tables' (the vectors put a milestone's
    // `metadata` after `options`; parsers must not rely on key order, wire-format §2).
    for r in records("valid.jsonl").iter().filter(|r| r["kind"] == "block") {
        let block = json::block_from_json(&r["json"]).unwrap();
        let written: Value = serde_json::from_str(&text::block(&block)).unwrap();
        assert_eq!(written, r["json"], "{}", r["name"]);
    }
    let mut outputs = records("outputs.jsonl");
    outputs.extend(records("valid.jsonl").into_iter().filter(|r| r["kind"] == "output"));
    for r in outputs {
        let o = json::output_from_json(&r["json"]).unwrap();
        let written: Value = serde_json::from_str(&text::output(&o)).unwrap();
        assert_eq!(written, r["json"], "{}", r["name"]);
    }
}
