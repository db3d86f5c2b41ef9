//! JSON paths for error messages, built only when an error is being reported.
//!
//! Decoding and validation name every field they touch, and building those names costs an
//! allocation each — most of the time spent on a valid block. So the work runs first with
//! path building off (`key`/`index` return an empty, non-allocating String); only if it
//! fails is it run again with paths on, to report exactly where. Valid input — the common
//! case — never pays for paths, and every error still carries one.

use crate::error::Result;
use std::cell::Cell;

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
}

fn tracking() -> bool {
    TRACKING.with(Cell::get)
}

/// `prefix.key` (or `key` at the root) while paths are tracked.
pub fn key(prefix: &str, key: &str) -> String {
    if !tracking() {
        return String::new();
    }
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// `prefix[index]` while paths are tracked.
pub fn index(prefix: &str, index: usize) -> String {
    if !tracking() {
        return String::new();
    }
    format!("{prefix}[{index}]")
}

/// Run `work` without paths; if it fails, run it again with paths to report the error.
/// `work` must be deterministic and free of side effects.
pub fn precise<T>(work: impl Fn() -> Result<T>) -> Result<T> {
    if tracking() {
        return work();
    }
    match work() {
        Ok(value) => Ok(value),
        Err(_) => {
            TRACKING.with(|t| t.set(true));
            let reported = work();
            TRACKING.with(|t| t.set(false));
            reported
        }
    }
}
