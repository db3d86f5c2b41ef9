//! A large ledger for `npm run bench:indexer`, written straight into a node's data
//! directory through the store's synthetic bookings (the milestone's own record and index
//! batch code, no transactions), before the node first starts there.
//!
//! `cargo run --release -p ledger-store --example indexer_ledger -- <dataDir> [outputs] [minPowScore]`
//!
//! The genesis output (the dev genesis address, as the node's default configuration has
//! it) is spent into `outputs` outputs (default 1,000,000) over bookings of 10,000, with
//! created times a day before now. Among them: one Ed25519 address with exactly 1 output,
//! one with 10 and one with 1,000 (spread over the whole ledger); 1,000 outputs with one
//! tag; 1 % holding native tokens; some NFT, alias and foundry outputs and some with a
//! storage deposit return, timelock or expiration; all others owned by addresses holding
//! about four outputs each. Prints what the benchmark queries as one JSON line.

use ledger_core::bech32::encode_address;
use ledger_core::hash::blake2b256;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::protocol::ProtocolParameters;
use ledger_store::{Store, StoreOptions, SyntheticChanges};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

const BOOKING: usize = 10_000;
const DEV_GENESIS_ADDRESS: &str =
    "10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d";

fn address(label: &str, n: u64) -> Address {
    Address::Ed25519(blake2b256(format!("bench {label} {n}").as_bytes()))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let data_dir = PathBuf::from(
        args.first().expect("usage: indexer_ledger <dataDir> [outputs] [minPowScore]"),
    );
    let count: usize = args.get(1).map_or(1_000_000, |a| a.parse().expect("outputs: a number"));
    let min_pow_score: u32 =
        args.get(2).map_or(1500, |a| a.parse().expect("minPowScore: a number"));
    assert!(count >= 2_000, "at least 2,000 outputs");

    let protocol = ProtocolParameters { min_pow_score, ..ProtocolParameters::dev_default() };
    let genesis_address =
        Address::Ed25519(hex::decode(DEV_GENESIS_ADDRESS).unwrap().try_into().unwrap());
    let supply = protocol.token_supply;
    let genesis = Output::Basic(BasicOutput {
        amount: supply,
        native_tokens: vec![],
        unlock_conditions: vec![UnlockCondition::Address(genesis_address)],
        features: vec![],
    });
    let store = Store::open(
        &data_dir.join("ledger"),
        StoreOptions {
            protocol: protocol.clone(),
            genesis_outputs: vec![genesis],
            genesis_style: ledger_store::GenesisStyle::Ledger,
            snapshot: None,
            snapshot_delta: None,
            coordinator_seeds: vec![],
            trusted_public_keys: vec![],
            milestone_keys: Default::default(),
            coordinator_enabled: false,
            sync_writes: false,
            max_delta_ycri: 8,
            max_delta_ocri: 13,
            // The node's defaults (storage.blockCacheMiB, storage.writeBuffersMiB).
            block_cache_bytes: 64 << 20,
            write_buffer_bytes: 64 << 20,
            indexer_enabled: true,
        },
    )
    .expect("open the store");

    let rng = &mut StdRng::seed_from_u64(7);
    let (one, ten, thousand) = (address("one", 0), address("ten", 0), address("thousand", 0));
    let tag = b"bench-indexer".to_vec();
    // Positions of the special outputs, spread over the ledger.
    let spread = |n: usize, salt: usize| -> Vec<usize> {
        (0..n).map(|i| (i * (count / n) + salt * 7919) % count).collect()
    };
    let mut role = vec![0u8; count];
    for i in spread(1000, 1) {
        role[i] = 3;
    }
    for i in spread(1000, 2) {
        role[i] = 4;
    }
    for i in spread(10, 3) {
        role[i] = 2;
    }
    role[count / 2 + 1] = 1;

    let amount = supply / count as u64;
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() as u32;
    let started = Instant::now();
    let mut serial = 0u32;
    for (booking, start) in (0..count).step_by(BOOKING).enumerate() {
        let end = (start + BOOKING).min(count);
        let mut created = Vec::with_capacity(end - start);
        for (i, &role) in role.iter().enumerate().take(end).skip(start) {
            let tx = blake2b256(&(i as u64 / 100).to_le_bytes());
            let id = ids::output_id(&tx, (i % 100) as u16);
            let amount = if i == count - 1 { supply - amount * (count as u64 - 1) } else { amount };
            let owner = match role {
                1 => one,
                2 => ten,
                3 => thousand,
                _ => address("owner", rng.gen_range(0..count as u64 / 4)),
            };
            let native_tokens = if rng.gen_ratio(1, 100) {
                (0..rng.gen_range(1..=3u8))
                    .map(|t| NativeToken { id: [t + 1; 38], amount: [1; 32] })
                    .collect()
            } else {
                vec![]
            };
            let mut features = Vec::new();
            if role == 4 {
                features.push(Feature::Tag(tag.clone()));
            } else if rng.gen_ratio(5, 100) {
                features.push(Feature::Tag(format!("tag {}", rng.gen_range(0..100)).into_bytes()));
            }
            let mut conditions = vec![UnlockCondition::Address(owner)];
            if role == 0 {
                if rng.gen_ratio(5, 100) {
                    conditions.push(UnlockCondition::StorageDepositReturn {
                        return_address: address("owner", rng.gen_range(0..count as u64 / 4)),
                        amount: 50_000,
                    });
                }
                if rng.gen_ratio(5, 100) {
                    conditions.push(UnlockCondition::Timelock {
                        unix_time: now + rng.gen_range(0..86_400),
                    });
                }
                if rng.gen_ratio(5, 100) {
                    conditions.push(UnlockCondition::Expiration {
                        return_address: address("owner", rng.gen_range(0..count as u64 / 4)),
                        unix_time: now + rng.gen_range(0..86_400),
                    });
                }
            }
            let output = match (role, rng.gen_range(0..1000)) {
                (0, 0..=19) => Output::Nft(NftOutput {
                    amount,
                    native_tokens,
                    nft_id: [0; 32],
                    unlock_conditions: conditions,
                    features,
                    immutable_features: vec![],
                }),
                (0, 20..=24) => Output::Alias(AliasOutput {
                    amount,
                    native_tokens,
                    alias_id: [0; 32],
                    state_index: 0,
                    state_metadata: vec![],
                    foundry_counter: 0,
                    unlock_conditions: vec![
                        UnlockCondition::StateControllerAddress(owner),
                        UnlockCondition::GovernorAddress(owner),
                    ],
                    features: vec![],
                    immutable_features: vec![],
                }),
                (0, 25) => {
                    serial += 1;
                    Output::Foundry(FoundryOutput {
                        amount,
                        native_tokens,
                        serial_number: serial,
                        token_scheme: TokenScheme::Simple {
                            minted_tokens: [0; 32],
                            melted_tokens: [0; 32],
                            maximum_supply: [1; 32],
                        },
                        unlock_conditions: vec![UnlockCondition::ImmutableAliasAddress(
                            Address::Alias(blake2b256(&serial.to_le_bytes())),
                        )],
                        features: vec![],
                        immutable_features: vec![],
                    })
                }
                _ => Output::Basic(BasicOutput {
                    amount,
                    native_tokens,
                    unlock_conditions: conditions,
                    features,
                }),
            };
            created.push((id, output));
        }
        let consumed = if booking == 0 { vec![[0u8; 34]] } else { vec![] };
        let timestamp = now - 86_400 + booking as u32 * 10;
        store.book_synthetic(SyntheticChanges { timestamp, created, consumed }).expect("book");
    }
    let seconds = started.elapsed().as_secs_f64();
    drop(store);
    let hrp = &protocol.bech32_hrp;
    println!(
        "{}",
        serde_json::json!({
            "outputs": count,
            "seconds": seconds,
            "one": encode_address(hrp, &one),
            "ten": encode_address(hrp, &ten),
            "thousand": encode_address(hrp, &thousand),
            "tag": format!("0x{}", hex::encode(&tag)),
        })
    );
}
