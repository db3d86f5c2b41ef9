//! The part of a transaction's check that needs no ledger: its essence hash and its
//! signatures. The white flag applies transactions one after the other, but a signature
//! verifies or not whatever the ledger holds, so a milestone's signatures can all be
//! checked before that pass, on several threads (Ed25519 is most of a transfer's cost).
//!
//! Only a positive answer is used: when every Signature Unlock verifies, the unlock step
//! skips its own verification, which could only have passed. When one does not, the
//! unlock step verifies as it always does, so the first failure and its reason stay
//! exactly those of validation.md §8 (a bad signature behind an earlier failure is not
//! reported as 5).

use crate::crypto;
use crate::ids;
use crate::model::{Id32, TransactionPayload, Unlock};

#[derive(Clone, Debug)]
pub struct Prechecked {
    pub essence_hash: Id32,
    /// Every Signature Unlock of the transaction verifies against `essence_hash` on its own.
    pub signatures_verified: bool,
}

impl Prechecked {
    /// Hash the essence and verify every signature, each on its own (a batch can accept a
    /// signature that the single check refuses; a single pass implies a batch pass).
    pub fn of(tx: &TransactionPayload) -> Prechecked {
        let essence_hash = ids::essence_hash(&tx.essence);
        let signatures_verified = tx.unlocks.iter().all(|unlock| match unlock {
            Unlock::Signature(s) => crypto::verify(&s.public_key, &essence_hash, &s.signature),
            _ => true,
        });
        Prechecked { essence_hash, signatures_verified }
    }

    /// The essence hash alone: the unlock step verifies the signatures itself.
    pub fn unverified(tx: &TransactionPayload) -> Prechecked {
        Prechecked { essence_hash: ids::essence_hash(&tx.essence), signatures_verified: false }
    }
}
