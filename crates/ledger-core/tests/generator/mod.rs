//! Random well-formed Stardust objects for property and fuzz tests: every list fits its
//! count width, every byte string its length prefix, and a block stays under 32768 bytes.
//! Most shapes also follow the rules (sorted parents, 2..8 of them, allowed unlock
//! conditions per output type) so that the generated blocks look like real traffic.
#![allow(dead_code)]

use ledger_core::model::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub struct Gen {
    pub rng: StdRng,
}

impl Gen {
    pub fn new(seed: u64) -> Self {
        Gen { rng: StdRng::seed_from_u64(seed) }
    }

    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        self.rng.fill(&mut out[..]);
        out
    }

    fn vec(&mut self, min: usize, max: usize) -> Vec<u8> {
        let len = self.rng.gen_range(min..=max);
        (0..len).map(|_| self.rng.gen()).collect()
    }

    fn sorted_ids(&mut self, min: usize, max: usize) -> Vec<Id32> {
        let n = self.rng.gen_range(min..=max);
        let mut ids: Vec<Id32> = (0..n).map(|_| self.bytes()).collect();
        ids.sort();
        ids.dedup();
        ids
    }

    fn u256(&mut self) -> U256 {
        // Small, large and zero values: the JSON form trims leading zeros.
        let mut v = [0u8; 32];
        let significant = self.rng.gen_range(0..=32);
        self.rng.fill(&mut v[..significant]);
        v
    }

    pub fn address(&mut self) -> Address {
        match self.rng.gen_range(0..3) {
            0 => Address::Ed25519(self.bytes()),
            1 => Address::Alias(self.bytes()),
            _ => Address::Nft(self.bytes()),
        }
    }

    fn signature(&mut self) -> Ed25519Signature {
        Ed25519Signature { public_key: self.bytes(), signature: self.bytes() }
    }

    fn native_tokens(&mut self) -> Vec<NativeToken> {
        let n = self.rng.gen_range(0..=3);
        (0..n).map(|_| NativeToken { id: self.bytes(), amount: self.u256() }).collect()
    }

    fn feature(&mut self, allowed: &[u8]) -> Feature {
        match allowed[self.rng.gen_range(0..allowed.len())] {
            0 => Feature::Sender(self.address()),
            1 => Feature::Issuer(self.address()),
            2 => Feature::Metadata(self.vec(1, 200)),
            _ => Feature::Tag(self.vec(1, 64)),
        }
    }

    fn features(&mut self, allowed: &[u8]) -> Vec<Feature> {
        let n = self.rng.gen_range(0..=allowed.len());
        (0..n).map(|_| self.feature(allowed)).collect()
    }

    fn owner_conditions(&mut self) -> Vec<UnlockCondition> {
        let mut list = vec![UnlockCondition::Address(self.address())];
        if self.rng.gen_bool(0.3) {
            list.push(UnlockCondition::StorageDepositReturn {
                return_address: self.address(),
                amount: self.rng.gen(),
            });
        }
        if self.rng.gen_bool(0.3) {
            list.push(UnlockCondition::Timelock { unix_time: self.rng.gen() });
        }
        if self.rng.gen_bool(0.3) {
            list.push(UnlockCondition::Expiration {
                return_address: self.address(),
                unix_time: self.rng.gen(),
            });
        }
        list
    }

    pub fn output(&mut self) -> Output {
        let amount = self.rng.gen();
        match self.rng.gen_range(0..4) {
            0 => Output::Basic(BasicOutput {
                amount,
                native_tokens: self.native_tokens(),
                unlock_conditions: self.owner_conditions(),
                features: self.features(&[0, 2, 3]),
            }),
            1 => Output::Alias(AliasOutput {
                amount,
                native_tokens: self.native_tokens(),
                alias_id: self.bytes(),
                state_index: self.rng.gen(),
                state_metadata: self.vec(0, 100),
                foundry_counter: self.rng.gen(),
                unlock_conditions: vec![
                    UnlockCondition::StateControllerAddress(self.address()),
                    UnlockCondition::GovernorAddress(self.address()),
                ],
                features: self.features(&[0, 2]),
                immutable_features: self.features(&[1, 2]),
            }),
            2 => Output::Foundry(FoundryOutput {
                amount,
                native_tokens: self.native_tokens(),
                serial_number: self.rng.gen(),
                token_scheme: TokenScheme::Simple {
                    minted_tokens: self.u256(),
                    melted_tokens: self.u256(),
                    maximum_supply: self.u256(),
                },
                unlock_conditions: vec![UnlockCondition::ImmutableAliasAddress(Address::Alias(
                    self.bytes(),
                ))],
                features: self.features(&[2]),
                immutable_features: self.features(&[2]),
            }),
            _ => Output::Nft(NftOutput {
                amount,
                native_tokens: self.native_tokens(),
                nft_id: self.bytes(),
                unlock_conditions: self.owner_conditions(),
                features: self.features(&[0, 2, 3]),
                immutable_features: self.features(&[1, 2]),
            }),
        }
    }

    fn tagged_data(&mut self) -> TaggedData {
        TaggedData { tag: self.vec(0, 64), data: self.vec(0, 2000) }
    }

    pub fn transaction(&mut self) -> TransactionPayload {
        let inputs: Vec<Input> = (0..self.rng.gen_range(1..=4))
            .map(|_| Input::Utxo {
                transaction_id: self.bytes(),
                output_index: self.rng.gen_range(0..128),
            })
            .collect();
        let outputs = (0..self.rng.gen_range(1..=4)).map(|_| self.output()).collect();
        let payload = self.rng.gen_bool(0.3).then(|| Payload::TaggedData(self.tagged_data()));
        let unlocks = (0..inputs.len())
            .map(|i| match (i, self.rng.gen_range(0..4)) {
                (0, _) | (_, 0) => Unlock::Signature(self.signature()),
                (_, 1) => Unlock::Reference(0),
                (_, 2) => Unlock::Alias(0),
                _ => Unlock::Nft(0),
            })
            .collect();
        TransactionPayload {
            essence: RegularEssence {
                network_id: self.rng.gen(),
                inputs,
                inputs_commitment: self.bytes(),
                outputs,
                payload,
            },
            unlocks,
        }
    }

    pub fn milestone(&mut self, parents: &[Id32]) -> MilestonePayload {
        let mut options = Vec::new();
        if self.rng.gen_bool(0.3) {
            let funds = (0..self.rng.gen_range(1..=3))
                .map(|_| MigratedFundsEntry {
                    tail_transaction_hash: self.bytes(),
                    address: Address::Ed25519(self.bytes()),
                    deposit: self.rng.gen(),
                })
                .collect();
            options.push(MilestoneOption::Receipt(ReceiptOption {
                migrated_at: self.rng.gen(),
                last: self.rng.gen(),
                funds,
                transaction: TreasuryTransaction {
                    input: Input::Treasury { milestone_id: self.bytes() },
                    output: Output::Treasury { amount: self.rng.gen() },
                },
            }));
        }
        if self.rng.gen_bool(0.3) {
            options.push(MilestoneOption::ProtocolParameters {
                target_milestone_index: self.rng.gen(),
                protocol_version: self.rng.gen(),
                params: self.vec(0, 64),
            });
        }
        let mut signatures: Vec<Ed25519Signature> =
            (0..self.rng.gen_range(1..=3)).map(|_| self.signature()).collect();
        signatures.sort_by_key(|s| s.public_key);
        MilestonePayload {
            index: self.rng.gen(),
            timestamp: self.rng.gen(),
            protocol_version: 2,
            previous_milestone_id: self.bytes(),
            parents: parents.to_vec(),
            inclusion_merkle_root: self.bytes(),
            applied_merkle_root: self.bytes(),
            metadata: self.vec(0, 40),
            options,
            signatures,
        }
    }

    pub fn block(&mut self) -> Block {
        let parents = self.sorted_ids(2, 8);
        let payload = match self.rng.gen_range(0..4) {
            0 => None,
            1 => Some(Payload::TaggedData(self.tagged_data())),
            2 => Some(Payload::Transaction(Box::new(self.transaction()))),
            _ => Some(Payload::Milestone(Box::new(self.milestone(&parents)))),
        };
        let nonce = if matches!(payload, Some(Payload::Milestone(_))) { 0 } else { self.rng.gen() };
        Block { protocol_version: 2, parents, payload, nonce }
    }
}
