//! Every valid vector decodes and re-encodes to the same bytes, with the same ids.

mod common;
use common::*;

use ledger_core::{codec, ids, model::Payload};

fn json_roundtrip(o: &ledger_core::model::Output) -> serde_json::Value {
    ledger_core::json::output_to_json(&codec::decode_output(&codec::encode_output(o)).unwrap())
}

fn id_hex(id: &[u8]) -> String {
    format!("0x{}", hex::encode(id))
}

#[test]
fn valid_blocks_round_trip_with_their_ids() {
    for r in records("valid.jsonl").iter().filter(|r| r["kind"] == "block") {
        let name = r["name"].as_str().unwrap();
        let bytes = hex_of(&r["bytes"]);
        let block = codec::decode_block(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(codec::encode_block(&block), bytes, "{name}");
        assert_eq!(id_hex(&ids::block_id(&bytes)), r["id"], "{name}");
        if let Some(tx_id) = r["extra"].get("transactionId") {
            let Some(Payload::Transaction(tx)) = &block.payload else {
                panic!("{name}: not a transaction")
            };
            assert_eq!(&id_hex(&ids::transaction_id(tx)), tx_id, "{name}");
            assert_eq!(
                id_hex(&ids::essence_hash(&tx.essence)),
                r["extra"]["essenceHash"],
                "{name}"
            );
        }
        if let Some(ms_id) = r["extra"].get("milestoneId") {
            let Some(Payload::Milestone(m)) = &block.payload else {
                panic!("{name}: not a milestone")
            };
            assert_eq!(&id_hex(&ids::milestone_id(m)), ms_id, "{name}");
        }
    }
}

#[test]
fn transactions_round_trip_with_ids_and_commitments() {
    let mut all = records("transactions.jsonl");
    all.extend(records("valid.jsonl").into_iter().filter(|r| r["kind"] == "transaction"));
    for r in all {
        let name = r["name"].as_str().unwrap();
        let bytes = hex_of(&r["bytes"]);
        let payload = codec::decode_payload(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(codec::encode_payload(&payload), bytes, "{name}");
        let Payload::Transaction(tx) = &payload else { panic!("{name}") };
        assert_eq!(id_hex(&ids::transaction_id(tx)), r["id"], "{name}");
        assert_eq!(codec::encode_essence(&tx.essence), hex_of(&r["extra"]["essence"]), "{name}");
        assert_eq!(id_hex(&ids::essence_hash(&tx.essence)), r["extra"]["essenceHash"], "{name}");
        let consumed: Vec<Vec<u8>> = r["extra"]["consumedOutputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["output"].clone())
            .map(|o| codec::encode_output(&ledger_core::json::output_from_json(&o).unwrap()))
            .collect();
        assert_eq!(
            id_hex(&ids::inputs_commitment_of_bytes(consumed.iter().map(|b| b.as_slice()))),
            r["extra"]["inputsCommitment"],
            "{name}"
        );
        let tx_id = ids::transaction_id(tx);
        assert_eq!(ids::transaction_id_of_payload_bytes(&bytes), tx_id, "{name}");
        if let Some(output_ids) = r["extra"].get("outputIds").and_then(|v| v.as_array()) {
            assert_eq!(output_ids.len(), tx.essence.outputs.len(), "{name}");
            for (i, expected) in output_ids.iter().enumerate() {
                assert_eq!(&id_hex(&ids::output_id(&tx_id, i as u16)), expected, "{name}");
            }
        }
        if let (Some(network), Some(id)) =
            (r["extra"].get("networkName"), r["extra"].get("networkId"))
        {
            let computed = ledger_core::protocol::network_id(network.as_str().unwrap());
            assert_eq!(computed.to_string(), id.as_str().unwrap(), "{name}");
            assert_eq!(computed, tx.essence.network_id, "{name}");
        }
        for consumed in r["extra"]["consumedOutputs"].as_array().unwrap() {
            let o = ledger_core::json::output_from_json(&consumed["output"]).unwrap();
            assert_eq!(json_roundtrip(&o), consumed["output"], "{name}");
        }
    }
}

#[test]
fn milestones_and_outputs_round_trip() {
    for r in records("valid.jsonl").iter().filter(|r| r["kind"] == "milestone") {
        let name = r["name"].as_str().unwrap();
        let bytes = hex_of(&r["bytes"]);
        let m = codec::decode_milestone_payload(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(codec::encode_milestone_payload(&m), bytes, "{name}");
        assert_eq!(codec::encode_milestone_essence(&m), hex_of(&r["extra"]["essence"]), "{name}");
        assert_eq!(id_hex(&ids::milestone_id(&m)), r["id"], "{name}");
    }
    let mut outputs = records("outputs.jsonl");
    outputs.extend(records("valid.jsonl").into_iter().filter(|r| r["kind"] == "output"));
    for r in outputs {
        let name = r["name"].as_str().unwrap();
        let bytes = hex_of(&r["bytes"]);
        let o = codec::decode_output(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(codec::encode_output(&o), bytes, "{name}");
        assert_eq!(codec::output_len(&o), bytes.len(), "{name}");
    }
}

#[test]
fn outputs_have_their_ids_deposits_and_chain_ids() {
    use ledger_core::protocol::RentStructure;
    use ledger_core::validate::deposit::min_deposit;
    let rent =
        |cost| RentStructure { v_byte_cost: cost, v_byte_factor_data: 1, v_byte_factor_key: 10 };
    for r in records("outputs.jsonl") {
        let name = r["name"].as_str().unwrap();
        let o = codec::decode_output(&hex_of(&r["bytes"])).unwrap();
        let extra = &r["extra"];
        let tx: [u8; 32] = hex_of(&extra["transactionId"]).try_into().unwrap();
        let oid = ids::output_id(&tx, extra["outputIndex"].as_u64().unwrap() as u16);
        assert_eq!(id_hex(&oid), r["id"], "{name}");
        assert_eq!(
            min_deposit(&o, &rent(100)).to_string(),
            extra["storageDeposit"]["rent100"],
            "{name}"
        );
        assert_eq!(
            min_deposit(&o, &rent(500)).to_string(),
            extra["storageDeposit"]["rent500"],
            "{name}"
        );
        if let Some(alias) = extra.get("aliasId") {
            assert_eq!(&id_hex(&ids::alias_id_from_output_id(&oid)), alias, "{name}");
        }
        if let Some(nft) = extra.get("nftId") {
            assert_eq!(&id_hex(&ids::nft_id_from_output_id(&oid)), nft, "{name}");
        }
        if let (Some(fid), ledger_core::model::Output::Foundry(f)) = (extra.get("foundryId"), &o) {
            let alias = f.unlock_conditions.iter().find_map(|uc| match uc {
                ledger_core::model::UnlockCondition::ImmutableAliasAddress(a) => Some(*a.id()),
                _ => None,
            });
            assert_eq!(
                &id_hex(&ids::foundry_id(&alias.unwrap(), f.serial_number, 0)),
                fid,
                "{name}"
            );
        }
    }
}

#[test]
fn network_ids_of_the_vectors() {
    for r in records("valid.jsonl").iter().filter(|r| r["kind"] == "networkId") {
        let name = r["json"]["networkName"].as_str().unwrap();
        assert_eq!(hex_of(&r["bytes"]), name.as_bytes());
        assert_eq!(ledger_core::protocol::network_id(name).to_string(), r["id"], "{name}");
    }
    let path = vector_path("network-ids.json");
    let table: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(!table.is_empty());
    for (name, id) in table {
        assert_eq!(ledger_core::protocol::network_id(&name).to_string(), id, "{name}");
    }
}
