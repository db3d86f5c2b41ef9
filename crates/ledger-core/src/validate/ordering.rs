//! Strictly ascending lists (parents, native tokens, unlock conditions, features): one
//! comparison says both "unsorted" and "duplicate", each with its own reason.

use crate::error::{Code, Error, Result};
use std::cmp::Ordering;

#[derive(Clone, Copy)]
pub(crate) enum List {
    Parents,
    NativeTokens,
    UnlockConditions,
    Features,
}

impl List {
    fn reason(self, duplicate: bool) -> Code {
        match (self, duplicate) {
            (List::Parents, true) => Code::ParentsDuplicate,
            (List::Parents, false) => Code::ParentsUnsorted,
            (List::NativeTokens, true) => Code::NativeTokensDuplicate,
            (List::NativeTokens, false) => Code::NativeTokensUnsorted,
            (List::UnlockConditions, true) => Code::UnlockConditionsDuplicate,
            (List::UnlockConditions, false) => Code::UnlockConditionsUnsorted,
            (List::Features, true) => Code::FeaturesDuplicate,
            (List::Features, false) => Code::FeaturesUnsorted,
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
