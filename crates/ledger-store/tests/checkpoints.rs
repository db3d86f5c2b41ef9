//! The coordinator's checkpoints: when more healthy tips wait than a milestone can approve,
//! blocks without payload approve them first, so that the next milestone confirms them all.

mod common;

use common::*;
use ledger_core::model::*;
use ledger_store::{Store, MAX_CHECKPOINTS};
use std::sync::atomic::AtomicBool;

/// `count` tips: blocks that each approve only the two latest milestones.
fn independent_tips(store: &Store, min_pow_score: u32, count: usize, tag: &str) -> Vec<Id32> {
    let latest = store.status().latest_milestone.unwrap().0;
    let mut parents = vec![
        store.milestone_by_index(latest).unwrap().unwrap().block_id,
        store.milestone_by_index(latest - 1).unwrap().unwrap().block_id,
    ];
    parents.sort();
    (0..count)
        .map(|i| {
            let payload = Payload::TaggedData(TaggedData {
                tag: tag.as_bytes().to_vec(),
                data: i.to_le_bytes().to_vec(),
            });
            let mut bytes = ledger_core::codec::encode_block(&Block {
                protocol_version: 2,
                parents: parents.clone(),
                payload: Some(payload),
                nonce: 0,
            });
            let nonce =
                ledger_core::pow::miner::mine(&bytes, min_pow_score, 1, &AtomicBool::new(false))
                    .unwrap()
                    .nonce;
            let at = bytes.len() - 8;
            bytes[at..].copy_from_slice(&nonce.to_le_bytes());
            store.submit_block(&bytes).unwrap().block_id
        })
        .collect()
}

fn referenced_by(store: &Store, id: &Id32) -> Option<u64> {
    json(&store.block_metadata_json(id).unwrap().unwrap())["referencedByMilestoneIndex"].as_u64()
}

/// Two milestones, so that tips can approve two milestone blocks.
fn started(dir: &std::path::Path, min_pow_score: u32) -> Store {
    let store = open_dev(dir, min_pow_score);
    store.issue_milestone(None).unwrap();
    store.issue_milestone(None).unwrap();
    store
}

#[test]
fn seven_tips_need_no_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path(), 0);
    let tips = independent_tips(&store, 0, 7, "seven");
    assert!(store.issue_checkpoints(&AtomicBool::new(false)).unwrap().is_empty());
    let m = store.issue_milestone(None).unwrap();
    // The tips and the previous milestone's block.
    assert_eq!(m.referenced_blocks, 7 + 1);
    assert!(tips.iter().all(|t| referenced_by(&store, t) == Some(m.index as u64)));
}

#[test]
fn forty_tips_are_confirmed_by_one_milestone_through_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    // A real proof of work: the intake refuses a checkpoint that lacks one.
    let store = started(dir.path(), 500);
    let tips = independent_tips(&store, 500, 40, "forty");
    let checkpoints = store.issue_checkpoints(&AtomicBool::new(false)).unwrap();
    // 8 tips, then 7 with each further checkpoint, until the last checkpoint and the rest
    // fit into the milestone's 7: 40 → 32 → 25 → 18 → 11 → 4.
    assert_eq!(checkpoints.len(), 5);
    for c in &checkpoints {
        let block = ledger_core::codec::decode_block(&c.bytes).unwrap();
        assert!(block.payload.is_none());
        assert!(ledger_core::pow::meets_min_score(&c.bytes, 500));
        assert_eq!(store.block(&c.block_id).unwrap(), Some(c.bytes.clone()));
    }
    let m = store.issue_milestone(None).unwrap();
    assert_eq!(m.referenced_blocks, 40 + 5 + 1);
    for t in tips.iter().chain(checkpoints.iter().map(|c| &c.block_id)) {
        assert_eq!(referenced_by(&store, t), Some(m.index as u64));
    }
}

