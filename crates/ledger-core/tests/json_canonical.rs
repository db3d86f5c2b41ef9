//! Canonical JSON of every optional byte string (D15, wire-format §2), one case per object
//! kind: written without its key when empty, as iota-sdk 1.x writes all of them (serde
//! `skip_serializing_if` on each) and Hornet most of them, and read alike when the key is
//! absent, null, "" or "0x". The binary form is what decides: every input form must give
//! the same bytes, and those bytes must come back as JSON without the key.

use ledger_core::{codec, json, Result};
use serde_json::{json, Value};

fn id(byte: &str) -> String {
    format!("0x{}", byte.repeat(32))
}

fn ed25519(byte: &str) -> Value {
    json!({"type": 0, "pubKeyHash": id(byte)})
}

/// `key: value` added to `object` unless the value is None (the key left out).
fn with(mut object: Value, key: &str, value: Option<Value>) -> Value {
    if let Some(v) = value {
        object[key] = v;
    }
    object
}

/// What a case's JSON is read as, and how its bytes come back.
#[derive(Clone, Copy)]
enum Whole {
    Block,
    Payload,
    Output,
}

impl Whole {
    fn to_bytes(self, v: &Value) -> Result<Vec<u8>> {
        Ok(match self {
            Whole::Block => codec::encode_block(&json::block_from_json(v)?),
            Whole::Payload => codec::encode_payload(&json::payload_from_json(v, "")?),
            Whole::Output => codec::encode_output(&json::output_from_json(v)?),
        })
    }

    fn to_json(self, bytes: &[u8]) -> Value {
        match self {
            Whole::Block => json::block_to_json(&codec::decode_block(bytes).unwrap()),
            Whole::Payload => json::payload_to_json(&codec::decode_payload(bytes).unwrap()),
            Whole::Output => json::output_to_json(&codec::decode_output(bytes).unwrap()),
        }
    }

    fn to_text(self, bytes: &[u8]) -> String {
        match self {
            Whole::Block => json::text::block(&codec::decode_block(bytes).unwrap()),
            Whole::Payload => json::text::payload(&codec::decode_payload(bytes).unwrap()),
            Whole::Output => json::text::output(&codec::decode_output(bytes).unwrap()),
        }
    }
}

struct Case {
    kind: &'static str,
    whole: Whole,
    /// JSON pointer to the object that holds the field, inside the whole.
    at: &'static str,
    key: &'static str,
    /// The whole object with the field set to the value (None: key absent).
    build: fn(Option<Value>) -> Value,
}

fn tagged_data(tag: Option<Value>, data: Option<Value>) -> Value {
    with(with(json!({"type": 5}), "tag", tag), "data", data)
}

fn block(payload: Value) -> Value {
    json!({"protocolVersion": 2, "parents": [id("01"), id("02")], "payload": payload, "nonce": "7"})
}

fn transaction_block(essence_payload: Value) -> Value {
    block(json!({"type": 6,
        "essence": {"type": 1, "networkId": "14364762045254553490",
            "inputs": [{"type": 0, "transactionId": id("03"), "transactionOutputIndex": 0}],
            "inputsCommitment": id("04"),
            "outputs": [{"type": 3, "amount": "1000000", "unlockConditions": [{"type": 0, "address": ed25519("05")}]}],
            "payload": essence_payload},
        "unlocks": [{"type": 0, "signature": {"type": 0, "publicKey": id("06"), "signature": format!("0x{}", "07".repeat(64))}}]}))
}

fn milestone(metadata: Option<Value>, options: Option<Value>) -> Value {
    let m = json!({"type": 7, "index": 3, "timestamp": 1700000000, "protocolVersion": 2,
        "previousMilestoneId": id("08"), "parents": [id("09"), id("0a")],
        "inclusionMerkleRoot": id("0b"), "appliedMerkleRoot": id("0c"),
        "signatures": [{"type": 0, "publicKey": id("0d"), "signature": format!("0x{}", "0e".repeat(64))}]});
    with(with(m, "metadata", metadata), "options", options)
}

fn parameters_option(params: Option<Value>) -> Value {
    with(json!({"type": 1, "targetMilestoneIndex": 20, "protocolVersion": 2}), "params", params)
}

fn alias_output(state_metadata: Option<Value>) -> Value {
    let o = json!({"type": 4, "amount": "1000000", "aliasId": id("10"), "stateIndex": 1, "foundryCounter": 0,
        "unlockConditions": [{"type": 4, "address": ed25519("11")}, {"type": 5, "address": ed25519("12")}]});
    with(o, "stateMetadata", state_metadata)
}

