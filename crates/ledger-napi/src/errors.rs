//! How a protocol error crosses into JavaScript: a JS `Error` whose `code` is the reason
//! (`bad-hex`, `parents-unsorted`, …) and whose message is `<path>\u{1f}<detail>`, which
//! `src/core/errors.ts` splits back into `LedgerError.path` and `.detail`. The unit
//! separator cannot occur in a JSON path, so the split is unambiguous.

use ledger_core::Error;

pub const SEPARATOR: char = '\u{1f}';

pub fn to_napi(e: Error) -> napi::Error<String> {
    napi::Error::new(e.code.to_string(), format!("{}{SEPARATOR}{}", e.path, e.detail))
}

pub fn invalid_argument(path: &str, detail: impl Into<String>) -> napi::Error<String> {
    to_napi(Error::new("invalid-argument", path, detail))
}

pub type Result<T> = std::result::Result<T, napi::Error<String>>;
