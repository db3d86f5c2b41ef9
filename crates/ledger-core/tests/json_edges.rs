//! JSON input edges: the lenient forms of wire-format §2 / D14 / D15 that must be read, and
//! the values that cannot be encoded, each with its reason and path.

use ledger_core::Code;
use ledger_core::{codec, json};
use serde_json::{json, Value};

fn id(byte: &str) -> String {
    format!("0x{}", byte.repeat(32))
}

fn block_with(payload: Value) -> Value {
    json!({"protocolVersion": 2, "parents": [id("00"), id("01")], "payload": payload, "nonce": "0"})
}

fn basic(extra: Value) -> Value {
    let mut o = json!({"type": 3, "amount": "1000000",
        "unlockConditions": [{"type": 0, "address": {"type": 0, "pubKeyHash": id("11")}}]});
    for (k, v) in extra.as_object().unwrap() {
        o[k] = v.clone();
    }
    o
}

fn err(v: &Value) -> (Code, String) {
    let e = json::block_from_json(v).unwrap_err();
    (e.code, e.path)
}

#[test]
fn lenient_forms_read_to_the_canonical_object() {
    // Empty byte strings: "", "0x" or absent are all the empty string; null payload = none.
    for tag in [json!(""), json!("0x"), Value::Null] {
        let b = json::block_from_json(&block_with(json!({"type": 5, "tag": tag, "data": "0x00"})))
            .unwrap();
        assert_eq!(json::block_to_json(&b)["payload"], json!({"type": 5, "data": "0x00"}));
    }
    let b = json::block_from_json(&block_with(Value::Null)).unwrap();
    assert!(b.payload.is_none());
    assert!(json::block_to_json(&b).get("payload").is_none());

    // Amounts as JSON integers up to 2^53-1, u256 with leading zeros and upper case.
    let o = json::output_from_json(&basic(json!({"amount": 9007199254740991u64,
        "nativeTokens": [{"id": format!("0x08{}0100000000", "AB".repeat(32)), "amount": "0x00FF"}]})))
    .unwrap();
    let back = json::output_to_json(&o);
    assert_eq!(back["amount"], "9007199254740991");
    assert_eq!(back["nativeTokens"][0]["amount"], "0xff");
    assert_eq!(back["nativeTokens"][0]["id"], format!("0x08{}0100000000", "ab".repeat(32)));

    // Empty lists are omitted on output.
    let o = json::output_from_json(&basic(json!({"nativeTokens": [], "features": []}))).unwrap();
    assert_eq!(json::output_to_json(&o), basic(json!({})));

    // Nonce as 0x-hex of the number (D14), emitted as decimal.
    let mut v = block_with(Value::Null);
    v["nonce"] = json!("0xFFFFFFFFFFFFFFFF");
    assert_eq!(
        json::block_to_json(&json::block_from_json(&v).unwrap())["nonce"],
        "18446744073709551615"
    );
}

#[test]
fn migrated_funds_deposit_as_string_or_number() {
    let receipt = |deposit: Value| {
        json!({"type": 7, "index": 1, "timestamp": 1, "protocolVersion": 2, "previousMilestoneId": id("00"),
            "parents": [id("00"), id("01")], "inclusionMerkleRoot": id("00"), "appliedMerkleRoot": id("00"),
            "options": [{"type": 0, "migratedAt": 5, "final": true,
                "funds": [{"tailTransactionHash": format!("0x{}", "aa".repeat(49)),
                           "address": {"type": 0, "pubKeyHash": id("22")}, "deposit": deposit}],
                "transaction": {"type": 4, "input": {"type": 1, "milestoneId": id("33")},
                                "output": {"type": 2, "amount": "100"}}}],
            "signatures": [{"type": 0, "publicKey": id("44"), "signature": format!("0x{}", "55".repeat(64))}]})
    };
    let from_string = json::payload_from_json(&receipt(json!("1000000")), "").unwrap();
    let from_number = json::payload_from_json(&receipt(json!(1000000)), "").unwrap();
    assert_eq!(from_string, from_number);
    assert_eq!(json::payload_to_json(&from_number), receipt(json!("1000000")));
    // The treasury transaction follows its u32 length 46 (D17).
    let bytes = codec::encode_payload(&from_number);
    let at = bytes.len() - 1 - 97 - 46 - 4;
    assert_eq!(bytes[at..at + 8], [0x2e, 0, 0, 0, 4, 0, 0, 0]);
    assert_eq!(codec::decode_payload(&bytes).unwrap(), from_number);
}

