//! Strictly ascending lists (parents, native tokens, unlock conditions, features): one
//! comparison says both "unsorted" and "duplicate", each with its own reason.

use crate::error::{Error, Result};
use std::cmp::Ordering;

#[derive(Clone, Copy)]
pub(crate) enum List {
    Parents,
    NativeTokens,
    UnlockConditions,
    Features,
}

impl List {
    fn reason(self, duplicate: bool) -> &'static str {
        match (self, duplicate) {
            (List::Parents, true) => "parents-duplicate",
            (List::Parents, false) => "parents-unsorted",
            (List::NativeTokens, true) => "native-tokens-duplicate",
            (List::NativeTokens, false) => "native-tokens-unsorted",
            (List::UnlockConditions, true) => "unlock-conditions-duplicate",
            (List::UnlockConditions, false) => "unlock-conditions-unsorted",
            (List::Features, true) => "features-duplicate",
            (List::Features, false) => "features-unsorted",
        }
    }
}

/// `current` must come strictly after `previous`; `path` is built only on failure.
pub(crate) fn strictly_after<T: Ord>(
    previous: &T,
    current: &T,
    list: List,
    path: impl FnOnce() -> String,
) -> Result<()> {
    match previous.cmp(current) {
        Ordering::Less => Ok(()),
        Ordering::Equal => Err(Error::new(
            list.reason(true),
            path(),
            "duplicate entry; the list must be strictly ascending",
        )),
        Ordering::Greater => {
            Err(Error::new(list.reason(false), path(), "the list must be strictly ascending"))
        }
    }
}
