//! Shared by the store's integration tests: the dev network of the spec with the
//! coordinator key of wire-format §9, and small helpers.
#![allow(dead_code)]

use ledger_core::hash::blake2b256;
use ledger_core::protocol::ProtocolParameters;
use ledger_store::{Store, StoreOptions};
use std::path::Path;

pub const SUPPLY: u64 = 4_600_000_000_000_000;
pub const EXAMPLE_B: &str = "02020000000000000000000000000000000000000000000000000000000000000000c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e191a00000005000000066c65646765720b00000068656c6c6f20776f726c649598000000000000";
pub const EXAMPLE_C: &str = "0202344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e191801000006000000018a8858e8d276564701000000000000000000000000000000000000000000000000000000000000000000000000612e9253921357593702d25b30902b598be48af07b1f4aae5d600d5f565693fa02000340420f00000000000001000094974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b0003c03de8f5ac5710000001000010d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d000000000001000000b39a6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e18cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171d703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09362c150000000000";

/// Seed of the spec's dev coordinator: BLAKE2b-256("ledger-devnet-coordinator").
pub fn coordinator_seed() -> [u8; 32] {
    blake2b256(b"ledger-devnet-coordinator")
}

/// The dev genesis key of ledger.md §1.1.
pub fn genesis_seed() -> [u8; 32] {
    id32("0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71")
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
