//! Indexer queries for JavaScript (indexer.md §2–§3): the query object of the HTTP layer
//! (`src/server/pipeline/indexer-query.ts`, values already checked) as an `OutputQuery`,
//! the list of filters that layer parses by (`indexerFilterFields()`), and the body of a
//! by-ID route (§3.4).
//!
//! The filters are not named here: the query object's `route`, `pageSize` and `cursor` are,
//! and every filter is read by ledger-store's list (`FILTER_FIELDS`: parameter name, kind of
//! value, the `OutputFilter` field it sets). A key the list does not name is ignored, as
//! napi ignores the extra keys of any object.

use crate::codec::hex_array;
use crate::errors::Result;
use ledger_core::model::{Address, OutputId};
use ledger_core::Code;
use ledger_store::{
    ChainId, FilterKind, OutputFilter, OutputPage, OutputQuery, OutputsOf, SortKey, FILTER_FIELDS,
};
use napi_derive::napi;
use serde_json::{Map, Value};

/// A filter of indexer queries (ledger-store `index/filters.rs`), as the HTTP layer reads
/// it; `indexerFilterFields()` lists them in the order a route's parameters are checked.
#[napi(object)]
#[derive(Debug, PartialEq)]
pub struct FilterFieldJs {
    /// The query parameter, which is also the key in `queryOutputs`' query object.
    pub name: String,
    /// `address`, `aliasAddress`, `boolean`, `time`, `tokenCount` or `tag`.
    pub kind: String,
    /// The routes that take it: `outputs`, `basic`, `alias`, `foundry`, `nft`.
    pub routes: Vec<String>,
}

/// Every filter of the indexer's list routes, in the order their parameters are checked.
#[napi]
pub fn indexer_filter_fields() -> Vec<FilterFieldJs> {
    FILTER_FIELDS
        .iter()
        .map(|field| FilterFieldJs {
            name: field.name.to_string(),
            kind: field.kind.name().to_string(),
            routes: field.routes.iter().map(|of| of.route().to_string()).collect(),
        })
        .collect()
}

fn invalid(path: &str, detail: impl Into<String>) -> ledger_core::Error {
    ledger_core::Error::new(Code::InvalidArgument, path, detail)
}

fn text<'q>(value: &'q Value, path: &str) -> ledger_core::Result<&'q str> {
    value.as_str().ok_or_else(|| invalid(path, "not a string"))
}

fn number(value: &Value, path: &str) -> ledger_core::Result<u32> {
    value.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| invalid(path, "not a u32"))
}

fn address(value: &Value, path: &str) -> ledger_core::Result<Address> {
    ledger_core::bech32::decode_address(text(value, path)?)
        .map(|(_, a)| a)
        .map_err(|e| ledger_core::Error::new(e.code, path, e.detail))
}

/// The query object of `LedgerStore.queryOutputs` as an `OutputQuery`: `route`, `pageSize`,
/// the optional `cursor` (the 76 hex digits of the page's first key) and the filters by
/// their parameter names. An absent or null filter is not asked.
pub(crate) fn output_query(query: &Map<String, Value>) -> ledger_core::Result<OutputQuery> {
    let given = |name: &str| query.get(name).filter(|v| !v.is_null());
    let route = text(given("route").ok_or_else(|| invalid("route", "missing"))?, "route")?;
    let of = OutputsOf::from_route(route)
        .ok_or_else(|| invalid("route", format!("no indexer route {route}")))?;
    let mut filter = OutputFilter::default();
    for field in FILTER_FIELDS {
        let Some(value) = given(field.name) else { continue };
        let name = field.name;
        match field.kind {
            FilterKind::Address(slot) | FilterKind::AliasAddress(slot) => {
                *slot(&mut filter) = Some(address(value, name)?)
            }
            FilterKind::Boolean(slot) => {
                *slot(&mut filter) =
                    Some(value.as_bool().ok_or_else(|| invalid(name, "not a boolean"))?)
            }
            FilterKind::Time(slot) | FilterKind::TokenCount(slot) => {
                *slot(&mut filter) = Some(number(value, name)?)
            }
            FilterKind::Tag(slot) => {
                let bytes = hex::decode(text(value, name)?.trim_start_matches("0x"))
                    .map_err(|_| invalid(name, "not hex"))?;
                *slot(&mut filter) = Some(bytes)
            }
        }
    }
    let cursor = given("cursor").map(|c| text(c, "cursor")).transpose()?;
    let cursor = cursor.map(SortKey::from_hex).transpose()?;
    let page_size =
        number(given("pageSize").ok_or_else(|| invalid("pageSize", "missing"))?, "pageSize")?;
    Ok(OutputQuery { of, filter, cursor, page_size })
}

/// The chain of a by-ID route (`kind`: `alias`, `nft` or `foundry`; `id`: 0x + 64 or 76
/// hex digits).
pub(crate) fn chain_id(kind: &str, id: &str) -> Result<ChainId> {
    Ok(match kind {
        "alias" => ChainId::Alias(hex_array::<32>(id, "aliasId")?),
        "nft" => ChainId::Nft(hex_array::<32>(id, "nftId")?),
        "foundry" => ChainId::Foundry(hex_array::<38>(id, "foundryId")?),
        other => return Err(crate::store::invalid_state(format!("no chain kind {other}"))),
    })
}