#[test]
fn beyond_the_checkpoints_of_one_milestone_the_oldest_tips_go_first() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path(), 0);
    let tips = independent_tips(&store, 0, 100, "hundred");
    let checkpoints = store.issue_checkpoints(&AtomicBool::new(false)).unwrap();
    assert_eq!(checkpoints.len(), MAX_CHECKPOINTS);
    let first = store.issue_milestone(None).unwrap();
    // The checkpoints took the 8 + 7 × 7 oldest tips; the milestone the last checkpoint (now
    // the newest tip) and the 6 oldest after those.
    let confirmed =
        tips.iter().filter(|t| referenced_by(&store, t) == Some(first.index as u64)).count();
    assert_eq!(confirmed, 57 + 6);
    assert!(tips[..63].iter().all(|t| referenced_by(&store, t) == Some(first.index as u64)));
    store.issue_checkpoints(&AtomicBool::new(false)).unwrap();
    let second = store.issue_milestone(None).unwrap();
    assert!(
        tips.iter().all(|t| referenced_by(&store, t).is_some()),
        "tips left after the second milestone"
    );
    assert!(second.referenced_blocks >= 100 - 63);
}

/// Clients that each extend their own chain (every block on the two before it in its
/// chain): one milestone confirms every chain, however long.
#[test]
fn sixty_four_chains_are_confirmed_by_one_milestone() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path(), 0);
    let mut heads: Vec<Vec<Id32>> =
        independent_tips(&store, 0, 64, "chains").into_iter().map(|t| vec![t]).collect();
    let latest = store.status().latest_milestone.unwrap().0;
    let milestone_block = store.milestone_by_index(latest).unwrap().unwrap().block_id;
    for round in 0..20u32 {
        for (c, chain) in heads.iter_mut().enumerate() {
            let mut parents = vec![
                *chain.last().unwrap(),
                if chain.len() > 1 { chain[chain.len() - 2] } else { milestone_block },
            ];
            parents.sort();
            let payload = Payload::TaggedData(TaggedData {
                tag: b"chain".to_vec(),
                data: [c as u32, round].iter().flat_map(|x| x.to_le_bytes()).collect(),
            });
            let bytes = ledger_core::codec::encode_block(&Block {
                protocol_version: 2,
                parents,
                payload: Some(payload),
                nonce: 0,
            });
            chain.push(store.submit_block(&bytes).unwrap().block_id);
        }
    }
    let checkpoints = store.issue_checkpoints(&AtomicBool::new(false)).unwrap();
    let m = store.issue_milestone(None).unwrap();
    let left: Vec<usize> =
        (0..64).filter(|c| referenced_by(&store, heads[*c].last().unwrap()).is_none()).collect();
    // 8 checkpoints approve 57 chains, the milestone 6 more and the last checkpoint.
    assert_eq!(checkpoints.len(), MAX_CHECKPOINTS);
    assert!(left.len() <= 1, "chains left: {left:?}");
    assert!(m.referenced_blocks as usize >= 63 * 21, "{}", m.referenced_blocks);
}

/// Blocks that arrive between the checkpoints and the milestone make newer tips than the
/// last checkpoint: the milestone still approves it.
#[test]
fn the_milestone_approves_the_last_checkpoint_whatever_arrived_since() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path(), 0);
    let tips = independent_tips(&store, 0, 30, "before");
    let checkpoints = store.issue_checkpoints(&AtomicBool::new(false)).unwrap();
    assert!(!checkpoints.is_empty());
    let later = independent_tips(&store, 0, 10, "after");
    let m = store.issue_milestone(None).unwrap();
    let parents = ledger_core::codec::decode_block(
        &store
            .block(&store.milestone_by_index(m.index).unwrap().unwrap().block_id)
            .unwrap()
            .unwrap(),
    )
    .unwrap()
    .parents;
    assert!(parents.contains(&checkpoints.last().unwrap().block_id));
    assert!(tips.iter().all(|t| referenced_by(&store, t) == Some(m.index as u64)));
    // 30 tips: 4 checkpoints take 29, so the milestone has the previous milestone, the
    // checkpoint, the newest tip, the 30th and the 4 oldest of the later ones.
    assert_eq!(
        later.iter().filter(|t| referenced_by(&store, t) == Some(m.index as u64)).count(),
        1 + 4
    );
}