fn nft_output(features: Value, immutable_features: Value) -> Value {
    json!({"type": 6, "amount": "1000000", "nftId": id("13"),
        "unlockConditions": [{"type": 0, "address": ed25519("14")}],
        "features": features, "immutableFeatures": immutable_features})
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            kind: "tagged data (block payload): tag",
            whole: Whole::Block,
            at: "/payload",
            key: "tag",
            build: |v| block(tagged_data(v, Some(json!("0x6869")))),
        },
        Case {
            kind: "tagged data (block payload): data",
            whole: Whole::Block,
            at: "/payload",
            key: "data",
            build: |v| block(tagged_data(Some(json!("0x6869")), v)),
        },
        Case {
            kind: "tagged data (transaction essence): tag",
            whole: Whole::Block,
            at: "/payload/essence/payload",
            key: "tag",
            build: |v| transaction_block(tagged_data(v, Some(json!("0x6869")))),
        },
        Case {
            kind: "tagged data (transaction essence): data",
            whole: Whole::Block,
            at: "/payload/essence/payload",
            key: "data",
            build: |v| transaction_block(tagged_data(Some(json!("0x6869")), v)),
        },
        Case {
            kind: "milestone payload: metadata",
            whole: Whole::Payload,
            at: "",
            key: "metadata",
            build: |v| milestone(v, None),
        },
        Case {
            kind: "protocol parameters milestone option: params",
            whole: Whole::Payload,
            at: "/options/0",
            key: "params",
            build: |v| milestone(None, Some(json!([parameters_option(v)]))),
        },
        Case {
            kind: "alias output: stateMetadata",
            whole: Whole::Output,
            at: "",
            key: "stateMetadata",
            build: alias_output,
        },
        Case {
            kind: "metadata feature: data",
            whole: Whole::Output,
            at: "/features/0",
            key: "data",
            build: |v| nft_output(json!([with(json!({"type": 2}), "data", v)]), json!([])),
        },
        Case {
            kind: "tag feature: tag",
            whole: Whole::Output,
            at: "/features/0",
            key: "tag",
            build: |v| nft_output(json!([with(json!({"type": 3}), "tag", v)]), json!([])),
        },
        Case {
            kind: "immutable metadata feature: data",
            whole: Whole::Output,
            at: "/immutableFeatures/0",
            key: "data",
            build: |v| nft_output(json!([]), json!([with(json!({"type": 2}), "data", v)])),
        },
    ]
}

#[test]
fn empty_optional_byte_strings_are_read_in_every_form_and_written_without_their_key() {
    for case in cases() {
        let kind = case.kind;
        let canonical = (case.build)(None);
        let bytes = case.whole.to_bytes(&canonical).unwrap_or_else(|e| panic!("{kind}: {e:?}"));

        // Reading: absent, null, "" and "0x" are the same empty byte string.
        for form in [Value::Null, json!(""), json!("0x")] {
            let other = case
                .whole
                .to_bytes(&(case.build)(Some(form.clone())))
                .unwrap_or_else(|e| panic!("{kind} {form}: {e:?}"));
            assert_eq!(other, bytes, "{kind}: {form} reads differently from an absent key");
        }

        // Writing: the key is left out, and nothing anywhere is written as "0x".
        let back = case.whole.to_json(&bytes);
        let holder =
            back.pointer(case.at).unwrap_or_else(|| panic!("{kind}: no object at {}", case.at));
        assert!(holder.get(case.key).is_none(), "{kind}: written as {holder}");
        let text = case.whole.to_text(&bytes);
        assert!(!text.contains("\"0x\""), "{kind}: {text}");
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            back,
            "{kind}: text and value forms differ"
        );

        // A non-empty value is written under the key, so the case looks at the right field.
        let full = case.whole.to_bytes(&(case.build)(Some(json!("0xAB01")))).unwrap();
        assert_eq!(
            case.whole.to_json(&full).pointer(case.at).unwrap()[case.key],
            "0xab01",
            "{kind}"
        );
    }
}

#[test]
fn empty_lists_and_absent_objects_are_written_without_their_key() {
    // Milestone options, output lists, and the payload slots of a block and an essence.
    let m = json::payload_to_json(
        &json::payload_from_json(&milestone(None, Some(json!([]))), "").unwrap(),
    );
    assert!(m.get("options").is_none(), "{m}");
    assert_eq!(m, milestone(None, None));

    let nft = nft_output(json!([]), json!([]));
    let back = json::output_to_json(&json::output_from_json(&nft).unwrap());
    assert!(
        back.get("features").is_none()
            && back.get("immutableFeatures").is_none()
            && back.get("nativeTokens").is_none(),
        "{back}"
    );

    let b = json::block_to_json(&json::block_from_json(&block(Value::Null)).unwrap());
    assert!(b.get("payload").is_none(), "{b}");
    let tx = json::block_to_json(&json::block_from_json(&transaction_block(Value::Null)).unwrap());
    assert!(tx["payload"]["essence"].get("payload").is_none(), "{tx}");
}