#[test]
fn malformed_values_have_reason_and_path() {
    let tx_block = |output: Value| {
        block_with(json!({"type": 6, "essence": {"type": 1, "networkId": "1",
            "inputs": [{"type": 0, "transactionId": id("00"), "transactionOutputIndex": 0}],
            "inputsCommitment": id("00"), "outputs": [output]}, "unlocks": []}))
    };
    let out = "payload.essence.outputs[0]";
    let cases: Vec<(Value, Code, String)> = vec![
        (
            tx_block(basic(json!({"amount": "18446744073709551616"}))),
            Code::AmountOverflowU64,
            format!("{out}.amount"),
        ),
        (tx_block(basic(json!({"amount": "-1"}))), Code::AmountNotDecimal, format!("{out}.amount")),
        (
            tx_block(basic(json!({"amount": "1e6"}))),
            Code::AmountNotDecimal,
            format!("{out}.amount"),
        ),
        (
            tx_block(basic(json!({"amount": 9007199254740992u64}))),
            Code::AmountNotDecimal,
            format!("{out}.amount"),
        ),
        (
            tx_block(basic(json!({"amount": Value::Null}))),
            Code::MissingField,
            format!("{out}.amount"),
        ),
        (
            tx_block(basic(
                json!({"nativeTokens": [{"id": format!("0x{}", "00".repeat(38)), "amount": format!("0x1{}", "0".repeat(64))}]}),
            )),
            Code::NativeTokenAmountOverUint256,
            format!("{out}.nativeTokens[0].amount"),
        ),
        (
            tx_block(basic(
                json!({"nativeTokens": [{"id": format!("0x{}", "00".repeat(38)), "amount": "100"}]}),
            )),
            Code::NativeTokenAmountNotHex,
            format!("{out}.nativeTokens[0].amount"),
        ),
        (
            tx_block(basic(json!({"features": [{"type": 7}]}))),
            Code::UnknownFeatureType,
            format!("{out}.features[0].type"),
        ),
        (
            tx_block(basic(
                json!({"unlockConditions": [{"type": 0, "address": {"type": 1, "pubKeyHash": id("00")}}]}),
            )),
            Code::UnknownAddressType,
            format!("{out}.unlockConditions[0].address.type"),
        ),
        (
            tx_block(basic(
                json!({"features": [{"type": 3, "tag": format!("0x{}", "00".repeat(256))}]}),
            )),
            Code::TagFeatureTooLong,
            format!("{out}.features[0].tag"),
        ),
        (tx_block(basic(json!({"type": 9}))), Code::UnknownOutputType, format!("{out}.type")),
        (tx_block(basic(json!({"amount": true}))), Code::AmountNotDecimal, format!("{out}.amount")),
        (tx_block(json!([])), Code::InvalidType, out.to_string()),
        (
            block_with(json!({"type": 5, "tag": format!("0x{}", "00".repeat(256))})),
            Code::TagTooLong,
            "payload.tag".into(),
        ),
        (block_with(json!({"type": 5, "tag": "0x0g"})), Code::BadHex, "payload.tag".into()),
        (block_with(json!({"type": -5})), Code::NumberOutOfRange, "payload.type".into()),
        (block_with(json!({"type": 5.5})), Code::InvalidType, "payload.type".into()),
        (block_with(json!({"type": "5"})), Code::InvalidType, "payload.type".into()),
        (
            json!({"protocolVersion": 2, "parents": [id("00")], "nonce": "0x"}),
            Code::NonceNotDecimal,
            "nonce".into(),
        ),
        (
            json!({"protocolVersion": 2, "parents": [id("00")], "nonce": "0x1ffffffffffffffff"}),
            Code::NonceOverflowU64,
            "nonce".into(),
        ),
        (
            json!({"protocolVersion": 2, "parents": [id("00")], "nonce": "+5"}),
            Code::NonceNotDecimal,
            "nonce".into(),
        ),
        (json!({"protocolVersion": 2, "parents": "0x00"}), Code::InvalidType, "parents".into()),
        (json!([]), Code::InvalidType, String::new()),
    ];
    for (v, code, path) in cases {
        assert_eq!(err(&v), (code, path.clone()), "{v}");
    }
}
