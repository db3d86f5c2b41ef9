//! The treasury and receipts for JavaScript (TIP-25 `/treasury`, `/receipts`): the response
//! bodies as JSON text, written by ledger-store (`receipts.rs`). Synchronous point reads
//! (a receipts list is a prefix scan of a family that is empty on networks without
//! migration); they throw on failure (errors.rs).

use crate::errors::{to_napi, Result};
use crate::store::LedgerStore;
use napi_derive::napi;

/// `{"milestoneId":…,"amount":…}`: the unspent treasury output.
#[napi]
pub fn treasury_json(store: &LedgerStore) -> Result<String> {
    store.get()?.treasury_json().map_err(to_napi)
}

/// `{"receipts":[…]}`: every receipt, or those of one migratedAt index.
#[napi]
pub fn receipts_json(store: &LedgerStore, migrated_at: Option<u32>) -> Result<String> {
    store.get()?.receipts_json(migrated_at).map_err(to_napi)
}
