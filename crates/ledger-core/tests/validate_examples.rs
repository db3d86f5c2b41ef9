//! The worked examples of wire-format §9 (from `vectors/worked-examples.json`) under the
//! rules: PoW is judged last and at the dev minimum, the milestone block rules, and error
//! paths of the stand-alone entry points.

mod common;

use common::worked_examples;
use ledger_core::model::{Block, Output, Payload};
use ledger_core::protocol::ProtocolParameters;
use ledger_core::Code;
use ledger_core::{codec, json, validate};

/// Example `name` of the spec, decoded, and its bytes.
fn block(name: &str) -> (Block, Vec<u8>) {
    let bytes = worked_examples::block(name);
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
    for name in ["B", "C"] {
        let (b, bytes) = block(name);
        validate::validate_block(&b, &bytes, &dev).unwrap();
        let changed = with_nonce(bytes, b.nonce + 1);
        let b2 = codec::decode_block(&changed).unwrap();
        let e = validate::validate_block(&b2, &changed, &dev).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (Code::PowScoreTooLow, "nonce"));
    }
}

#[test]
fn a_broken_rule_is_reported_before_the_pow_score() {
    let (mut b, _) = block("C");
    let Some(Payload::Transaction(tx)) = &mut b.payload else { unreachable!() };
    tx.essence.network_id += 1;
    let bytes = codec::encode_block(&b);
    let e = validate::validate_block(&b, &bytes, &ProtocolParameters::dev_default()).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::NetworkIdMismatch, "payload.essence.networkId"));
}

#[test]
fn milestone_blocks_are_exempt_from_pow_but_need_nonce_zero() {
    let dev = ProtocolParameters::dev_default();
    let (a, bytes) = block("A");
    validate::validate_block(&a, &bytes, &dev).unwrap();
    validate::validate_milestone_block(&a).unwrap();

    let mut nonced = a.clone();
    nonced.nonce = 7;
    assert_eq!(
        validate::validate_milestone_block(&nonced).unwrap_err().code,
        Code::MilestoneNonceNotZero
    );

    let mut moved = a.clone();
    moved.parents[1][31] = 2;
    let e = validate::validate_milestone_block(&moved).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::MilestoneParentsMismatch, "payload.parents"));

    let (b, _) = block("B");
    assert_eq!(validate::validate_milestone_block(&b).unwrap_err().code, Code::NotAMilestoneBlock);
}

#[test]
fn stand_alone_entry_points_report_paths_from_their_own_root() {
    let dev = ProtocolParameters::dev_default();
    let (c, _) = block("C");
    let Some(Payload::Transaction(tx)) = c.payload else { unreachable!() };
    validate::validate_transaction(&tx, &dev).unwrap();
    let mut poor = tx.clone();
    if let Output::Basic(o) = &mut poor.essence.outputs[0] {
        o.amount = 42_599;
    }
    let e = validate::validate_transaction(&poor, &dev).unwrap_err();
    assert_eq!(
        (e.code, e.path.as_str()),
        (Code::StorageDepositTooLow, "essence.outputs[0].amount")
    );

    let recipient = worked_examples::text("/keys/recipient/address");
    let output =
        json::output_from_json(&serde_json::json!({"type":3,"amount":"50000","unlockConditions":[
        {"type":0,"address":{"type":0,"pubKeyHash":recipient}},
        {"type":2,"unixTime":0}]}))
        .unwrap();
    let e = validate::validate_output(&output, &dev).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::TimelockZero, "unlockConditions[1].unixTime"));

    let (a, _) = block("A");
    let Some(Payload::Milestone(mut m)) = a.payload else { unreachable!() };
    validate::validate_milestone(&m).unwrap();
    m.signatures.clear();
    let e = validate::validate_milestone(&m).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::MilestoneNoSignatures, "signatures"));
}
