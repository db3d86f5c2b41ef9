//! Milestone payloads: how the embedded coordinator builds and signs one (ledger.md §6),
//! and how a node that follows another coordinator checks one before applying it.

use ledger_core::crypto;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::{Code, Error, Result};

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
        let mut signatures: Vec<Ed25519Signature> = self
            .seeds
            .iter()
            .map(|seed| Ed25519Signature {
                public_key: crypto::public_key(seed),
                signature: crypto::sign(seed, &id),
            })
            .collect();
        signatures.sort_by_key(|s| s.public_key);
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
    Block {
        protocol_version: PROTOCOL_VERSION,
        parents: milestone.parents.clone(),
        payload: Some(Payload::Milestone(Box::new(milestone))),
        nonce: 0,
    }
}

/// The last applied milestone, as the next one must continue it.
pub struct Previous {
    pub index: u32,
    pub milestone_id: Id32,
    pub timestamp: u32,
}

/// A coordinator public key and the milestone indexes it may sign (D42, Hornet's
/// `protocol.publicKeyRanges`): from `start`, up to `end` inclusive, or open when `end` is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRange {
    pub public_key: [u8; 32],
    pub start: u32,
    pub end: u32,
}

impl KeyRange {
    /// A key valid from the first milestone on, with no end.
    pub fn open(public_key: [u8; 32]) -> KeyRange {
        KeyRange { public_key, start: 0, end: 0 }
    }

    pub fn applies_to(&self, index: u32) -> bool {
        self.start <= index && (self.end == 0 || index <= self.end)
    }
}

/// Whose signatures make a milestone of another coordinator valid (D42): the keys
/// applicable at the milestone's index, and how many of them must sign
/// (`protocol.milestonePublicKeyCount`; 0 = every applicable key).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MilestoneKeys {
    pub ranges: Vec<KeyRange>,
    pub threshold: usize,
}

