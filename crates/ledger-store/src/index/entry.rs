//! What the indexer knows about one unspent output: its kind, every field a filter of
//! indexer.md §2.1 tests, and the chain it continues (§2.3). Derived from the output alone,
//! so the same entry comes out of a milestone commit and of a rebuild from the ledger.

use ledger_core::ids;
use ledger_core::model::{
    Address, Feature, Id32, Output, OutputId, TokenId, TokenScheme, UnlockCondition,
};

/// The four output kinds the indexer serves, with their type codes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum OutputKind {
    Basic = 3,
    Alias = 4,
    Foundry = 5,
    Nft = 6,
}

impl OutputKind {
    pub const ALL: [OutputKind; 4] =
        [OutputKind::Basic, OutputKind::Alias, OutputKind::Foundry, OutputKind::Nft];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<OutputKind> {
        OutputKind::ALL.into_iter().find(|k| k.code() == code)
    }

    pub fn of(output: &Output) -> Option<OutputKind> {
        OutputKind::from_code(output.type_code())
    }
}

/// The filterable fields of an output (indexer.md §2.1); absent ones are None. The filters
/// that test them (`OutputFilter`, `OutputFilter::matches`) are listed in `filters.rs`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexedOutput {
    /// Address unlock condition (basic, NFT).
    pub address: Option<Address>,
    /// Storage deposit return unlock condition's return address.
    pub storage_deposit_return: Option<Address>,
    /// Timelock unlock condition's unix time.
    pub timelock: Option<u32>,
    /// Expiration unlock condition: return address and unix time.
    pub expiration: Option<(Address, u32)>,
    /// Sender feature (alias: the mutable one).
    pub sender: Option<Address>,
    /// Immutable issuer feature.
    pub issuer: Option<Address>,
    pub tag: Option<Vec<u8>>,
    pub state_controller: Option<Address>,
    pub governor: Option<Address>,
    /// Immutable alias address unlock condition (foundry).
    pub alias_address: Option<Address>,
    /// How many native tokens the output holds (at most 64).
    pub native_tokens: u8,
}

impl IndexedOutput {
    pub fn of(output: &Output) -> IndexedOutput {
        let mut entry = IndexedOutput {
            native_tokens: output.native_tokens().len().min(u8::MAX as usize) as u8,
            ..Default::default()
        };
        for condition in output.unlock_conditions() {
            match condition {
                UnlockCondition::Address(a) => entry.address = Some(*a),
                UnlockCondition::StorageDepositReturn { return_address, .. } => {
                    entry.storage_deposit_return = Some(*return_address)
                }
                UnlockCondition::Timelock { unix_time } => entry.timelock = Some(*unix_time),
                UnlockCondition::Expiration { return_address, unix_time } => {
                    entry.expiration = Some((*return_address, *unix_time))
                }
                UnlockCondition::StateControllerAddress(a) => entry.state_controller = Some(*a),
                UnlockCondition::GovernorAddress(a) => entry.governor = Some(*a),
                UnlockCondition::ImmutableAliasAddress(a) => entry.alias_address = Some(*a),
            }
        }
        for feature in output.features() {
            match feature {
                Feature::Sender(a) => entry.sender = Some(*a),
                Feature::Tag(t) => entry.tag = Some(t.clone()),
                Feature::Issuer(_) | Feature::Metadata(_) => {}
            }
        }
        for feature in output.immutable_features() {
            if let Feature::Issuer(a) = feature {
                entry.issuer = Some(*a);
            }
        }
        entry
    }

    /// `unlockableByAddress` (indexer.md §2.1): any address that can unlock the output
    /// under some condition — owner, SDR or expiration return address, state controller,
    /// governor, or (foundry) its alias. Each kind only carries its own subset.
    pub fn unlockable_by(&self, address: &Address) -> bool {
        let candidates = [
            self.address,
            self.storage_deposit_return,
            self.expiration.map(|(a, _)| a),
            self.state_controller,
            self.governor,
            self.alias_address,
        ];
        candidates.iter().any(|c| c.as_ref() == Some(address))
    }
}

/// The chain an alias, NFT or foundry output belongs to (indexer.md §2.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ChainId {
    Alias(Id32),
    Nft(Id32),
    Foundry(TokenId),
}

impl ChainId {
    /// A zero alias/NFT id (the chain's first output) is the id derived from the output id.
    pub fn of(output: &Output, output_id: &OutputId) -> Option<ChainId> {
        let derived = |id: &Id32, derive: fn(&OutputId) -> Id32| {
            if *id == [0; 32] {
                derive(output_id)
            } else {
                *id
            }
        };
        match output {
            Output::Alias(a) => {
                Some(ChainId::Alias(derived(&a.alias_id, ids::alias_id_from_output_id)))
            }
            Output::Nft(n) => Some(ChainId::Nft(derived(&n.nft_id, ids::nft_id_from_output_id))),
            Output::Foundry(f) => {
                let alias = f.unlock_conditions.iter().find_map(|c| match c {
                    UnlockCondition::ImmutableAliasAddress(Address::Alias(id)) => Some(*id),
                    _ => None,
                })?;
                let scheme_type = match f.token_scheme {
                    TokenScheme::Simple { .. } => 0,
                };
                Some(ChainId::Foundry(ids::foundry_id(&alias, f.serial_number, scheme_type)))
            }
            Output::Treasury { .. } | Output::Basic(_) => None,
        }
    }

    pub fn kind(&self) -> OutputKind {
        match self {
            ChainId::Alias(_) => OutputKind::Alias,
            ChainId::Nft(_) => OutputKind::Nft,
            ChainId::Foundry(_) => OutputKind::Foundry,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_core::model::*;

    #[test]
    fn an_nft_with_every_condition_is_indexed_under_each_of_its_addresses() {
        let a = |n: u8| Address::Ed25519([n; 32]);
        let nft = Output::Nft(NftOutput {
            amount: 1,
            native_tokens: vec![NativeToken { id: [1; 38], amount: [1; 32] }],
            nft_id: [0; 32],
            unlock_conditions: vec![
                UnlockCondition::Address(a(1)),
                UnlockCondition::StorageDepositReturn { return_address: a(2), amount: 5 },
                UnlockCondition::Timelock { unix_time: 7 },
                UnlockCondition::Expiration { return_address: a(3), unix_time: 9 },
            ],
            features: vec![Feature::Sender(a(4)), Feature::Tag(b"t".to_vec())],
            immutable_features: vec![Feature::Issuer(a(5))],
        });
        let entry = IndexedOutput::of(&nft);
        assert_eq!(entry.address, Some(a(1)));
        assert_eq!(entry.storage_deposit_return, Some(a(2)));
        assert_eq!(entry.timelock, Some(7));
        assert_eq!(entry.expiration, Some((a(3), 9)));
        assert_eq!(entry.sender, Some(a(4)));
        assert_eq!(entry.issuer, Some(a(5)));
        assert_eq!(entry.tag.as_deref(), Some(&b"t"[..]));
        assert_eq!(entry.native_tokens, 1);
        assert!(
            entry.unlockable_by(&a(1)) && entry.unlockable_by(&a(2)) && entry.unlockable_by(&a(3))
        );
        assert!(!entry.unlockable_by(&a(4)) && !entry.unlockable_by(&a(5)));
        let id = [7u8; 34];
        assert_eq!(ChainId::of(&nft, &id), Some(ChainId::Nft(ids::nft_id_from_output_id(&id))));
    }
}
