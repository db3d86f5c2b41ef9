//! transactions.jsonl under the semantic rules. Its transactions are random (their
//! signatures are made with unrelated keys and their amounts do not balance), so they are
//! conflicting; but each commits to exactly its consumed outputs, so step 3 must pass and
//! the reason must come from a later step.

mod common;
use common::*;

use ledger_core::model::{OutputId, Payload};
use ledger_core::validate::{check_transaction, ConflictReason};
use ledger_core::{codec, json};

#[test]
fn vector_transactions_pass_the_commitment_and_conflict_later() {
    for r in records("transactions.jsonl") {
        let name = r["name"].as_str().unwrap();
        let Payload::Transaction(tx) = codec::decode_payload(&hex_of(&r["bytes"])).unwrap() else {
            panic!("{name}")
        };
        let consumed: Vec<(OutputId, _)> = r["extra"]["consumedOutputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    hex_of(&c["outputId"]).try_into().unwrap(),
                    json::output_from_json(&c["output"]).unwrap(),
                )
            })
            .collect();
        // Past every timelock, so step 2 passes too.
        let reason = check_transaction(&tx, &consumed, u32::MAX).unwrap_err();
        assert!(
            !matches!(
                reason,
                ConflictReason::InvalidInputsCommitment
                    | ConflictReason::SemanticValidationFailed
                    | ConflictReason::TimelockNotExpired
            ),
            "{name}: {reason}"
        );
        // One consumed output swapped for another changes the commitment: reason 10.
        let mut swapped = consumed.clone();
        swapped[0].1 = consumed[consumed.len() - 1].1.clone();
        swapped[0].1 = match swapped[0].1.clone() {
            o if o != consumed[0].1 => o,
            _ => json::output_from_json(
                &serde_json::json!({"type":3,"amount":"1","unlockConditions":[
                {"type":0,"address":{"type":0,"pubKeyHash":format!("0x{}", "00".repeat(32))}}]}),
            )
            .unwrap(),
        };
        assert_eq!(
            check_transaction(&tx, &swapped, u32::MAX),
            Err(ConflictReason::InvalidInputsCommitment),
            "{name}"
        );
    }
}
