//! Property: random well-formed blocks survive bytes and JSON unchanged, and their ids are
//! the hashes of the right byte ranges.

mod generator;

use generator::Gen;
use ledger_core::model::{Block, Payload, MAX_BLOCK_LENGTH};
use ledger_core::{codec, hash::blake2b256, ids, json};

const CASES: u64 = 3000;

#[test]
fn random_blocks_round_trip_through_bytes_and_json() {
    let mut gen = Gen::new(0x5eed_c0de);
    for case in 0..CASES {
        let block = gen.block();
        let bytes = codec::encode_block(&block);
        assert!(
            bytes.len() <= MAX_BLOCK_LENGTH,
            "case {case}: generator made {} bytes",
            bytes.len()
        );
        let decoded =
            codec::decode_block(&bytes).unwrap_or_else(|e| panic!("case {case}: {e}\n{block:?}"));
        assert_eq!(decoded, block, "case {case}");

        let value = json::block_to_json(&block);
        let back: Block =
            json::block_from_json(&value).unwrap_or_else(|e| panic!("case {case}: {e}\n{value}"));
        assert_eq!(back, block, "case {case}");
        let text: serde_json::Value = serde_json::from_str(&json::text::block(&block)).unwrap();
        assert_eq!(text, value, "case {case}");

        check_ids(&block, &bytes, case);
    }
}

fn check_ids(block: &Block, bytes: &[u8], case: u64) {
    assert_eq!(ids::block_id(bytes), blake2b256(bytes));
    // The payload slot sits after version, count and parents; its u32 length is not hashed.
    let slot = 2 + 32 * block.parents.len();
    let len = u32::from_le_bytes(bytes[slot..slot + 4].try_into().unwrap()) as usize;
    let payload_bytes = &bytes[slot + 4..slot + 4 + len];
    match &block.payload {
        Some(Payload::Transaction(tx)) => {
            assert_eq!(
                ids::transaction_id(tx),
                ids::transaction_id_of_payload_bytes(payload_bytes),
                "case {case}"
            );
            assert_eq!(
                ids::transaction_id(tx),
                ids::transaction_id_in_block(bytes, block.parents.len()),
                "case {case}"
            );
            let essence = codec::encode_essence(&tx.essence);
            assert_eq!(&payload_bytes[4..4 + essence.len()], essence.as_slice(), "case {case}");
            assert_eq!(ids::essence_hash(&tx.essence), blake2b256(&essence), "case {case}");
            let outputs: Vec<_> = tx.essence.outputs.iter().collect();
            let serialized: Vec<Vec<u8>> =
                outputs.iter().map(|o| codec::encode_output(o)).collect();
            assert_eq!(
                ids::inputs_commitment(&outputs),
                ids::inputs_commitment_of_bytes(serialized.iter().map(|b| b.as_slice())),
                "case {case}"
            );
            for (o, b) in outputs.iter().zip(&serialized) {
                assert_eq!(codec::output_len(o), b.len(), "case {case}");
                assert_eq!(&codec::decode_output(b).unwrap(), *o, "case {case}");
            }
        }
        Some(Payload::Milestone(m)) => {
            let essence = codec::encode_milestone_essence(m);
            assert_eq!(&payload_bytes[4..4 + essence.len()], essence.as_slice(), "case {case}");
            assert_eq!(ids::milestone_id(m), blake2b256(&essence), "case {case}");
            assert_eq!(codec::encode_milestone_payload(m), payload_bytes, "case {case}");
            assert_eq!(
                &codec::decode_milestone_payload(payload_bytes).unwrap(),
                m.as_ref(),
                "case {case}"
            );
        }
        Some(p) => assert_eq!(codec::encode_payload(p), payload_bytes, "case {case}"),
        None => assert_eq!(len, 0),
    }
}
