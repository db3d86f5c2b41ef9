//! One error type for the node, from a block's bytes to the store and the binding.
//!
//! `code` is a [`Code`], the stable kebab-case reason (the names of `vectors/invalid.jsonl`
//! where one exists there; every code is listed once, in `code.rs`), `path` names the
//! offending field in JSON notation (`payload.essence.outputs[2].amount`, empty for the
//! block as a whole) and `detail` says what was wrong in words. The HTTP layer turns a
//! block's error into a 400 error body; `ledger-napi/src/errors.rs` says how an error
//! crosses into JavaScript.

mod code;

pub use code::{Code, UnknownCode};

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: Code,
    pub path: String,
    pub detail: String,
}

impl Error {
    pub fn new(code: Code, path: impl Into<String>, detail: impl Into<String>) -> Self {
        Error { code, path: path.into(), detail: detail.into() }
    }

    /// The same error seen from an enclosing object: `prefix` is prepended to the path.
    pub fn within(mut self, prefix: &str) -> Self {
        if prefix.is_empty() {
            return self;
        }
        self.path = if self.path.is_empty() {
            prefix.to_string()
        } else if self.path.starts_with('[') {
            format!("{prefix}{}", self.path)
        } else {
            format!("{prefix}.{}", self.path)
        };
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{} ({})", self.detail, self.code)
        } else {
            write!(f, "{}: {} ({})", self.path, self.detail, self.code)
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
