//! Milestone payloads: how the embedded coordinator builds and signs one (ledger.md §6),
//! and how a node that follows another coordinator checks one before applying it.

use ledger_core::crypto;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::{Error, Result};

/// The coordinator's Ed25519 keys: 32-byte seeds and their public keys.
#[derive(Clone)]
pub struct CoordinatorKeys {
    seeds: Vec<[u8; 32]>,
}

impl CoordinatorKeys {
    pub fn new(seeds: Vec<[u8; 32]>) -> Self {
        CoordinatorKeys { seeds }
    }

    pub fn public_keys(&self) -> Vec<[u8; 32]> {
        self.seeds.iter().map(crypto::public_key).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.seeds.is_empty()
    }

    /// Every key signs the milestone id; signatures sorted by public key (ledger.md §6 step 5).
    pub fn sign(&self, milestone: &mut MilestonePayload) {
        let id = ids::milestone_id(milestone);
        let mut signatures: Vec<Ed25519Signature> =
            self.seeds.iter().map(|seed| Ed25519Signature { public_key: crypto::public_key(seed), signature: crypto::sign(seed, &id) }).collect();
        signatures.sort_by(|a, b| a.public_key.cmp(&b.public_key));
        milestone.signatures = signatures;
    }
}

/// What a milestone essence is made of, before signing.
pub struct Essence {
    pub index: u32,
    pub timestamp: u32,
    pub previous_milestone_id: Id32,
    pub parents: Vec<Id32>,
    pub inclusion_root: Id32,
    pub applied_root: Id32,
}

pub fn build(essence: Essence, keys: &CoordinatorKeys) -> MilestonePayload {
    let mut m = MilestonePayload {
        index: essence.index,
        timestamp: essence.timestamp,
        protocol_version: PROTOCOL_VERSION,
        previous_milestone_id: essence.previous_milestone_id,
        parents: essence.parents,
        inclusion_merkle_root: essence.inclusion_root,
        applied_merkle_root: essence.applied_root,
        metadata: Vec::new(),
        options: Vec::new(),
        signatures: Vec::new(),
    };
    keys.sign(&mut m);
    m
}

/// The milestone's block: protocol version 2, the milestone's parents, nonce 0.
pub fn block_of(milestone: MilestonePayload) -> Block {
    Block { protocol_version: PROTOCOL_VERSION, parents: milestone.parents.clone(), payload: Some(Payload::Milestone(Box::new(milestone))), nonce: 0 }
}

/// The last applied milestone, as the next one must continue it.
pub struct Previous {
    pub index: u32,
    pub milestone_id: Id32,
    pub timestamp: u32,
}

/// Checks of a milestone issued elsewhere that need no ledger walk: it continues the
/// chain, and exactly the configured coordinator keys signed its id (threshold = all).
/// What the first milestone may approve depends on the ledger's entry points: the store
/// checks that.
pub fn check_foreign(m: &MilestonePayload, previous: &Previous, public_keys: &[[u8; 32]]) -> Result<()> {
    let expected = previous.index + 1;
    if m.index != expected {
        return Err(Error::new("milestone-index-mismatch", "payload.index", format!("milestone {} arrived, the next is {expected}", m.index)));
    }
    if m.previous_milestone_id != previous.milestone_id {
        return Err(Error::new(
            "milestone-previous-id-mismatch",
            "payload.previousMilestoneId",
            format!("milestone {} does not follow milestone 0x{}", m.index, hex::encode(previous.milestone_id)),
        ));
    }
    if previous.index > 0 && m.timestamp <= previous.timestamp {
        return Err(Error::new("milestone-timestamp-not-increasing", "payload.timestamp", format!("{} is not after the previous milestone's {}", m.timestamp, previous.timestamp)));
    }
    let mut signers: Vec<[u8; 32]> = m.signatures.iter().map(|s| s.public_key).collect();
    signers.sort();
    let mut expected_keys = public_keys.to_vec();
    expected_keys.sort();
    if signers != expected_keys {
        return Err(Error::new("milestone-signers-mismatch", "payload.signatures", "the milestone is not signed by exactly the configured coordinator keys"));
    }
    let id = ids::milestone_id(m);
    for (i, s) in m.signatures.iter().enumerate() {
        if !crypto::verify(&s.public_key, &id, &s.signature) {
            return Err(Error::new("milestone-signature-invalid", format!("payload.signatures[{i}].signature"), "the signature does not verify against the milestone id"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first() -> MilestonePayload {
        let keys = CoordinatorKeys::new(vec![[7; 32]]);
        build(
            Essence {
                index: 1,
                timestamp: 1_700_000_000,
                previous_milestone_id: [0; 32],
                parents: crate::origin::GenesisStyle::Ledger.entry_points(),
                inclusion_root: [0; 32],
                applied_root: [0; 32],
            },
            &keys,
        )
    }

    #[test]
    fn a_signed_milestone_passes_and_tampering_fails() {
        let keys = CoordinatorKeys::new(vec![[7; 32]]);
        let previous = Previous { index: 0, milestone_id: [0; 32], timestamp: 0 };
        let m = first();
        check_foreign(&m, &previous, &keys.public_keys()).unwrap();
        let mut bad = m.clone();
        bad.timestamp += 1;
        assert_eq!(check_foreign(&bad, &previous, &keys.public_keys()).unwrap_err().code, "milestone-signature-invalid");
        assert_eq!(check_foreign(&m, &previous, &[[1; 32]]).unwrap_err().code, "milestone-signers-mismatch");
        let later = Previous { index: 1, milestone_id: [0; 32], timestamp: 0 };
        assert_eq!(check_foreign(&m, &later, &keys.public_keys()).unwrap_err().code, "milestone-index-mismatch");
    }

    #[test]
    fn signatures_are_sorted_by_public_key() {
        let keys = CoordinatorKeys::new(vec![[1; 32], [2; 32], [3; 32]]);
        let mut m = first();
        keys.sign(&mut m);
        assert!(m.signatures.windows(2).all(|w| w[0].public_key < w[1].public_key));
    }
}
