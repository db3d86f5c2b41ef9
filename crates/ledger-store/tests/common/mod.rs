//! Shared by the store's integration tests: the dev network of the spec with the
//! coordinator key of wire-format §9, the spec's worked examples (read from
//! `vectors/worked-examples.json` by ledger-core's test reader), and small helpers.
#![allow(dead_code)]

#[path = "../../../ledger-core/tests/common/worked_examples.rs"]
pub mod worked_examples;

use ledger_core::hash::blake2b256;
use ledger_core::protocol::ProtocolParameters;
use ledger_store::{Store, StoreOptions};
use std::path::Path;

pub const SUPPLY: u64 = 4_600_000_000_000_000;

/// The bytes of the spec's Example `name` ("A", "B", "C": wire-format §9; "D": ledger.md §7.4).
pub fn example(name: &str) -> Vec<u8> {
    worked_examples::block(name)
}
/// Seed of the spec's dev coordinator: BLAKE2b-256("ledger-devnet-coordinator").
pub fn coordinator_seed() -> [u8; 32] {
    blake2b256(b"ledger-devnet-coordinator")
}

/// The dev genesis key of ledger.md §1.1.
pub fn genesis_seed() -> [u8; 32] {
    worked_examples::hex32("/keys/genesis/seed")
}

pub fn genesis_address() -> [u8; 32] {
    ledger_core::crypto::ed25519_address(&ledger_core::crypto::public_key(&genesis_seed()))
}

pub fn dev_protocol(min_pow_score: u32) -> ProtocolParameters {
    ProtocolParameters { min_pow_score, ..ProtocolParameters::dev_default() }
}

pub fn dev_options(min_pow_score: u32) -> StoreOptions {
    StoreOptions {
        protocol: dev_protocol(min_pow_score),
        genesis_outputs: vec![basic_output(SUPPLY, genesis_address())],
        genesis_style: ledger_store::GenesisStyle::Ledger,
        snapshot: None,
        snapshot_delta: None,
        coordinator_seeds: vec![coordinator_seed()],
        trusted_public_keys: vec![],
        milestone_keys: Default::default(),
        coordinator_enabled: true,
        sync_writes: false,
        max_delta_ycri: 8,
        max_delta_ocri: 13,
        block_cache_bytes: 8 << 20,
        write_buffer_bytes: 8 << 20,
        indexer_enabled: true,
    }
}

pub fn open_dev(path: &Path, min_pow_score: u32) -> Store {
    Store::open(path, dev_options(min_pow_score)).unwrap()
}

pub fn basic_output(amount: u64, address: [u8; 32]) -> ledger_core::model::Output {
    use ledger_core::model::*;
    Output::Basic(BasicOutput {
        amount,
        native_tokens: vec![],
        unlock_conditions: vec![UnlockCondition::Address(Address::Ed25519(address))],
        features: vec![],
    })
}

pub fn unhex(text: &str) -> Vec<u8> {
    hex::decode(text.trim_start_matches("0x")).unwrap()
}

pub fn id32(text: &str) -> [u8; 32] {
    unhex(text).try_into().unwrap()
}

pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// A value transfer signed by `seed`: every input unlocked by one signature (the first)
/// and references to it.
pub fn transfer(
    seed: &[u8; 32],
    inputs: &[(ledger_core::model::OutputId, ledger_core::model::Output)],
    outputs: Vec<ledger_core::model::Output>,
) -> ledger_core::model::TransactionPayload {
    use ledger_core::model::*;
    let consumed: Vec<&Output> = inputs.iter().map(|(_, o)| o).collect();
    let essence = RegularEssence {
        network_id: dev_protocol(0).network_id(),
        inputs: inputs
            .iter()
            .map(|(id, _)| Input::Utxo {
                transaction_id: id[..32].try_into().unwrap(),
                output_index: u16::from_le_bytes([id[32], id[33]]),
            })
            .collect(),
        inputs_commitment: ledger_core::ids::inputs_commitment(&consumed),
        outputs,
        payload: None,
    };
    let hash = ledger_core::ids::essence_hash(&essence);
    let signature = Ed25519Signature {
        public_key: ledger_core::crypto::public_key(seed),
        signature: ledger_core::crypto::sign(seed, &hash),
    };
    let mut unlocks = vec![Unlock::Signature(signature)];
    unlocks.extend((1..inputs.len()).map(|_| Unlock::Reference(0)));
    TransactionPayload { essence, unlocks }
}

/// A block with the store's tips as parents and nonce 0 (for minPowScore 0).
pub fn block_bytes(store: &Store, payload: Option<ledger_core::model::Payload>) -> Vec<u8> {
    let block = ledger_core::model::Block {
        protocol_version: 2,
        parents: store.select_tips().unwrap(),
        payload,
        nonce: 0,
    };
    ledger_core::codec::encode_block(&block)
}

pub fn tx_block(store: &Store, tx: &ledger_core::model::TransactionPayload) -> Vec<u8> {
    block_bytes(store, Some(ledger_core::model::Payload::Transaction(Box::new(tx.clone()))))
}

pub fn genesis_output() -> ledger_core::model::Output {
    basic_output(SUPPLY, genesis_address())
}

/// A milestone signed (again) with the spec's coordinator key, in its block (nonce 0).
pub fn signed_milestone_block(mut m: ledger_core::model::MilestonePayload) -> Vec<u8> {
    use ledger_core::model::*;
    let seed = coordinator_seed();
    let id = ledger_core::ids::milestone_id(&m);
    m.signatures = vec![Ed25519Signature {
        public_key: ledger_core::crypto::public_key(&seed),
        signature: ledger_core::crypto::sign(&seed, &id),
    }];
    ledger_core::codec::encode_block(&Block {
        protocol_version: 2,
        parents: m.parents.clone(),
        payload: Some(Payload::Milestone(Box::new(m))),
        nonce: 0,
    })
}
