//! Milestone signatures checked once. A follower checks a milestone's signatures when the
//! milestone arrives ahead of its cone (gossip trusts only a signed index) and again when
//! it is applied; in a warp sync every milestone takes both paths, one Ed25519
//! verification each time, on the thread that takes blocks in. The second time finds the
//! milestone here and is only a hash.
//!
//! A pass is remembered by a digest of the milestone id and every signature with its key:
//! the id hashes the essence (index included), so a digest stands for exactly the bytes
//! that were verified, and another set of signatures on the same essence is checked anew.
//! The keys a store accepts never change while it is open, so a remembered pass stays true.

use crate::milestone::MilestoneKeys;
use ledger_core::hash::blake2b256;
use ledger_core::ids;
use ledger_core::model::{Id32, MilestonePayload};
use ledger_core::Result;
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

/// Passes remembered, the oldest forgotten first: more than warp sync's two windows of
/// milestones held ahead (`warpsync.advancementRange`, 150 by default).
const REMEMBERED: usize = 1_024;

#[derive(Default)]
pub struct SignedMilestones {
    passed: Mutex<Passed>,
}

#[derive(Default)]
struct Passed {
    digests: HashSet<Id32>,
    order: VecDeque<Id32>,
}

impl SignedMilestones {
    /// `keys.check(m)`, skipped for a milestone whose signatures passed it before.
    pub fn check(&self, keys: &MilestoneKeys, m: &MilestonePayload) -> Result<()> {
        let digest = digest(m);
        if lock(&self.passed).digests.contains(&digest) {
            return Ok(());
        }
        keys.check(m)?;
        let mut passed = lock(&self.passed);
        if passed.digests.insert(digest) {
            passed.order.push_back(digest);
            if passed.order.len() > REMEMBERED {
                let oldest = passed.order.pop_front().expect("over the bound, so not empty");
                passed.digests.remove(&oldest);
            }
        }
        Ok(())
    }
}

fn digest(m: &MilestonePayload) -> Id32 {
    let mut bytes = Vec::with_capacity(32 + 96 * m.signatures.len());
    bytes.extend_from_slice(&ids::milestone_id(m));
    for s in &m.signatures {
        bytes.extend_from_slice(&s.public_key);
        bytes.extend_from_slice(&s.signature);
    }
    blake2b256(&bytes)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A set of digests cannot be left half-changed by a panic elsewhere.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::milestone::{build, CoordinatorKeys, Essence};
    use crate::origin::GenesisStyle;
    use ledger_core::Code;

    fn signed(index: u32, keys: &CoordinatorKeys) -> MilestonePayload {
        let essence = Essence {
            index,
            timestamp: 1_700_000_000 + index,
            previous_milestone_id: [0; 32],
            parents: GenesisStyle::Ledger.entry_points(),
            inclusion_root: [0; 32],
            applied_root: [0; 32],
        };
        build(essence, keys)
    }

    #[test]
    fn a_pass_is_remembered_and_other_signatures_on_the_same_essence_are_checked_anew() {
        let keys = CoordinatorKeys::new(vec![[7; 32]]);
        let trusted = MilestoneKeys::all_of(&keys.public_keys());
        let checks = SignedMilestones::default();
        let m = signed(1, &keys);
        checks.check(&trusted, &m).unwrap();
        checks.check(&trusted, &m).unwrap();
        assert_eq!(lock(&checks.passed).order.len(), 1);
        let mut forged = m.clone();
        forged.signatures[0].signature[5] ^= 1;
        assert_eq!(
            checks.check(&trusted, &forged).unwrap_err().code,
            Code::MilestoneSignatureInvalid
        );
        let mut other_key = m.clone();
        other_key.signatures[0].public_key = [9; 32];
        assert!(checks.check(&trusted, &other_key).is_err());
    }

    #[test]
    fn the_oldest_pass_is_forgotten_past_the_bound() {
        let keys = CoordinatorKeys::new(vec![[7; 32]]);
        let trusted = MilestoneKeys::all_of(&keys.public_keys());
        let checks = SignedMilestones::default();
        let first = signed(1, &keys);
        checks.check(&trusted, &first).unwrap();
        for index in 2..=REMEMBERED as u32 + 1 {
            checks.check(&trusted, &signed(index, &keys)).unwrap();
        }
        let passed = lock(&checks.passed);
        assert_eq!(passed.order.len(), REMEMBERED);
        assert_eq!(passed.digests.len(), REMEMBERED);
        assert!(!passed.digests.contains(&digest(&first)));
    }
}
