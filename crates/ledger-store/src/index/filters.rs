//! The filters of an indexer query (indexer.md §2.1, §2.2; TIP-26), listed once: each one's
//! query parameter, the kind of value it takes, the routes that accept it, and the field of
//! `OutputFilter` it sets. The binding converts a query from JavaScript by this list and
//! gives it to the HTTP layer (`indexerFilterFields()`), whose parser is driven by it
//! (`src/server/pipeline/indexer-query.ts`); what a filter *means* is `OutputFilter::matches`.
//!
//! The order of the list is the order the parser checks a route's parameters in: the first
//! malformed one is the one a 400 names (each route's list is inx-indexer's order).

use super::entry::OutputKind;
use super::query::{OutputFilter, OutputsOf};
use ledger_core::model::Address;

/// A filter's value as the query string spells it, and where it goes in `OutputFilter`.
#[derive(Clone, Copy)]
pub enum FilterKind {
    /// A bech32 address of the network.
    Address(fn(&mut OutputFilter) -> &mut Option<Address>),
    /// A bech32 address that must be an alias address (`aliasAddress`).
    AliasAddress(fn(&mut OutputFilter) -> &mut Option<Address>),
    /// `true`/`false` (Go's `strconv.ParseBool` spellings).
    Boolean(fn(&mut OutputFilter) -> &mut Option<bool>),
    /// A unix time: decimal u32.
    Time(fn(&mut OutputFilter) -> &mut Option<u32>),
    /// A number of native tokens: decimal, at most 64.
    TokenCount(fn(&mut OutputFilter) -> &mut Option<u32>),
    /// 0x-hex of at most 64 bytes (`0x` alone adds no condition).
    Tag(fn(&mut OutputFilter) -> &mut Option<Vec<u8>>),
}

impl FilterKind {
    /// The kind's name in `indexerFilterFields()`.
    pub fn name(self) -> &'static str {
        match self {
            FilterKind::Address(_) => "address",
            FilterKind::AliasAddress(_) => "aliasAddress",
            FilterKind::Boolean(_) => "boolean",
            FilterKind::Time(_) => "time",
            FilterKind::TokenCount(_) => "tokenCount",
            FilterKind::Tag(_) => "tag",
        }
    }
}

#[derive(Clone, Copy)]
pub struct FilterField {
    /// The query parameter, which is also the field's name in the binding's query object.
    pub name: &'static str,
    pub kind: FilterKind,
    /// The routes that take it (indexer.md §2.2); others ignore it.
    pub routes: &'static [OutputsOf],
}

const OUTPUTS: OutputsOf = OutputsOf::AllKinds;
const BASIC: OutputsOf = OutputsOf::Kind(OutputKind::Basic);
const ALIAS: OutputsOf = OutputsOf::Kind(OutputKind::Alias);
const FOUNDRY: OutputsOf = OutputsOf::Kind(OutputKind::Foundry);
const NFT: OutputsOf = OutputsOf::Kind(OutputKind::Nft);
const EVERY_ROUTE: &[OutputsOf] = &[OUTPUTS, BASIC, ALIAS, FOUNDRY, NFT];
/// Basic and NFT outputs: the owner's unlock conditions.
const OWNED: &[OutputsOf] = &[BASIC, NFT];

/// Every filter, in the order the parser checks them.
pub const FILTER_FIELDS: &[FilterField] = &[
    FilterField {
        name: "unlockableByAddress",
        kind: FilterKind::Address(|f| &mut f.unlockable_by_address),
        routes: &[OUTPUTS, BASIC, ALIAS, NFT],
    },
    FilterField { name: "address", kind: FilterKind::Address(|f| &mut f.address), routes: OWNED },
    FilterField {
        name: "hasStorageDepositReturn",
        kind: FilterKind::Boolean(|f| &mut f.has_storage_deposit_return),
        routes: OWNED,
    },
    FilterField {
        name: "storageDepositReturnAddress",
        kind: FilterKind::Address(|f| &mut f.storage_deposit_return_address),
        routes: OWNED,
    },
    FilterField {
        name: "hasTimelock",
        kind: FilterKind::Boolean(|f| &mut f.has_timelock),
        routes: OWNED,
    },
    FilterField {
        name: "timelockedBefore",
        kind: FilterKind::Time(|f| &mut f.timelocked_before),
        routes: OWNED,
    },
    FilterField {
        name: "timelockedAfter",
        kind: FilterKind::Time(|f| &mut f.timelocked_after),
        routes: OWNED,
    },
    FilterField {
        name: "hasExpiration",
        kind: FilterKind::Boolean(|f| &mut f.has_expiration),
        routes: OWNED,
    },
    FilterField {
        name: "expiresBefore",
        kind: FilterKind::Time(|f| &mut f.expires_before),
        routes: OWNED,
    },
    FilterField {
        name: "expiresAfter",
        kind: FilterKind::Time(|f| &mut f.expires_after),
        routes: OWNED,
    },
    FilterField {
        name: "expirationReturnAddress",
        kind: FilterKind::Address(|f| &mut f.expiration_return_address),
        routes: OWNED,
    },
    FilterField {
        name: "sender",
        kind: FilterKind::Address(|f| &mut f.sender),
        routes: &[BASIC, ALIAS, NFT],
    },
    FilterField { name: "tag", kind: FilterKind::Tag(|f| &mut f.tag), routes: OWNED },
    FilterField {
        name: "issuer",
        kind: FilterKind::Address(|f| &mut f.issuer),
        routes: &[ALIAS, NFT],
    },
    FilterField {
        name: "stateController",
        kind: FilterKind::Address(|f| &mut f.state_controller),
        routes: &[ALIAS],
    },
    FilterField {
        name: "governor",
        kind: FilterKind::Address(|f| &mut f.governor),
        routes: &[ALIAS],
    },
    FilterField {
        name: "aliasAddress",
        kind: FilterKind::AliasAddress(|f| &mut f.alias_address),
        routes: &[FOUNDRY],
    },
    FilterField {
        name: "hasNativeTokens",
        kind: FilterKind::Boolean(|f| &mut f.has_native_tokens),
        routes: EVERY_ROUTE,
    },
    FilterField {
        name: "minNativeTokenCount",
        kind: FilterKind::TokenCount(|f| &mut f.min_native_token_count),
        routes: EVERY_ROUTE,
    },
    FilterField {
        name: "maxNativeTokenCount",
        kind: FilterKind::TokenCount(|f| &mut f.max_native_token_count),
        routes: EVERY_ROUTE,
    },
    FilterField {
        name: "createdBefore",
        kind: FilterKind::Time(|f| &mut f.created_before),
        routes: EVERY_ROUTE,
    },
    FilterField {
        name: "createdAfter",
        kind: FilterKind::Time(|f| &mut f.created_after),
        routes: EVERY_ROUTE,
    },
];