/// The body of a by-ID route (indexer.md §3.4): the one output, as a page of one.
pub(crate) fn chain_output_json(ledger_index: u32, found: Option<OutputId>) -> Option<String> {
    found.map(|output_id| {
        OutputPage { ledger_index, page_size: 0, items: vec![output_id], next: None }.to_json()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_store::OutputKind;
    use serde_json::json;

    const OWNER: Address = Address::Ed25519([0xab; 32]);

    fn bech32(address: &Address) -> String {
        ledger_core::bech32::encode_address("rms", address)
    }

    fn query(value: Value) -> ledger_core::Result<OutputQuery> {
        output_query(value.as_object().expect("an object"))
    }

    fn failure(value: Value) -> (String, String, String) {
        let e = query(value).expect_err("a failure");
        (e.code.to_string(), e.path, e.detail)
    }

    #[test]
    fn the_list_is_handed_over_with_kind_and_route_names() {
        let fields = indexer_filter_fields();
        assert_eq!(fields.len(), FILTER_FIELDS.len());
        assert_eq!(
            fields[0],
            FilterFieldJs {
                name: "unlockableByAddress".into(),
                kind: "address".into(),
                routes: vec!["outputs".into(), "basic".into(), "alias".into(), "nft".into()],
            }
        );
        let kind = |name: &str| fields.iter().find(|f| f.name == name).map(|f| f.kind.as_str());
        assert_eq!(kind("aliasAddress"), Some("aliasAddress"));
        assert_eq!(kind("hasTimelock"), Some("boolean"));
        assert_eq!(kind("expiresAfter"), Some("time"));
        assert_eq!(kind("maxNativeTokenCount"), Some("tokenCount"));
        assert_eq!(kind("tag"), Some("tag"));
    }

    #[test]
    fn route_page_size_and_cursor() {
        let q = query(json!({"route": "nft", "pageSize": 7})).unwrap();
        assert_eq!(q.of, OutputsOf::Kind(OutputKind::Nft));
        assert_eq!((q.page_size, q.cursor, q.filter), (7, None, OutputFilter::default()));
        let q = query(json!({"route": "outputs", "pageSize": 1, "cursor": "00".repeat(38)}));
        assert_eq!(q.unwrap().cursor.map(|c| c.to_hex()), Some("00".repeat(38)));
        assert_eq!(
            failure(json!({"route": "treasury", "pageSize": 1})),
            ("invalid-argument".into(), "route".into(), "no indexer route treasury".into())
        );
        assert_eq!(failure(json!({"pageSize": 1})).1, "route");
        assert_eq!(failure(json!({"route": "basic"})).1, "pageSize");
        assert_eq!(failure(json!({"route": "basic", "pageSize": -1})).1, "pageSize");
        let bad_cursor = failure(json!({"route": "basic", "pageSize": 1, "cursor": "0x12"}));
        assert_eq!((bad_cursor.0.as_str(), bad_cursor.1.as_str()), ("invalid-cursor", "cursor"));
    }

    #[test]
    fn each_kind_of_filter_is_read_into_its_field() {
        let alias = Address::Alias([0xcd; 32]);
        let q = query(json!({
            "route": "basic",
            "pageSize": 10,
            "address": bech32(&OWNER),
            "aliasAddress": bech32(&alias),
            "hasTimelock": false,
            "expiresBefore": 1_700_000_000u32,
            "minNativeTokenCount": 2,
            "tag": "0xabCD",
            "createdAfter": null,
            "somethingElse": "ignored",
        }))
        .unwrap();
        let expected = OutputFilter {
            address: Some(OWNER),
            alias_address: Some(alias),
            has_timelock: Some(false),
            expires_before: Some(1_700_000_000),
            min_native_token_count: Some(2),
            tag: Some(vec![0xab, 0xcd]),
            ..OutputFilter::default()
        };
        assert_eq!(q.filter, expected);
    }

    #[test]
    fn a_malformed_filter_is_named() {
        let with = |name: &str, value: Value| {
            let mut q = json!({"route": "basic", "pageSize": 1});
            q[name] = value;
            let (code, path, detail) = failure(q);
            assert_eq!(path, name, "{detail}");
            (code, detail)
        };
        assert_eq!(with("sender", json!("rms1xyz")).0, "invalid-bech32");
        assert_eq!(with("issuer", json!(5)), ("invalid-argument".into(), "not a string".into()));
        assert_eq!(with("hasExpiration", json!("true")).1, "not a boolean");
        assert_eq!(with("createdBefore", json!(1.5)).1, "not a u32");
        assert_eq!(with("maxNativeTokenCount", json!(u64::from(u32::MAX) + 1)).1, "not a u32");
        assert_eq!(with("tag", json!("0xzz")), ("invalid-argument".into(), "not hex".into()));
    }

    #[test]
    fn chain_ids_and_the_by_id_body() {
        let id = format!("0x{}", "11".repeat(32));
        assert_eq!(chain_id("alias", &id).unwrap(), ChainId::Alias([0x11; 32]));
        assert_eq!(chain_id("nft", &id).unwrap(), ChainId::Nft([0x11; 32]));
        let foundry = format!("0x{}", "22".repeat(38));
        assert_eq!(chain_id("foundry", &foundry).unwrap(), ChainId::Foundry([0x22; 38]));
        assert_eq!(chain_id("foundry", &id).unwrap_err().status, "invalid-argument");
        assert_eq!(chain_id("basic", &id).unwrap_err().status, "binding-failure");
        assert_eq!(chain_output_json(3, None), None);
        let body = chain_output_json(3, Some([0x33; 34])).unwrap();
        assert_eq!(
            body,
            format!("{{\"ledgerIndex\":3,\"pageSize\":0,\"items\":[\"0x{}\"]}}", "33".repeat(34))
        );
    }
}
