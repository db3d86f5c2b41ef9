//! How a protocol error crosses into JavaScript: a JS `Error` whose `code` is the reason
//! (`bad-hex`, `parents-unsorted`, …) and whose message is `<path>\u{1f}<detail>`, which
//! `src/core/errors.ts` splits back into `LedgerError.path` and `.detail`. The unit
//! separator cannot occur in a JSON path, so the split is unambiguous.
//!
//! Per export: sync calls throw as above; async tasks put a `failure` field in their
//! result (`SubmitOutcome`, `MilestoneOutcome`); `LedgerStore.open` rejects with
//! `code␟path␟detail`; the event feed (`onEvents`, `setEventsActive`) throws like a sync
//! call when it is set up, and its events carry no failures (a failed commit emits none).

use ledger_core::Code;
use ledger_core::Error;

pub const SEPARATOR: char = '\u{1f}';

pub fn to_napi(e: Error) -> napi::Error<String> {
    napi::Error::new(e.code.to_string(), format!("{}{SEPARATOR}{}", e.path, e.detail))
}

pub fn invalid_argument(path: &str, detail: impl Into<String>) -> napi::Error<String> {
    to_napi(Error::new(Code::InvalidArgument, path, detail))
}

pub type Result<T> = std::result::Result<T, napi::Error<String>>;
