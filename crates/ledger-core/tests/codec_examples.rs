//! The worked examples of wire-format §9 (blocks A, B, C) and the output byte vectors of
//! §7.6, byte for byte, with every id the spec derives from them.

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
fn block_both_ways(json_text: &str, hex_text: &str) -> ledger_core::model::Block {
    let bytes = hex::decode(hex_text).unwrap();
    let from_json = json::block_from_json(&value(json_text)).unwrap();
    assert_eq!(hex::encode(codec::encode_block(&from_json)), hex_text);
    let decoded = codec::decode_block(&bytes).unwrap();
    assert_eq!(decoded, from_json);
    assert_eq!(json::block_to_json(&decoded), value(json_text));
    decoded
}

#[test]
fn example_a_milestone_block() {
    let block = block_both_ways(EXAMPLE_A_JSON, EXAMPLE_A_HEX);
    let bytes = hex::decode(EXAMPLE_A_HEX).unwrap();
    assert_eq!(bytes.len(), 353);
    assert_eq!(
        hex0x(&ids::block_id(&bytes)),
        "0xc2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e19"
    );
    let Some(Payload::Milestone(m)) = &block.payload else { panic!("not a milestone") };
    // The essence is bytes 74..246 inclusive of the block (173 bytes).
    assert_eq!(codec::encode_milestone_essence(m), bytes[74..247]);
    assert_eq!(codec::encode_milestone_payload(m), bytes[70..345]);
    assert_eq!(
        hex0x(&ids::milestone_id(m)),
        "0x26e97b04f2c7df179c5818c4e172c7f3e6424aa86c0b547d2962812430d8fec2"
    );
}

#[test]
fn example_b_tagged_data_block() {
    block_both_ways(EXAMPLE_B_JSON, EXAMPLE_B_HEX);
    let bytes = hex::decode(EXAMPLE_B_HEX).unwrap();
    assert_eq!(bytes.len(), 104);
    assert_eq!(u64::from_le_bytes(bytes[96..].try_into().unwrap()), 39061);
    assert_eq!(
        hex0x(&ids::block_id(&bytes)),
        "0x344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56"
    );
}