impl MilestoneKeys {
    /// Every one of these keys, at every index (the default: the node's own coordinator keys).
    pub fn all_of(keys: &[[u8; 32]]) -> MilestoneKeys {
        MilestoneKeys { ranges: keys.iter().copied().map(KeyRange::open).collect(), threshold: 0 }
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The distinct keys that may sign milestone `index`, ascending.
    pub fn applicable(&self, index: u32) -> Vec<[u8; 32]> {
        let mut keys: Vec<[u8; 32]> =
            self.ranges.iter().filter(|r| r.applies_to(index)).map(|r| r.public_key).collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// The signatures of milestone `m`, as Hornet verifies them: at least the threshold of
    /// them (and at least as many keys applicable at its index), each by a key applicable
    /// at that index, no key twice, every one valid for the milestone id.
    pub fn check(&self, m: &MilestonePayload) -> Result<()> {
        let applicable = self.applicable(m.index);
        let required = if self.threshold == 0 { applicable.len() } else { self.threshold };
        if applicable.is_empty() || applicable.len() < required {
            return Err(Error::new(
                Code::MilestoneKeysMissing,
                "payload.signatures",
                format!("{} coordinator key(s) apply to milestone {}, {} signature(s) are required (protocol.publicKeyRanges)", applicable.len(), m.index, required.max(1)),
            ));
        }
        if m.signatures.len() < required {
            return Err(Error::new(
                Code::MilestoneSignaturesTooFew,
                "payload.signatures",
                format!("{} signature(s), {required} required", m.signatures.len()),
            ));
        }
        let mut seen: Vec<[u8; 32]> = Vec::with_capacity(m.signatures.len());
        for (i, s) in m.signatures.iter().enumerate() {
            if applicable.binary_search(&s.public_key).is_err() {
                return Err(Error::new(
                    Code::MilestoneSignerNotApplicable,
                    format!("payload.signatures[{i}].publicKey"),
                    format!(
                        "key 0x{} may not sign milestone {}",
                        hex::encode(s.public_key),
                        m.index
                    ),
                ));
            }
            if seen.contains(&s.public_key) {
                return Err(Error::new(
                    Code::MilestoneSignatureDuplicate,
                    format!("payload.signatures[{i}].publicKey"),
                    "the key signed twice",
                ));
            }
            seen.push(s.public_key);
        }
        let id = ids::milestone_id(m);
        for (i, s) in m.signatures.iter().enumerate() {
            if !crypto::verify(&s.public_key, &id, &s.signature) {
                return Err(Error::new(
                    Code::MilestoneSignatureInvalid,
                    format!("payload.signatures[{i}].signature"),
                    "the signature does not verify against the milestone id",
                ));
            }
        }
        Ok(())
    }
}

/// A milestone issued elsewhere continues the chain: its index, the previous milestone's
/// id, a later timestamp. With `MilestoneKeys::check` (enough applicable coordinator keys
/// signed its id, D42) these are the checks that need no ledger walk; what the first
/// milestone may approve depends on the ledger's entry points: the store checks that.
pub fn check_chain(m: &MilestonePayload, previous: &Previous) -> Result<()> {
    let expected = previous.index + 1;
    if m.index != expected {
        return Err(Error::new(
            Code::MilestoneIndexMismatch,
            "payload.index",
            format!("milestone {} arrived, the next is {expected}", m.index),
        ));
    }
    if m.previous_milestone_id != previous.milestone_id {
        return Err(Error::new(
            Code::MilestonePreviousIdMismatch,
            "payload.previousMilestoneId",
            format!(
                "milestone {} does not follow milestone 0x{}",
                m.index,
                hex::encode(previous.milestone_id)
            ),
        ));
    }
    if previous.index > 0 && m.timestamp <= previous.timestamp {
        return Err(Error::new(
            Code::MilestoneTimestampNotIncreasing,
            "payload.timestamp",
            format!("{} is not after the previous milestone's {}", m.timestamp, previous.timestamp),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both checks of a milestone issued elsewhere, as the store makes them.
    fn check_foreign(
        m: &MilestonePayload,
        previous: &Previous,
        keys: &MilestoneKeys,
    ) -> Result<()> {
        check_chain(m, previous)?;
        keys.check(m)
    }

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
        let trusted = MilestoneKeys::all_of(&keys.public_keys());
        check_foreign(&m, &previous, &trusted).unwrap();
        let mut bad = m.clone();
        bad.timestamp += 1;
        assert_eq!(
            check_foreign(&bad, &previous, &trusted).unwrap_err().code,
            Code::MilestoneSignatureInvalid
        );
        assert_eq!(
            check_foreign(&m, &previous, &MilestoneKeys::all_of(&[[1; 32]])).unwrap_err().code,
            Code::MilestoneSignerNotApplicable
        );
        let later = Previous { index: 1, milestone_id: [0; 32], timestamp: 0 };
        assert_eq!(
            check_foreign(&m, &later, &trusted).unwrap_err().code,
            Code::MilestoneIndexMismatch
        );
    }

    #[test]
    fn signatures_are_sorted_by_public_key() {
        let keys = CoordinatorKeys::new(vec![[1; 32], [2; 32], [3; 32]]);
        let mut m = first();
        keys.sign(&mut m);
        assert!(m.signatures.windows(2).all(|w| w[0].public_key < w[1].public_key));
    }

    fn signed_by(seeds: &[[u8; 32]], index: u32) -> MilestonePayload {
        let mut m = first();
        m.index = index;
        CoordinatorKeys::new(seeds.to_vec()).sign(&mut m);
        m
    }

    fn public(seed: u8) -> [u8; 32] {
        crypto::public_key(&[seed; 32])
    }

    #[test]
    fn key_ranges_start_inclusive_end_inclusive_zero_open() {
        let r = KeyRange { public_key: [1; 32], start: 10, end: 20 };
        assert!(!r.applies_to(9) && r.applies_to(10) && r.applies_to(20) && !r.applies_to(21));
        let open = KeyRange { public_key: [1; 32], start: 10, end: 0 };
        assert!(!open.applies_to(9) && open.applies_to(10) && open.applies_to(u32::MAX));
    }

    /// Hornet's key rotation: key 1 signs up to 100, key 2 from 101, key 3 throughout; two
    /// signatures needed. A key outside its range makes the milestone invalid even when
    /// enough other keys signed.
    #[test]
    fn signatures_must_come_from_keys_applicable_at_the_index() {
        let keys = MilestoneKeys {
            ranges: vec![
                KeyRange { public_key: public(1), start: 0, end: 100 },
                KeyRange { public_key: public(2), start: 101, end: 0 },
                KeyRange { public_key: public(3), start: 0, end: 0 },
            ],
            threshold: 2,
        };
        assert_eq!(keys.applicable(100), {
            let mut k = vec![public(1), public(3)];
            k.sort();
            k
        });
        keys.check(&signed_by(&[[1; 32], [3; 32]], 100)).unwrap();
        keys.check(&signed_by(&[[2; 32], [3; 32]], 101)).unwrap();
        let out_of_range = keys.check(&signed_by(&[[1; 32], [3; 32]], 101)).unwrap_err();
        assert_eq!(out_of_range.code, Code::MilestoneSignerNotApplicable);
        assert_eq!(
            keys.check(&signed_by(&[[2; 32], [3; 32]], 100)).unwrap_err().code,
            Code::MilestoneSignerNotApplicable
        );
        let extra = keys.check(&signed_by(&[[1; 32], [2; 32], [3; 32]], 100)).unwrap_err();
        assert_eq!(extra.code, Code::MilestoneSignerNotApplicable);
        // Fewer than the threshold, even from a valid key.
        assert_eq!(
            keys.check(&signed_by(&[[3; 32]], 100)).unwrap_err().code,
            Code::MilestoneSignaturesTooFew
        );
        // A key unknown altogether.
        assert_eq!(
            keys.check(&signed_by(&[[3; 32], [4; 32]], 100)).unwrap_err().code,
            Code::MilestoneSignerNotApplicable
        );
    }

    #[test]
    fn the_threshold_may_be_below_the_number_of_keys() {
        let keys = MilestoneKeys {
            ranges: vec![
                KeyRange::open(public(1)),
                KeyRange::open(public(2)),
                KeyRange::open(public(3)),
            ],
            threshold: 2,
        };
        keys.check(&signed_by(&[[1; 32], [2; 32]], 5)).unwrap();
        keys.check(&signed_by(&[[2; 32], [3; 32]], 5)).unwrap();
        keys.check(&signed_by(&[[1; 32], [2; 32], [3; 32]], 5)).unwrap();
        assert_eq!(
            keys.check(&signed_by(&[[2; 32]], 5)).unwrap_err().code,
            Code::MilestoneSignaturesTooFew
        );
        // Threshold 0: every applicable key (the default for the node's own keys).
        let all = MilestoneKeys { threshold: 0, ..keys.clone() };
        assert_eq!(
            all.check(&signed_by(&[[1; 32], [2; 32]], 5)).unwrap_err().code,
            Code::MilestoneSignaturesTooFew
        );
        all.check(&signed_by(&[[1; 32], [2; 32], [3; 32]], 5)).unwrap();
        // More signatures required than keys apply at the index: nothing can be valid.
        let closed = MilestoneKeys {
            ranges: vec![
                KeyRange { public_key: public(1), start: 0, end: 3 },
                KeyRange::open(public(2)),
            ],
            threshold: 2,
        };
        closed.check(&signed_by(&[[1; 32], [2; 32]], 3)).unwrap();
        assert_eq!(
            closed.check(&signed_by(&[[2; 32]], 4)).unwrap_err().code,
            Code::MilestoneKeysMissing
        );
        // A forged signature from an applicable key.
        let mut forged = signed_by(&[[1; 32], [2; 32]], 5);
        forged.signatures[1].signature[0] ^= 1;
        assert_eq!(keys.check(&forged).unwrap_err().code, Code::MilestoneSignatureInvalid);
    }
}
