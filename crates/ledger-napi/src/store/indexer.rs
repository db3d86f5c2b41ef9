//! Indexer queries for JavaScript (indexer.md §2–§3): the query object of the HTTP layer
//! (`src/server/pipeline/indexer-query.ts`, values already checked) as an `OutputQuery`, and
//! the body of a by-ID route (§3.4).

use crate::codec::hex_array;
use crate::errors::Result;
use ledger_core::model::OutputId;
use ledger_core::Code;
use ledger_store::{
    ChainId, OutputFilter, OutputKind, OutputPage, OutputQuery, OutputsOf, SortKey,
};
use napi_derive::napi;

/// An indexer query (indexer.md §2). Values are already checked by the HTTP layer:
/// addresses are bech32 of the network's HRP, the tag 0x-hex of 1 to 64 bytes.
#[napi(object)]
pub struct IndexerQuery {
    /// `outputs` (the four kinds merged), `basic`, `alias`, `foundry` or `nft`.
    pub route: String,
    pub unlockable_by_address: Option<String>,
    pub address: Option<String>,
    pub has_storage_deposit_return: Option<bool>,
    pub storage_deposit_return_address: Option<String>,
    pub has_timelock: Option<bool>,
    pub timelocked_before: Option<u32>,
    pub timelocked_after: Option<u32>,
    pub has_expiration: Option<bool>,
    pub expires_before: Option<u32>,
    pub expires_after: Option<u32>,
    pub expiration_return_address: Option<String>,
    pub sender: Option<String>,
    pub issuer: Option<String>,
    pub tag: Option<String>,
    pub state_controller: Option<String>,
    pub governor: Option<String>,
    pub alias_address: Option<String>,
    pub has_native_tokens: Option<bool>,
    pub min_native_token_count: Option<u32>,
    pub max_native_token_count: Option<u32>,
    pub created_before: Option<u32>,
    pub created_after: Option<u32>,
    /// The 76 hex digits of a cursor: the first key of the page.
    pub cursor: Option<String>,
    pub page_size: u32,
}

pub(crate) fn output_query(q: IndexerQuery) -> ledger_core::Result<OutputQuery> {
    let address = |value: &Option<String>, path: &str| -> ledger_core::Result<_> {
        value
            .as_deref()
            .map(|text| {
                ledger_core::bech32::decode_address(text)
                    .map(|(_, a)| a)
                    .map_err(|e| ledger_core::Error::new(e.code, path, e.detail))
            })
            .transpose()
    };
    let of = match q.route.as_str() {
        "outputs" => OutputsOf::AllKinds,
        "basic" => OutputsOf::Kind(OutputKind::Basic),
        "alias" => OutputsOf::Kind(OutputKind::Alias),
        "foundry" => OutputsOf::Kind(OutputKind::Foundry),
        "nft" => OutputsOf::Kind(OutputKind::Nft),
        other => {
            return Err(ledger_core::Error::new(
                Code::InvalidArgument,
                "route",
                format!("no indexer route {other}"),
            ))
        }
    };
    let tag = match &q.tag {
        Some(text) => Some(
            hex::decode(text.trim_start_matches("0x"))
                .map_err(|_| ledger_core::Error::new(Code::InvalidArgument, "tag", "not hex"))?,
        ),
        None => None,
    };
    let filter = OutputFilter {
        unlockable_by_address: address(&q.unlockable_by_address, "unlockableByAddress")?,
        address: address(&q.address, "address")?,
        has_storage_deposit_return: q.has_storage_deposit_return,
        storage_deposit_return_address: address(
            &q.storage_deposit_return_address,
            "storageDepositReturnAddress",
        )?,
        has_timelock: q.has_timelock,
        timelocked_before: q.timelocked_before,
        timelocked_after: q.timelocked_after,
        has_expiration: q.has_expiration,
        expires_before: q.expires_before,
        expires_after: q.expires_after,
        expiration_return_address: address(
            &q.expiration_return_address,
            "expirationReturnAddress",
        )?,
        sender: address(&q.sender, "sender")?,
        issuer: address(&q.issuer, "issuer")?,
        tag,
        state_controller: address(&q.state_controller, "stateController")?,
        governor: address(&q.governor, "governor")?,
        alias_address: address(&q.alias_address, "aliasAddress")?,
        has_native_tokens: q.has_native_tokens,
        min_native_token_count: q.min_native_token_count,
        max_native_token_count: q.max_native_token_count,
        created_before: q.created_before,
        created_after: q.created_after,
    };
    let cursor = q.cursor.as_deref().map(SortKey::from_hex).transpose()?;
    Ok(OutputQuery { of, filter, cursor, page_size: q.page_size })
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
