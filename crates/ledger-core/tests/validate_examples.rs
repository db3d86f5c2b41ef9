//! The worked examples of wire-format §9 under the rules: PoW is judged last and at the
//! dev minimum, the milestone block rules, and error paths of the stand-alone entry points.

use ledger_core::model::{Block, Output, Payload};
use ledger_core::protocol::ProtocolParameters;
use ledger_core::{codec, json, validate};

const EXAMPLE_A: &str = concat!(
    "02020000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "000113010000070000000100000000f1536502000000000000000000000000000000000000000000000000000000000000000002000000000000000000000000",
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000000000000",
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100fc3033a22726d4",
    "e0f213eb9820b998c824274e929d8a015968d294e02c531882cd6e416746152a97c00d10a34b48a4f63510f115967030956549e2268df88f46a19b46d7997de9",
    "3ad115b92aa0d037fe9361dfe504bc7d0527a9f2bb8422da0a0000000000000000",
);
const EXAMPLE_B: &str = concat!(
    "02020000000000000000000000000000000000000000000000000000000000000000c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f",
    "5e191a00000005000000066c65646765720b00000068656c6c6f20776f726c649598000000000000",
);
const EXAMPLE_C: &str = concat!(
    "0202344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f",
    "5e191801000006000000018a8858e8d276564701000000000000000000000000000000000000000000000000000000000000000000000000612e925392135759",
    "3702d25b30902b598be48af07b1f4aae5d600d5f565693fa02000340420f00000000000001000094974ee57aef2316fbbaab22273f911485ad99cc688b4a3989",
    "3f2316147b258b0003c03de8f5ac5710000001000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d000000000001000000b39a",
    "6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e18cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171",
    "d703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09362c150000000000",
);

fn block(hex_text: &str) -> (Block, Vec<u8>) {
    let bytes = hex::decode(hex_text).unwrap();
    (codec::decode_block(&bytes).unwrap(), bytes)
}

fn with_nonce(mut bytes: Vec<u8>, nonce: u64) -> Vec<u8> {
    let at = bytes.len() - 8;
    bytes[at..].copy_from_slice(&nonce.to_le_bytes());
    bytes
}

#[test]
fn examples_b_and_c_meet_the_dev_pow_minimum_and_lose_it_with_another_nonce() {
    let dev = ProtocolParameters::dev_default();
    for hex_text in [EXAMPLE_B, EXAMPLE_C] {
        let (b, bytes) = block(hex_text);
        validate::validate_block(&b, &bytes, &dev).unwrap();
        let changed = with_nonce(bytes, b.nonce + 1);
        let b2 = codec::decode_block(&changed).unwrap();
        let e = validate::validate_block(&b2, &changed, &dev).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), ("pow-score-too-low", "nonce"));
    }
}

#[test]
fn a_broken_rule_is_reported_before_the_pow_score() {
    let (mut b, _) = block(EXAMPLE_C);
    let Some(Payload::Transaction(tx)) = &mut b.payload else { unreachable!() };
    tx.essence.network_id += 1;
    let bytes = codec::encode_block(&b);
    let e = validate::validate_block(&b, &bytes, &ProtocolParameters::dev_default()).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), ("network-id-mismatch", "payload.essence.networkId"));
}

#[test]
fn milestone_blocks_are_exempt_from_pow_but_need_nonce_zero() {
    let dev = ProtocolParameters::dev_default();
    let (a, bytes) = block(EXAMPLE_A);
    validate::validate_block(&a, &bytes, &dev).unwrap();
    validate::validate_milestone_block(&a).unwrap();

    let mut nonced = a.clone();
    nonced.nonce = 7;
    assert_eq!(
        validate::validate_milestone_block(&nonced).unwrap_err().code,
        "milestone-nonce-not-zero"
    );

    let mut moved = a.clone();
    moved.parents[1][31] = 2;
    let e = validate::validate_milestone_block(&moved).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), ("milestone-parents-mismatch", "payload.parents"));

    let (b, _) = block(EXAMPLE_B);
    assert_eq!(validate::validate_milestone_block(&b).unwrap_err().code, "not-a-milestone-block");
}

#[test]
fn stand_alone_entry_points_report_paths_from_their_own_root() {
    let dev = ProtocolParameters::dev_default();
    let (c, _) = block(EXAMPLE_C);
    let Some(Payload::Transaction(tx)) = c.payload else { unreachable!() };
    validate::validate_transaction(&tx, &dev).unwrap();
    let mut poor = tx.clone();
    if let Output::Basic(o) = &mut poor.essence.outputs[0] {
        o.amount = 42_599;
    }
    let e = validate::validate_transaction(&poor, &dev).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), ("storage-deposit-too-low", "essence.outputs[0].amount"));

    let output = json::output_from_json(&serde_json::json!({"type":3,"amount":"50000","unlockConditions":[
        {"type":0,"address":{"type":0,"pubKeyHash":"0x94974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b"}},
        {"type":2,"unixTime":0}]}))
    .unwrap();
    let e = validate::validate_output(&output, &dev).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), ("timelock-zero", "unlockConditions[1].unixTime"));

    let (a, _) = block(EXAMPLE_A);
    let Some(Payload::Milestone(mut m)) = a.payload else { unreachable!() };
    validate::validate_milestone(&m).unwrap();
    m.signatures.clear();
    let e = validate::validate_milestone(&m).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), ("milestone-no-signatures", "signatures"));
}
