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