#[test]
fn example_c_transaction_block() {
    let block = block_both_ways(EXAMPLE_C_JSON, EXAMPLE_C_HEX);
    let bytes = hex::decode(EXAMPLE_C_HEX).unwrap();
    assert_eq!(bytes.len(), 358);
    assert_eq!(
        hex0x(&ids::block_id(&bytes)),
        "0x04d316e4a2edb85e074a9ba99191c562a9e8bbc90f994fd7261c1c87946bcea8"
    );
    let Some(Payload::Transaction(tx)) = &block.payload else { panic!("not a transaction") };
    let tx_id = ids::transaction_id(tx);
    assert_eq!(hex0x(&tx_id), "0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad08571");
    assert_eq!(ids::transaction_id_of_payload_bytes(&bytes[70..350]), tx_id);
    assert_eq!(codec::encode_essence(&tx.essence), bytes[74..250]);
    assert_eq!(
        hex0x(&ids::essence_hash(&tx.essence)),
        "0x9fd9e0464f6c8f401508a65af3b273913a32459c402c3e5bedc37b10b4002ff2"
    );
    assert_eq!(
        hex0x(&ids::output_id(&tx_id, 0)),
        "0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710000"
    );
    assert_eq!(
        hex0x(&ids::output_id(&tx_id, 1)),
        "0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710100"
    );

    // The consumed genesis output and the inputs commitment over it.
    let genesis_hex = "030080f7f5ac5710000001000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d00";
    let genesis = codec::decode_output(&hex::decode(genesis_hex).unwrap()).unwrap();
    assert_eq!(genesis.amount(), 4_600_000_000_000_000);
    let genesis_bytes = codec::encode_output(&genesis);
    assert_eq!(hex::encode(&genesis_bytes), genesis_hex);
    assert_eq!(
        hex0x(&ledger_core::hash::blake2b256(&genesis_bytes)),
        "0x8a987ef5ef4bef05d25fdc03c948dd1bd5417c6c97f22554756914a605887498"
    );
    let commitment = "0x612e9253921357593702d25b30902b598be48af07b1f4aae5d600d5f565693fa";
    assert_eq!(hex0x(&ids::inputs_commitment(&[&genesis])), commitment);
    assert_eq!(hex0x(&ids::inputs_commitment_of_bytes([genesis_bytes.as_slice()])), commitment);
    assert_eq!(hex0x(&tx.essence.inputs_commitment), commitment);

    // The alias/NFT id a chain output created as output 0 of this transaction would get.
    let oid = ids::output_id(&tx_id, 0);
    let chain = "0x0eefba3e6591b115cf0cb065c602d41b4dd61d8da1a3976613f7b41ba40de72e";
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
    let genesis: [u8; 32] =
        hex::decode("10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d")
            .unwrap()
            .try_into()
            .unwrap();
    let text = "tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc";
    assert_eq!(bech32::encode_address("tst", &Address::Ed25519(genesis)), text);
    assert_eq!(
        bech32::decode_address(text).unwrap(),
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
const EXAMPLE_A_JSON: &str = r#"{"protocolVersion":2,"parents":["0x0000000000000000000000000000000000000000000000000000000000000000","0x0000000000000000000000000000000000000000000000000000000000000001"],"payload":{"type":7,"index":1,"timestamp":1700000000,"protocolVersion":2,"previousMilestoneId":"0x0000000000000000000000000000000000000000000000000000000000000000","parents":["0x0000000000000000000000000000000000000000000000000000000000000000","0x0000000000000000000000000000000000000000000000000000000000000001"],"inclusionMerkleRoot":"0x0000000000000000000000000000000000000000000000000000000000000000","appliedMerkleRoot":"0x0000000000000000000000000000000000000000000000000000000000000000","signatures":[{"type":0,"publicKey":"0xfc3033a22726d4e0f213eb9820b998c824274e929d8a015968d294e02c531882","signature":"0xcd6e416746152a97c00d10a34b48a4f63510f115967030956549e2268df88f46a19b46d7997de93ad115b92aa0d037fe9361dfe504bc7d0527a9f2bb8422da0a"}]},"nonce":"0"}"#;
const EXAMPLE_A_HEX: &str = concat!(
    "02020000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "000113010000070000000100000000f1536502000000000000000000000000000000000000000000000000000000000000000002000000000000000000000000",
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000000000000",
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100fc3033a22726d4",
    "e0f213eb9820b998c824274e929d8a015968d294e02c531882cd6e416746152a97c00d10a34b48a4f63510f115967030956549e2268df88f46a19b46d7997de9",
    "3ad115b92aa0d037fe9361dfe504bc7d0527a9f2bb8422da0a0000000000000000",
);
const EXAMPLE_B_JSON: &str = r#"{"protocolVersion":2,"parents":["0x0000000000000000000000000000000000000000000000000000000000000000","0xc2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e19"],"payload":{"type":5,"tag":"0x6c6564676572","data":"0x68656c6c6f20776f726c64"},"nonce":"39061"}"#;
const EXAMPLE_B_HEX: &str = concat!(
    "02020000000000000000000000000000000000000000000000000000000000000000c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f",
    "5e191a00000005000000066c65646765720b00000068656c6c6f20776f726c649598000000000000",
);
const EXAMPLE_C_JSON: &str = r#"{"protocolVersion":2,"parents":["0x344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56","0xc2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e19"],"payload":{"type":6,"essence":{"type":1,"networkId":"5140426672903325834","inputs":[{"type":0,"transactionId":"0x0000000000000000000000000000000000000000000000000000000000000000","transactionOutputIndex":0}],"inputsCommitment":"0x612e9253921357593702d25b30902b598be48af07b1f4aae5d600d5f565693fa","outputs":[{"type":3,"amount":"1000000","unlockConditions":[{"type":0,"address":{"type":0,"pubKeyHash":"0x94974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b"}}]},{"type":3,"amount":"4599999999000000","unlockConditions":[{"type":0,"address":{"type":0,"pubKeyHash":"0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"}}]}]},"unlocks":[{"type":0,"signature":{"type":0,"publicKey":"0xb39a6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e1","signature":"0x8cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171d703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09"}}]},"nonce":"1387574"}"#;
const EXAMPLE_C_HEX: &str = concat!(
    "0202344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f",
    "5e191801000006000000018a8858e8d276564701000000000000000000000000000000000000000000000000000000000000000000000000612e925392135759",
    "3702d25b30902b598be48af07b1f4aae5d600d5f565693fa02000340420f00000000000001000094974ee57aef2316fbbaab22273f911485ad99cc688b4a3989",
    "3f2316147b258b0003c03de8f5ac5710000001000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d000000000001000000b39a",
    "6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e18cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171",
    "d703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09362c150000000000",
);
