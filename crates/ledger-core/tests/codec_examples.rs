//! The worked examples of wire-format §9 (blocks A, B, C, read from
//! `vectors/worked-examples.json`) and the output byte vectors of §7.6, byte for byte, with
//! every id the spec derives from them.

mod common;

use common::worked_examples::{block, field, hex32, hex_str, text};
use ledger_core::model::{Address, Output, Payload};
use ledger_core::{bech32, codec, ids, json};
use serde_json::Value;

fn hex0x(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

fn value(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// JSON → bytes equal the spec's hex; bytes → JSON equals the spec's JSON.
fn block_both_ways(name: &str) -> ledger_core::model::Block {
    let hex_text = hex_str(&format!("/{name}/bytes"));
    let json_value = field(&format!("/{name}/json"));
    let from_json = json::block_from_json(json_value).unwrap();
    assert_eq!(hex::encode(codec::encode_block(&from_json)), hex_text);
    let decoded = codec::decode_block(&block(name)).unwrap();
    assert_eq!(decoded, from_json);
    assert_eq!(&json::block_to_json(&decoded), json_value);
    decoded
}

#[test]
fn example_a_milestone_block() {
    let decoded = block_both_ways("A");
    let bytes = block("A");
    assert_eq!(bytes.len(), 353);
    assert_eq!(hex0x(&ids::block_id(&bytes)), text("/A/id"));
    let Some(Payload::Milestone(m)) = &decoded.payload else { panic!("not a milestone") };
    // The essence is bytes 74..246 inclusive of the block (173 bytes).
    assert_eq!(codec::encode_milestone_essence(m), bytes[74..247]);
    assert_eq!(codec::encode_milestone_payload(m), bytes[70..345]);
    assert_eq!(hex0x(&ids::milestone_id(m)), text("/A/extra/milestoneId"));
}

#[test]
fn example_b_tagged_data_block() {
    block_both_ways("B");
    let bytes = block("B");
    assert_eq!(bytes.len(), 104);
    assert_eq!(u64::from_le_bytes(bytes[96..].try_into().unwrap()), 39061);
    assert_eq!(hex0x(&ids::block_id(&bytes)), text("/B/id"));
}

#[test]
fn example_c_transaction_block() {
    let decoded = block_both_ways("C");
    let bytes = block("C");
    assert_eq!(bytes.len(), 358);
    assert_eq!(hex0x(&ids::block_id(&bytes)), text("/C/id"));
    let Some(Payload::Transaction(tx)) = &decoded.payload else { panic!("not a transaction") };
    let tx_id = ids::transaction_id(tx);
    assert_eq!(hex0x(&tx_id), text("/C/extra/transactionId"));
    assert_eq!(ids::transaction_id_of_payload_bytes(&bytes[70..350]), tx_id);
    assert_eq!(codec::encode_essence(&tx.essence), bytes[74..250]);
    assert_eq!(hex0x(&ids::essence_hash(&tx.essence)), text("/C/extra/essenceHash"));
    assert_eq!(hex0x(&ids::output_id(&tx_id, 0)), text("/C/extra/outputIds/0"));
    assert_eq!(hex0x(&ids::output_id(&tx_id, 1)), text("/C/extra/outputIds/1"));

    // The consumed genesis output and the inputs commitment over it.
    assert_eq!(text("/C/extra/consumedOutputs/0/outputId"), hex0x(&[0; 34]));
    let genesis_hex = hex_str("/C/extra/consumedOutputs/0/output");
    let genesis = codec::decode_output(&hex::decode(genesis_hex).unwrap()).unwrap();
    assert_eq!(genesis.amount(), 4_600_000_000_000_000);
    let genesis_bytes = codec::encode_output(&genesis);
    assert_eq!(hex::encode(&genesis_bytes), genesis_hex);
    assert_eq!(
        hex0x(&ledger_core::hash::blake2b256(&genesis_bytes)),
        text("/C/extra/consumedOutputs/0/outputHash")
    );
    let commitment = text("/C/extra/inputsCommitment");
    assert_eq!(hex0x(&ids::inputs_commitment(&[&genesis])), commitment);
    assert_eq!(hex0x(&ids::inputs_commitment_of_bytes([genesis_bytes.as_slice()])), commitment);
    assert_eq!(hex0x(&tx.essence.inputs_commitment), commitment);

    // The alias/NFT id a chain output created as output 0 of this transaction would get.
    let oid = ids::output_id(&tx_id, 0);
    let chain = text("/C/extra/chainIdOfOutput0");
    assert_eq!(hex0x(&ids::alias_id_from_output_id(&oid)), chain);
    assert_eq!(hex0x(&ids::nft_id_from_output_id(&oid)), chain);
}

#[test]
fn output_byte_vectors_of_section_7_6() {
    let smallest = "0340420f00000000000001000094974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b00";
    let cases = [
        (None, smallest, 46),
        (Some(BASIC_FULL_JSON), BASIC_FULL_HEX, 244),
        (Some(ALIAS_JSON), ALIAS_HEX, 201),
        (Some(FOUNDRY_JSON), FOUNDRY_HEX, 156),
        (Some(NFT_JSON), NFT_HEX, 120),
    ];
    for (json_text, hex_text, len) in cases {
        let bytes = hex::decode(hex_text).unwrap();
        assert_eq!(bytes.len(), len);
        let decoded = codec::decode_output(&bytes).unwrap();
        assert_eq!(codec::encode_output(&decoded), bytes);
        assert_eq!(codec::output_len(&decoded), len);
        if let Some(text) = json_text {
            let from_json = json::output_from_json(&value(text)).unwrap();
            assert_eq!(from_json, decoded);
            assert_eq!(json::output_to_json(&decoded), value(text));
        }
    }
    let Output::Foundry(f) = codec::decode_output(&hex::decode(FOUNDRY_HEX).unwrap()).unwrap()
    else {
        panic!()
    };
    assert_eq!(
        hex::encode(ids::foundry_id(&[0x11; 32], f.serial_number, 0)),
        format!("08{}0100000000", "11".repeat(32))
    );
}

#[test]
fn protocol_parameters_blob_and_genesis_bech32() {
    let blob = codec::encode_protocol_parameters(
        &ledger_core::protocol::ProtocolParameters::dev_default(),
    );
    assert_eq!(blob.len(), 41);
    let genesis = hex32("/keys/genesis/address");
    let bech32_text = text("/keys/genesis/bech32");
    assert_eq!(bech32::encode_address("tst", &Address::Ed25519(genesis)), bech32_text);
    assert_eq!(
        bech32::decode_address(bech32_text).unwrap(),
        ("tst".to_string(), Address::Ed25519(genesis))
    );
}

const BASIC_FULL_JSON: &str = r#"{"type":3,"amount":"2000000","nativeTokens":[{"id":"0x0811111111111111111111111111111111111111111111111111111111111111110100000000","amount":"0x64"}],"unlockConditions":[{"type":0,"address":{"type":0,"pubKeyHash":"0x94974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b"}},{"type":1,"returnAddress":{"type":0,"pubKeyHash":"0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"},"amount":"50000"},{"type":2,"unixTime":1700000000},{"type":3,"returnAddress":{"type":0,"pubKeyHash":"0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"},"unixTime":1800000000}],"features":[{"type":0,"address":{"type":0,"pubKeyHash":"0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"}},{"type":2,"data":"0x6869"},{"type":3,"tag":"0x7467"}]}"#;
const BASIC_FULL_HEX: &str = concat!(
    "0380841e000000000001081111111111111111111111111111111111111111111111111111111111111111010000000064000000000000000000000000000000",
    "0000000000000000000000000000000004000094974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b010010d98fb75b13332c21bf6d",
    "03046ae46b3a2ecef7d5a683096eef0b15ab7a167d50c30000000000000200f15365030010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15",
    "ab7a167d00d2496b03000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d020200686903027467",
);
const ALIAS_JSON: &str = r#"{"type":4,"amount":"3000000","aliasId":"0x0000000000000000000000000000000000000000000000000000000000000000","stateIndex":0,"stateMetadata":"0x0102","foundryCounter":0,"unlockConditions":[{"type":4,"address":{"type":0,"pubKeyHash":"0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"}},{"type":5,"address":{"type":0,"pubKeyHash":"0x94974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b"}}],"features":[{"type":0,"address":{"type":0,"pubKeyHash":"0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"}},{"type":2,"data":"0x01"}],"immutableFeatures":[{"type":1,"address":{"type":0,"pubKeyHash":"0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"}},{"type":2,"data":"0x02"}]}"#;
const ALIAS_HEX: &str = concat!(
    "04c0c62d000000000000000000000000000000000000000000000000000000000000000000000000000000000000020001020000000002040010d98fb75b1333",
    "2c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d050094974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b02000010d9",
    "8fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d0201000102010010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b",
    "15ab7a167d02010002",
);
const FOUNDRY_JSON: &str = r#"{"type":5,"amount":"4000000","serialNumber":1,"tokenScheme":{"type":0,"mintedTokens":"0x64","meltedTokens":"0x0","maximumSupply":"0x3e8"},"unlockConditions":[{"type":6,"address":{"type":8,"aliasId":"0x1111111111111111111111111111111111111111111111111111111111111111"}}],"features":[{"type":2,"data":"0x03"}],"immutableFeatures":[{"type":2,"data":"0x04"}]}"#;
const FOUNDRY_HEX: &str = concat!(
    "0500093d000000000000010000000064000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "000000000000000000000000000000e8030000000000000000000000000000000000000000000000000000000000000106081111111111111111111111111111",
    "11111111111111111111111111111111111101020100030102010004",
);
const NFT_JSON: &str = r#"{"type":6,"amount":"5000000","nftId":"0x0000000000000000000000000000000000000000000000000000000000000000","unlockConditions":[{"type":0,"address":{"type":16,"nftId":"0x2222222222222222222222222222222222222222222222222222222222222222"}}],"features":[{"type":3,"tag":"0x01"}],"immutableFeatures":[{"type":1,"address":{"type":8,"aliasId":"0x1111111111111111111111111111111111111111111111111111111111111111"}},{"type":2,"data":"0x05"}]}"#;
const NFT_HEX: &str = concat!(
    "06404b4c000000000000000000000000000000000000000000000000000000000000000000000000000001001022222222222222222222222222222222222222",
    "2222222222222222222222222201030101020108111111111111111111111111111111111111111111111111111111111111111102010005",
);
