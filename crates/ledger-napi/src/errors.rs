//! How an error crosses into JavaScript: one format for every export.
//!
//! A failure is a JS `Error` whose `code` is the reason (a `ledger_core::Code`, the strings
//! of `src/core/error-codes.ts`) and whose message is `<path>\u{1f}<detail>`. Only
//! `src/core/errors.ts` reads it, back into `LedgerError.path` and `.detail`; the unit
//! separator cannot occur in a JSON path, so the split is unambiguous.
//!
//! The same object is thrown and rejected, whatever the kind of export:
//! - sync calls return `Err(to_napi(e))`, which napi throws;
//! - `AsyncTask`s compute a `ledger_core::Result` off the event loop and, in `resolve` (on
//!   the JS thread), turn an `Err` into [`rejection`];
//! - futures (gossip's peer methods) settle through [`promise`], deferreds (mining)
//!   through [`rejection`] in their resolver.
//!
//! Why the rejection is made by hand: napi's task and future errors are
//! `napi::Error<Status>`, and a promise rejected with one gets a napi status
//! (`GenericFailure`) as its `code`. A JS error made on the JS thread and handed to napi as
//! the value to reject with keeps ours.
//!
//! Not an error: `submitBlocks` answers one `SubmitOutcome` per block, and each carries an
//! optional `failure` (`NativeFailure`: code, path, detail). A batch's blocks fail one by one
//! while the others are stored, so a block's failure is part of the answer, not of the
//! call; `src/core/errors.ts` (`failureError`) makes the same LedgerError of it. The event
//! feed (`onEvents`, `setEventsActive`) throws like a sync call when it is set up, and its
//! events carry no failures (a failed commit emits none).

use ledger_core::{Code, Error};
use napi::bindgen_prelude::{PromiseRaw, ToNapiValue};
use napi::{Env, JsError};
use std::future::Future;

const SEPARATOR: char = '\u{1f}';

/// The error of a failed call, as sync calls throw it.
pub fn to_napi(e: Error) -> napi::Error<String> {
    napi::Error::new(e.code.as_str().to_string(), format!("{}{SEPARATOR}{}", e.path, e.detail))
}

pub fn invalid_argument(path: &str, detail: impl Into<String>) -> napi::Error<String> {
    to_napi(Error::new(Code::InvalidArgument, path, detail))
}

/// napi itself failed (a value or a thread could not be made).
pub fn binding_failure(detail: impl std::fmt::Display) -> napi::Error<String> {
    to_napi(Error::new(Code::BindingFailure, "", detail.to_string()))
}

/// The same error as the rejection of a promise: the JS error a sync call would throw,
/// made here on the JS thread, for napi to reject with as it is.
pub fn rejection(env: &Env, e: napi::Error<String>) -> napi::Error {
    napi::Error::from(JsError::from(e).into_unknown(*env))
}

/// A promise of `work`, run on napi's Tokio runtime: its value, or its error rejected as
/// [`rejection`] makes it. Everything that can fail goes inside `work`, so the call itself
/// always returns a promise.
pub fn promise<T, F>(env: &Env, work: F) -> Result<PromiseRaw<'_, T>>
where
    T: ToNapiValue + Send + 'static,
    F: Future<Output = Result<T>> + Send + 'static,
{
    env.spawn_future_with_callback(async move { Ok(work.await) }, |env, outcome| {
        outcome.map_err(|e| rejection(env, e))
    })
    .map_err(binding_failure)
}

pub type Result<T> = std::result::Result<T, napi::Error<String>>;
