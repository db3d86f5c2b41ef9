//! Every invalid vector is rejected with exactly its named reason; every valid block passes
//! the rules of its own network.

mod common;
use common::*;
use ledger_core::Code;

use ledger_core::protocol::{ProtocolParameters, RentStructure};
use ledger_core::{codec, json, model::Payload, validate};
use serde_json::Value;

/// The parameter table of vectors/README.md, with the PoW check off so it masks nothing.
fn params(network: &str) -> ProtocolParameters {
    let supply =
        if network == "iota-mainnet" { 4_600_000_000_000_000 } else { 1_813_620_509_061_365 };
    ProtocolParameters {
        version: 2,
        network_name: network.to_string(),
        bech32_hrp: "tst".into(),
        min_pow_score: 0,
        below_max_depth: 15,
        rent_structure: RentStructure {
            v_byte_cost: 100,
            v_byte_factor_data: 1,
            v_byte_factor_key: 10,
        },
        token_supply: supply,
    }
}

fn check(r: &Value) -> Result<(), ledger_core::Error> {
    let p = params(r["network"].as_str().unwrap());
    let bytes = if r["form"] == "json" {
        codec::encode_block(&json::block_from_json(&r["json"])?)
    } else {
        hex::decode(r["bytes"].as_str().unwrap().trim_start_matches("0x")).unwrap()
    };
    let block = codec::decode_block(&bytes)?;
    validate::validate_block(&block, &bytes, &p)
}

#[test]
fn every_invalid_record_is_rejected_with_its_reason() {
    let mut wrong = Vec::new();
    let all = records("invalid.jsonl");
    for r in &all {
        let name = r["name"].as_str().unwrap();
        let reason = r["reason"].as_str().unwrap();
        match check(r) {
            Ok(()) => wrong.push(format!("{name}: accepted, expected {reason}")),
            Err(e) if e.code.as_str() != reason => wrong.push(format!(
                "{name}: got {} at {} ({}), expected {reason}",
                e.code, e.path, e.detail
            )),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{} of {} wrong:\n{}", wrong.len(), all.len(), wrong.join("\n"));
}

#[test]
fn every_valid_block_passes_its_networks_rules() {
    for r in records("valid.jsonl").iter().filter(|r| r["kind"] == "block") {
        let name = r["name"].as_str().unwrap();
        let bytes = hex::decode(r["bytes"].as_str().unwrap().trim_start_matches("0x")).unwrap();
        let block = codec::decode_block(&bytes).unwrap();
        let network = r["extra"].get("networkName").and_then(|n| n.as_str()).unwrap_or("shimmer");
        let mut p = params(network);
        if let Some(Payload::Transaction(tx)) = &block.payload {
            // The token supply of the record's network is not given for transactions outside the table.
            p.token_supply =
                p.token_supply.max(tx.essence.outputs.iter().map(|o| o.amount()).sum());
        }
        validate::validate_block(&block, &bytes, &p).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// D40: the `parents-too-few/*` records (one parent) are refused for the API (above) and
/// are well-formed blocks when a peer sends them; no parents at all is refused from either.
#[test]
fn one_parent_is_enough_from_a_peer_only() {
    let few: Vec<Value> = records("invalid.jsonl")
        .into_iter()
        .filter(|r| r["reason"] == Code::ParentsTooFew.as_str())
        .collect();
    assert!(!few.is_empty());
    for r in &few {
        let name = r["name"].as_str().unwrap();
        let p = params(r["network"].as_str().unwrap());
        let bytes = if r["form"] == "json" {
            codec::encode_block(&json::block_from_json(&r["json"]).unwrap())
        } else {
            hex::decode(r["bytes"].as_str().unwrap().trim_start_matches("0x")).unwrap()
        };
        let mut block = codec::decode_block(&bytes).unwrap();
        assert_eq!(block.parents.len(), 1, "{name}");
        assert_eq!(
            validate::validate_block_from(&block, &bytes, &p, validate::BlockOrigin::Api)
                .unwrap_err()
                .code,
            Code::ParentsTooFew,
            "{name}"
        );
        validate::validate_block_from(&block, &bytes, &p, validate::BlockOrigin::Peer)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        block.parents.clear();
        let none = codec::encode_block(&block);
        for origin in [validate::BlockOrigin::Api, validate::BlockOrigin::Peer] {
            assert_eq!(
                validate::validate_block_from(&block, &none, &p, origin).unwrap_err().code,
                Code::ParentsTooFew,
                "{name} {origin:?}"
            );
        }
    }
}
