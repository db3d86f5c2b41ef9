//! D42 on a follower: the milestones of a coordinator with several keys are accepted by the
//! key ranges and the signature threshold of `protocol.publicKeyRanges` /
//! `milestonePublicKeyCount`, as Hornet verifies them.

mod common;

use common::*;
use ledger_core::Code;
use ledger_store::{KeyRange, MilestoneKeys, Store};

const SEEDS: [[u8; 32]; 3] = [[11; 32], [12; 32], [13; 32]];

fn key(i: usize) -> [u8; 32] {
    ledger_core::crypto::public_key(&SEEDS[i])
}

/// A coordinator signing with `seeds`, and the blocks of its milestones 1..=count.
fn milestones(dir: &std::path::Path, seeds: &[[u8; 32]], count: u32) -> Vec<Vec<u8>> {
    let mut options = dev_options(0);
    options.coordinator_seeds = seeds.to_vec();
    let coordinator = Store::open(dir, options).unwrap();
    (1..=count)
        .map(|_| {
            let issued = coordinator.issue_milestone(None).unwrap();
            coordinator.block(&issued.block_id).unwrap().unwrap()
        })
        .collect()
}

fn follower(dir: &std::path::Path, ranges: Vec<KeyRange>, threshold: usize) -> Store {
    let mut options = dev_options(0);
    options.coordinator_enabled = false;
    options.coordinator_seeds = vec![];
    options.milestone_keys = MilestoneKeys { ranges, threshold };
    Store::open(dir, options).unwrap()
}

fn range(i: usize, start: u32, end: u32) -> KeyRange {
    KeyRange { public_key: key(i), start, end }
}

#[test]
fn a_key_signing_outside_its_range_makes_the_milestone_invalid() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let blocks = milestones(dirs[0].path(), &SEEDS, 3);
    // Key 3 may sign milestones 0..=2 only; two signatures needed.
    let b = follower(dirs[1].path(), vec![range(0, 0, 0), range(1, 0, 0), range(2, 0, 2)], 2);
    assert!(b.follows_milestones());
    assert!(b.submit_block(&blocks[0]).unwrap().stored);
    assert!(b.submit_block(&blocks[1]).unwrap().stored);
    let refused = b.submit_block(&blocks[2]).err().unwrap();
    assert_eq!(
        (refused.code, refused.path.as_str()),
        (Code::MilestoneSignerNotApplicable, "payload.signatures[2].publicKey")
    );
    assert_eq!(b.status().latest_milestone.unwrap().0, 2);
    // A key whose range starts later cannot sign milestone 1 either.
    let c = follower(dirs[2].path(), vec![range(0, 0, 0), range(1, 0, 0), range(2, 2, 0)], 2);
    assert_eq!(c.submit_block(&blocks[0]).err().unwrap().code, Code::MilestoneSignerNotApplicable);
    assert!(c.status().latest_milestone.is_none());
}

#[test]
fn the_threshold_counts_signatures_of_applicable_keys() {
    let dirs: Vec<_> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
    // Two of three keys sign.
    let two = milestones(dirs[0].path(), &SEEDS[..2], 3);
    let all_three =
        follower(dirs[1].path(), vec![range(0, 0, 0), range(1, 0, 0), range(2, 0, 0)], 2);
    for block in &two {
        assert!(all_three.submit_block(block).unwrap().stored);
    }
    assert_eq!(all_three.status().latest_milestone.unwrap().0, 3);
    // Threshold 3: two signatures are too few.
    let strict = follower(dirs[2].path(), vec![range(0, 0, 0), range(1, 0, 0), range(2, 0, 0)], 3);
    assert_eq!(strict.submit_block(&two[0]).err().unwrap().code, Code::MilestoneSignaturesTooFew);
    // Threshold 0 (the default): every applicable key; with key 3 retired after milestone 1,
    // milestone 1 needs three signatures and later ones two.
    let rotating =
        follower(dirs[3].path(), vec![range(0, 0, 0), range(1, 0, 0), range(2, 0, 1)], 0);
    assert_eq!(rotating.submit_block(&two[0]).err().unwrap().code, Code::MilestoneSignaturesTooFew);
    let m = ledger_core::codec::decode_block(&two[1]).unwrap();
    let Some(ledger_core::model::Payload::Milestone(payload)) = m.payload else {
        panic!("a milestone block")
    };
    rotating.check_milestone_signatures(&payload).unwrap();
}

#[test]
fn without_ranges_the_configured_keys_all_sign_from_milestone_zero() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let blocks = milestones(dirs[0].path(), &SEEDS[..2], 2);
    let mut options = dev_options(0);
    options.coordinator_enabled = false;
    options.coordinator_seeds = vec![];
    options.trusted_public_keys = vec![key(0), key(1)];
    let b = Store::open(dirs[1].path(), options).unwrap();
    for block in &blocks {
        assert!(b.submit_block(block).unwrap().stored);
    }
    // One configured key more than signed: all must sign by default, one is missing.
    let mut options = dev_options(0);
    options.coordinator_enabled = false;
    options.coordinator_seeds = vec![];
    options.trusted_public_keys = vec![key(0), key(1), key(2)];
    let c = Store::open(dirs[2].path(), options).unwrap();
    assert_eq!(c.submit_block(&blocks[0]).err().unwrap().code, Code::MilestoneSignaturesTooFew);
}
