//! Step 4: every input is unlocked by its unlock (validation.md §8.1).
//!
//! Signatures are collected during the walk and verified together (batch verification
//! pays from a few signatures on). The first failure still decides the reason: before a
//! later input is reported as 9 or 12, the signatures of the inputs before it are verified,
//! because a bad one among them is the earlier failure (5). Signatures verified ahead
//! (`Prechecked`) are not verified again.

use super::context::Context;
use super::owner::owner_of;
use super::precheck::Prechecked;
use super::ConflictReason;
use crate::crypto;
use crate::model::*;
use std::collections::HashMap;

/// What the unlocks established, for the later steps.
pub(super) struct Unlocked {
    /// Ed25519 address → index of the Signature Unlock that unlocked it.
    pub ed25519: HashMap<Id32, usize>,
    /// The owning address of each input (§8.1), in input order.
    pub owners: Vec<Address>,
}

impl Unlocked {
    /// §8.2: Ed25519 — unlocked by a Signature Unlock; Alias — consumed and
    /// state-transitioned; NFT — consumed.
    pub fn is_unlocked(&self, ctx: &Context, address: &Address) -> bool {
        match address {
            Address::Ed25519(a) => self.ed25519.contains_key(a),
            Address::Alias(id) => ctx.alias_state_transitioned(id),
            Address::Nft(id) => ctx.input_nfts.contains_key(id),
        }
    }
}

struct PendingSignatures<'m> {
    message: &'m [u8],
    items: Vec<([u8; 32], &'m [u8], [u8; 64])>,
    /// Every signature of the transaction is known to verify.
    verified_ahead: bool,
}

impl PendingSignatures<'_> {
    /// Ok if every collected signature verifies, else reason 5.
    fn verify(&mut self) -> Result<(), ConflictReason> {
        let ok = self.verified_ahead || crypto::verify_batch(&self.items);
        self.items.clear();
        if ok {
            Ok(())
        } else {
            Err(ConflictReason::InvalidSignature)
        }
    }

    /// Report `reason` for the current input unless an earlier signature fails first.
    fn fail(&mut self, reason: ConflictReason) -> ConflictReason {
        match self.verify() {
            Err(earlier) => earlier,
            Ok(()) => reason,
        }
    }
}

pub(super) fn unlock_inputs(ctx: &Context, pre: &Prechecked) -> Result<Unlocked, ConflictReason> {
    let count = ctx.consumed.len();
    let mut unlocked =
        Unlocked { ed25519: HashMap::with_capacity(count), owners: Vec::with_capacity(count) };
    let mut pending = PendingSignatures {
        message: &pre.essence_hash,
        items: Vec::with_capacity(count),
        verified_ahead: pre.signatures_verified,
    };
    for (i, unlock) in ctx.tx.unlocks.iter().enumerate() {
        let owner = owner_of(ctx, i).map_err(|reason| pending.fail(reason))?;
        match (&owner, unlock) {
            (Address::Ed25519(address), Unlock::Signature(s)) => {
                if crypto::ed25519_address(&s.public_key) != *address {
                    return Err(ConflictReason::InvalidSignature);
                }
                if unlocked.ed25519.contains_key(address) {
                    // A second Signature Unlock for one address: it must be a Reference.
                    return Err(pending.fail(ConflictReason::InvalidInputUnlock));
                }
                pending.items.push((s.public_key, pending.message, s.signature));
                unlocked.ed25519.insert(*address, i);
            }
            (Address::Ed25519(address), Unlock::Reference(r)) => {
                if unlocked.ed25519.get(address) != Some(&(*r as usize)) {
                    return Err(pending.fail(ConflictReason::InvalidInputUnlock));
                }
            }
            (Address::Alias(id), Unlock::Alias(r)) => {
                let holds = ctx.input_aliases.get(id) == Some(&(*r as usize));
                if !(holds && (*r as usize) < i && ctx.alias_state_transitioned(id)) {
                    return Err(pending.fail(ConflictReason::InvalidInputUnlock));
                }
            }
            (Address::Nft(id), Unlock::Nft(r)) => {
                let holds = ctx.input_nfts.get(id) == Some(&(*r as usize));
                if !(holds && (*r as usize) < i) {
                    return Err(pending.fail(ConflictReason::InvalidInputUnlock));
                }
            }
            _ => return Err(pending.fail(ConflictReason::InvalidInputUnlock)),
        }
        unlocked.owners.push(owner);
    }
    pending.verify()?;
    Ok(unlocked)
}