impl OutputsOf {
    /// The five list routes, in indexer.md §1.1's order.
    pub const ROUTES: [OutputsOf; 5] = [OUTPUTS, BASIC, ALIAS, FOUNDRY, NFT];

    /// The route's name: the last path segment of `/api/indexer/v1/outputs[/…]`.
    pub fn route(self) -> &'static str {
        match self {
            OutputsOf::AllKinds => "outputs",
            OutputsOf::Kind(OutputKind::Basic) => "basic",
            OutputsOf::Kind(OutputKind::Alias) => "alias",
            OutputsOf::Kind(OutputKind::Foundry) => "foundry",
            OutputsOf::Kind(OutputKind::Nft) => "nft",
        }
    }

    pub fn from_route(route: &str) -> Option<OutputsOf> {
        OutputsOf::ROUTES.into_iter().find(|of| of.route() == route)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of `OutputFilter` is set by exactly one filter of the list (the
    /// destructuring names them all: a new field without a filter does not compile here).
    #[test]
    fn the_list_covers_every_field_of_the_filter_once() {
        let mut filter = OutputFilter::default();
        let a = Address::Ed25519([1; 32]);
        for field in FILTER_FIELDS {
            let fresh = match field.kind {
                FilterKind::Address(slot) | FilterKind::AliasAddress(slot) => {
                    slot(&mut filter).replace(a).is_none()
                }
                FilterKind::Boolean(slot) => slot(&mut filter).replace(true).is_none(),
                FilterKind::Time(slot) | FilterKind::TokenCount(slot) => {
                    slot(&mut filter).replace(1).is_none()
                }
                FilterKind::Tag(slot) => slot(&mut filter).replace(vec![1]).is_none(),
            };
            assert!(fresh, "{} sets a field another filter set", field.name);
        }
        let OutputFilter {
            unlockable_by_address,
            address,
            has_storage_deposit_return,
            storage_deposit_return_address,
            has_timelock,
            timelocked_before,
            timelocked_after,
            has_expiration,
            expires_before,
            expires_after,
            expiration_return_address,
            sender,
            issuer,
            tag,
            state_controller,
            governor,
            alias_address,
            has_native_tokens,
            min_native_token_count,
            max_native_token_count,
            created_before,
            created_after,
        } = filter;
        let addresses = [
            unlockable_by_address,
            address,
            storage_deposit_return_address,
            expiration_return_address,
            sender,
            issuer,
            state_controller,
            governor,
            alias_address,
        ];
        assert!(addresses.iter().all(Option::is_some));
        let flags = [has_storage_deposit_return, has_timelock, has_expiration, has_native_tokens];
        assert!(flags.iter().all(Option::is_some));
        let numbers = [
            timelocked_before,
            timelocked_after,
            expires_before,
            expires_after,
            min_native_token_count,
            max_native_token_count,
            created_before,
            created_after,
        ];
        assert!(numbers.iter().all(Option::is_some));
        assert!(tag.is_some());
        assert_eq!(FILTER_FIELDS.len(), addresses.len() + flags.len() + numbers.len() + 1);
    }

    #[test]
    fn routes_by_name_and_the_parameters_each_takes() {
        for of in OutputsOf::ROUTES {
            assert_eq!(OutputsOf::from_route(of.route()), Some(of));
        }
        assert_eq!(OutputsOf::from_route("treasury"), None);
        let taken = |of: OutputsOf| -> Vec<&str> {
            FILTER_FIELDS.iter().filter(|f| f.routes.contains(&of)).map(|f| f.name).collect()
        };
        let common = [
            "hasNativeTokens",
            "minNativeTokenCount",
            "maxNativeTokenCount",
            "createdBefore",
            "createdAfter",
        ];
        assert_eq!(taken(OUTPUTS), [&["unlockableByAddress"][..], &common].concat());
        assert_eq!(taken(FOUNDRY), [&["aliasAddress"][..], &common].concat());
        assert_eq!(
            taken(ALIAS),
            [
                &["unlockableByAddress", "sender", "issuer", "stateController", "governor"][..],
                &common
            ]
            .concat()
        );
        let owned = [
            "unlockableByAddress",
            "address",
            "hasStorageDepositReturn",
            "storageDepositReturnAddress",
            "hasTimelock",
            "timelockedBefore",
            "timelockedAfter",
            "hasExpiration",
            "expiresBefore",
            "expiresAfter",
            "expirationReturnAddress",
            "sender",
            "tag",
        ];
        assert_eq!(taken(BASIC), [&owned[..], &common].concat());
        assert_eq!(taken(NFT), [&owned[..], &["issuer"], &common].concat());
    }
}
