//! Hornet's solid entry point rule for a target index (`Store::solid_entry_points_for`):
//! on a random graph with lazy and below-max-depth blocks, the result equals the rule
//! computed from the public API (metadata and children of every block): blocks confirmed
//! by milestones T − k ..= T with a direct child referenced after T, each with its
//! confirming index. The same after a restart, and for an older data directory whose
//! `milestone_blocks` family is rebuilt from the block metadata.

mod common;

use common::*;
use ledger_core::codec::decode_block;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::Store;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

fn tagged(n: usize) -> Option<Payload> {
    Some(Payload::TaggedData(TaggedData { tag: b"sep".to_vec(), data: n.to_le_bytes().to_vec() }))
}

fn block_on(parents: &[Id32], payload: Option<Payload>) -> Vec<u8> {
    let mut parents = parents.to_vec();
    parents.sort();
    parents.dedup();
    ledger_core::codec::encode_block(&Block { protocol_version: 2, parents, payload, nonce: 0 })
}

/// `milestones` milestones, each after a few blocks on the tips, on recent blocks, and now
/// and then on an old one (lazy, later below max depth). Returns every stored block id.
fn grow(store: &Store, milestones: usize, rng: &mut StdRng) -> Vec<Id32> {
    let mut blocks: Vec<Id32> = vec![store.issue_milestone(None).unwrap().block_id];
    let mut n = 0;
    for _ in 0..milestones {
        for _ in 0..rng.gen_range(2..8) {
            n += 1;
            let mut parents = store.select_tips().unwrap();
            parents.truncate(rng.gen_range(1..=parents.len()));
            let recent = blocks.len().saturating_sub(12);
            parents.push(blocks[rng.gen_range(recent..blocks.len())]);
            if rng.gen_bool(0.1) {
                parents.push(blocks[rng.gen_range(0..blocks.len())]);
            }
            parents.sort();
            parents.dedup();
            if parents.len() < 2 {
                // An entry point (root 0): lazy at once.
                parents.push(if parents[0] == [0; 32] { blocks[0] } else { [0; 32] });
            }
            let id = store.submit_block(&block_on(&parents, tagged(n))).unwrap().block_id;
            blocks.push(id);
        }
        blocks.push(store.issue_milestone(None).unwrap().block_id);
    }
    blocks
}

fn referenced_by(store: &Store, id: &Id32) -> u32 {
    let meta = json(&store.block_metadata_json(id).unwrap().unwrap());
    meta.get("referencedByMilestoneIndex").and_then(|v| v.as_u64()).unwrap_or(0) as u32
}

/// The rule read from the public API.
fn oracle(store: &Store, blocks: &[Id32], target: u32, look_back: u32) -> Vec<(Id32, u32)> {
    let first = target.saturating_sub(look_back).max(1);
    let mut found = BTreeSet::new();
    for id in blocks {
        let at = referenced_by(store, id);
        if at < first || at > target {
            continue;
        }
        let children = store.children(id, usize::MAX).unwrap().unwrap();
        if children.iter().any(|c| referenced_by(store, c) > target) {
            found.insert((*id, at));
        }
    }
    found.into_iter().collect()
}

#[test]
fn the_rule_equals_a_reading_of_every_block() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    let mut rng = StdRng::seed_from_u64(23);
    let blocks = grow(&store, 45, &mut rng);
    assert!(store.status().blocks_below_max_depth > 0, "the graph has blocks below max depth");
    let confirmed = store.status().ledger_index;
    for (target, look_back) in [(20, 15), (30, 15), (30, 20), (confirmed - 1, 15), (10, 15)] {
        let computed = store.solid_entry_points_for(target, look_back).unwrap();
        assert_eq!(
            computed,
            oracle(&store, &blocks, target, look_back),
            "T {target} k {look_back}"
        );
        assert!(!computed.is_empty());
        // The parents of milestone T are always among them: T's block is referenced later.
        let milestone = store.milestone_by_index(target).unwrap().unwrap();
        let parents =
            decode_block(&store.block(&milestone.block_id).unwrap().unwrap()).unwrap().parents;
        for p in parents {
            assert!(computed.iter().any(|(id, _)| *id == p), "a parent of milestone {target}");
        }
    }
    let err = store.solid_entry_points_for(confirmed + 1, 15).unwrap_err();
    assert_eq!(err.code, Code::TargetNotConfirmed);
    let expected = store.solid_entry_points_for(30, 15).unwrap();
    drop(store);
    let store = open_dev(dir.path(), 0);
    assert_eq!(store.solid_entry_points_for(30, 15).unwrap(), expected);
}
