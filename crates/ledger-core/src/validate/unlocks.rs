//! Unlock rules that need no ledger state (validation.md §4.2). Which unlock an input
//! really needs depends on the output it consumes: that is semantic (§8.1).

use super::transaction::MAX_INPUTS;
use crate::error::{Code, Error, Result};
use crate::model::*;
use std::collections::HashSet;

/// `path` is the unlocks list's own path (`payload.unlocks`).
pub(crate) fn validate_unlocks(list: &[Unlock], input_count: usize, path: &str) -> Result<()> {
    if list.len() != input_count {
        return Err(Error::new(
            Code::UnlocksCountMismatch,
            path,
            format!("{} unlocks for {input_count} inputs", list.len()),
        ));
    }
    let mut signatures = HashSet::new();
    for (i, unlock) in list.iter().enumerate() {
        let at = || format!("{path}[{i}]");
        match unlock {
            Unlock::Signature(s) => {
                if !signatures.insert((s.public_key, s.signature)) {
                    return Err(Error::new(
                        Code::DuplicateSignatureUnlock,
                        at(),
                        "the same signature unlock appears twice; use a reference unlock",
                    ));
                }
            }
            Unlock::Reference(r) => {
                let r = *r as usize;
                if r >= i || r >= MAX_INPUTS {
                    return Err(Error::new(
                        Code::InvalidReferenceUnlock,
                        format!("{}.reference", at()),
                        format!("reference {r} must point at an earlier unlock"),
                    ));
                }
                if !matches!(list[r], Unlock::Signature(_)) {
                    return Err(Error::new(
                        Code::ReferenceToNonSignatureUnlock,
                        format!("{}.reference", at()),
                        format!("unlock {r} is not a signature unlock"),
                    ));
                }
            }
            Unlock::Alias(r) | Unlock::Nft(r) => {
                let r = *r as usize;
                let code = if matches!(unlock, Unlock::Alias(_)) {
                    Code::InvalidAliasUnlock
                } else {
                    Code::InvalidNftUnlock
                };
                // Which unlock the chain input itself used is a semantic question (the
                // reference library and the vectors accept any earlier unlock here).
                if r >= i || r >= MAX_INPUTS {
                    return Err(Error::new(
                        code,
                        format!("{}.reference", at()),
                        format!("reference {r} must point at an earlier unlock"),
                    ));
                }
            }
        }
    }
    Ok(())
}
