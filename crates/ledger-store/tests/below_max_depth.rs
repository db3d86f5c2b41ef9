//! Blocks below max depth (ledger.md §5): no milestone can reference them any more, so they
//! leave the in-memory pending graph and the `unreferenced` family at the milestone that
//! puts them there. They stay stored, their metadata says `shouldReattach: true`, blocks
//! attached on them are below max depth at once, restarts do not bring them back, and
//! white flag never reaches them: the ledger is as if they did not exist.

mod common;

use common::*;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::Store;

fn tagged(text: &str) -> Option<Payload> {
    Some(Payload::TaggedData(TaggedData { tag: b"depth".to_vec(), data: text.as_bytes().to_vec() }))
}

fn block_on(parents: &[Id32], payload: Option<Payload>) -> Vec<u8> {
    let mut parents = parents.to_vec();
    parents.sort();
    parents.dedup();
    ledger_core::codec::encode_block(&Block { protocol_version: 2, parents, payload, nonce: 0 })
}

fn metadata(store: &Store, id: &Id32) -> serde_json::Value {
    json(&store.block_metadata_json(id).unwrap().unwrap())
}

fn assert_below_max_depth(store: &Store, id: &Id32) {
    let meta = metadata(store, id);
    assert_eq!(meta["shouldReattach"], true, "{meta}");
    assert_eq!(meta["shouldPromote"], false, "{meta}");
    assert!(meta.get("referencedByMilestoneIndex").is_none(), "{meta}");
    assert!(meta.get("ledgerInclusionState").is_none(), "{meta}");
}

/// A store at milestone 14 whose milestone-1 block (referenced by milestone 2) is an old
/// parent: a block approving it and the entry point is lazy (young root 2 is 12 behind,
/// old root 0 is 14 behind), and below max depth from milestone 16 on.
fn store_with_an_old_parent(dir: &std::path::Path) -> (Store, Id32) {
    let store = open_dev(dir, 0);
    let first = store.issue_milestone(None).unwrap().block_id;
    for _ in 0..13 {
        store.issue_milestone(None).unwrap();
    }
    (store, first)
}

#[test]
fn a_lazy_block_leaves_memory_when_it_falls_below_max_depth() {
    let dir = tempfile::tempdir().unwrap();
    let (store, old) = store_with_an_old_parent(dir.path());
    let lazy = store.submit_block(&block_on(&[[0; 32], old], tagged("lazy"))).unwrap().block_id;
    let meta = metadata(&store, &lazy);
    assert_eq!(
        (meta["shouldPromote"].clone(), meta["shouldReattach"].clone()),
        (true.into(), false.into()),
        "lazy, not yet below max depth: {meta}"
    );
    // A fresh block, and a block approving it and the lazy one (semi-lazy: its old root is
    // 14 behind): that child must not bury the fresh block.
    let fresh = store
        .submit_block(&block_on(&store.select_tips().unwrap(), tagged("fresh")))
        .unwrap()
        .block_id;
    let lazy_child =
        store.submit_block(&block_on(&[fresh, lazy], tagged("lazy child"))).unwrap().block_id;
    assert_eq!(metadata(&store, &lazy_child)["shouldPromote"], true);
    assert!(store.select_tips().unwrap().contains(&fresh));
    let next = store.issue_milestone(None).unwrap();
    assert_eq!(metadata(&store, &fresh)["referencedByMilestoneIndex"], next.index);
    // Milestone 15: the lazy blocks are still pending (15 − 0 is not beyond 15) …
    assert_eq!(store.status().pending_blocks, 3);
    // … and milestone 16 leaves them below max depth: out of memory, metadata says so.
    store.issue_milestone(None).unwrap();
    let status = store.status();
    assert_eq!(status.pending_blocks, 1, "only the latest milestone block stays pending");
    assert_eq!(status.blocks_below_max_depth, 2);
    assert_below_max_depth(&store, &lazy);
    assert_below_max_depth(&store, &lazy_child);
    // Stored all the same.
    assert!(store.block(&lazy).unwrap().is_some());

    // After a restart they are not rebuilt into memory and still read the same.
    drop(store);
    let store = open_dev(dir.path(), 0);
    assert_eq!(store.status().pending_blocks, 1);
    assert_below_max_depth(&store, &lazy);
    assert_below_max_depth(&store, &lazy_child);
    // And the node goes on: a block on the tips is referenced by the next milestone.
    let later = store
        .submit_block(&block_on(&store.select_tips().unwrap(), tagged("later")))
        .unwrap()
        .block_id;
    let next = store.issue_milestone(None).unwrap();
    assert_eq!(metadata(&store, &later)["referencedByMilestoneIndex"], next.index);
}

#[test]
fn a_block_attached_on_a_block_below_max_depth_is_below_max_depth_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (store, old) = store_with_an_old_parent(dir.path());
    let lazy = store.submit_block(&block_on(&[[0; 32], old], tagged("lazy"))).unwrap().block_id;
    for _ in 0..5 {
        store.issue_milestone(None).unwrap();
    }
    assert_below_max_depth(&store, &lazy);
    let pending_before = store.status().pending_blocks;
    // On the pruned block and a healthy tip; and one more level on top of that.
    let tips = store.select_tips().unwrap();
    let on_pruned =
        store.submit_block(&block_on(&[lazy, tips[0]], tagged("on a pruned block"))).unwrap();
    assert!(on_pruned.stored);
    let on_top = store
        .submit_block(&block_on(&[on_pruned.block_id, tips[1]], tagged("on top")))
        .unwrap()
        .block_id;
    assert_below_max_depth(&store, &on_pruned.block_id);
    assert_below_max_depth(&store, &on_top);
    assert_eq!(store.status().pending_blocks, pending_before, "neither entered the pending graph");
    // Never selected, never referenced; the tips it approved still are.
    assert!(!store.select_tips().unwrap().contains(&on_pruned.block_id));
    for _ in 0..3 {
        store.issue_milestone(None).unwrap();
    }
    assert_below_max_depth(&store, &on_pruned.block_id);
    assert_below_max_depth(&store, &on_top);
    assert!(metadata(&store, &tips[0]).get("referencedByMilestoneIndex").is_some());
    // A block on an old referenced parent is below max depth at once too.
    let on_old = store
        .submit_block(&block_on(&[[0; 32], old], tagged("on an old parent")))
        .unwrap()
        .block_id;
    assert_below_max_depth(&store, &on_old);
    // Submitting it again changes nothing.
    assert!(
        !store.submit_block(&block_on(&[[0; 32], old], tagged("on an old parent"))).unwrap().stored
    );
}

#[test]
fn a_transaction_below_max_depth_never_reaches_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let (store, old) = store_with_an_old_parent(dir.path());
    let genesis = [([0u8; 34], genesis_output())];
    let recipient =
        ledger_core::crypto::ed25519_address(&ledger_core::crypto::public_key(&[1; 32]));
    let stale = transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient)]);
    let stale_block = store
        .submit_block(&block_on(
            &[[0; 32], old],
            Some(Payload::Transaction(Box::new(stale.clone()))),
        ))
        .unwrap()
        .block_id;
    for _ in 0..6 {
        store.issue_milestone(None).unwrap();
    }
    assert_below_max_depth(&store, &stale_block);
    assert_eq!(store.included_block_id(&ids::transaction_id(&stale)).unwrap(), None);
    let (_, genesis_meta) = store.output(&[0; 34]).unwrap().unwrap();
    assert_eq!(json(&genesis_meta)["isSpent"], false);
    // The same transaction reattached on fresh tips is included.
    let again = store.submit_block(&tx_block(&store, &stale)).unwrap().block_id;
    store.issue_milestone(None).unwrap();
    assert_eq!(store.included_block_id(&ids::transaction_id(&stale)).unwrap(), Some(again));
    assert_eq!(store.blocks_with_transaction(&ids::transaction_id(&stale)).unwrap().len(), 2);
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
}

#[test]
fn memory_stays_flat_under_a_steady_stream_of_lazy_and_healthy_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = store_with_an_old_parent(dir.path());
    store.issue_milestone(None).unwrap();
    store.issue_milestone(None).unwrap();
    let milestone_block = |index: u32| store.milestone_by_index(index).unwrap().unwrap().block_id;
    let mut most = 0;
    let mut healthy = Vec::new();
    for m in 0..120 {
        let cmi = store.status().latest_milestone.unwrap().0;
        for i in 0..10 {
            let tips = store.select_tips().unwrap();
            healthy.push(
                store
                    .submit_block(&block_on(&tips, tagged(&format!("healthy {m}/{i}"))))
                    .unwrap()
                    .block_id,
            );
            // Lazy: two old milestone blocks (young root 10 behind); semi-lazy: a fresh tip
            // and an old milestone block (old root 14 behind).
            store
                .submit_block(&block_on(
                    &[milestone_block(cmi - 11), milestone_block(cmi - 12)],
                    tagged(&format!("lazy {m}/{i}")),
                ))
                .unwrap();
            store
                .submit_block(&block_on(
                    &[tips[0], milestone_block(cmi - 15)],
                    tagged(&format!("semi-lazy {m}/{i}")),
                ))
                .unwrap();
        }
        store.issue_milestone(None).unwrap();
        most = most.max(store.status().pending_blocks);
    }
    // A few milestones' worth of lazy blocks at most, not 2,400.
    assert!(most <= 150, "{most} pending blocks at most");
    assert!(store.status().blocks_below_max_depth >= 2000);
    assert!(healthy
        .iter()
        .all(|id| metadata(&store, id).get("referencedByMilestoneIndex").is_some()));
}

#[test]
fn a_follower_refuses_a_milestone_that_references_a_block_below_max_depth() {
    let a_dir = tempfile::tempdir().unwrap();
    let b_dir = tempfile::tempdir().unwrap();
    let a = open_dev(a_dir.path(), 0);
    let mut options = dev_options(0);
    options.coordinator_enabled = false;
    options.coordinator_seeds = vec![];
    options.trusted_public_keys = vec![ledger_core::crypto::public_key(&coordinator_seed())];
    let b = Store::open(b_dir.path(), options).unwrap();
    let forward = |index: u32| {
        let bytes =
            a.block(&a.milestone_by_index(index).unwrap().unwrap().block_id).unwrap().unwrap();
        b.submit_block(&bytes).unwrap();
    };
    let first = a.issue_milestone(None).unwrap().block_id;
    forward(1);
    for i in 2..=11 {
        a.issue_milestone(None).unwrap();
        forward(i);
    }
    let lazy = block_on(&[[0; 32], first], tagged("lazy"));
    let lazy_id = a.submit_block(&lazy).unwrap().block_id;
    b.submit_block(&lazy).unwrap();
    for i in 12..=16 {
        a.issue_milestone(None).unwrap();
        forward(i);
    }
    assert_below_max_depth(&b, &lazy_id);
    // A milestone 17 signed by the trusted key that names the pruned block as a parent.
    let latest = b.milestone_by_index(16).unwrap().unwrap();
    let mut parents = vec![latest.block_id, lazy_id];
    parents.sort();
    let mut payload = MilestonePayload {
        index: 17,
        timestamp: latest.timestamp + 1,
        protocol_version: 2,
        previous_milestone_id: latest.milestone_id,
        parents: parents.clone(),
        inclusion_merkle_root: [0; 32],
        applied_merkle_root: [0; 32],
        metadata: vec![],
        options: vec![],
        signatures: vec![],
    };
    let seed = coordinator_seed();
    let signature = ledger_core::crypto::sign(&seed, &ids::milestone_id(&payload));
    payload.signatures =
        vec![Ed25519Signature { public_key: ledger_core::crypto::public_key(&seed), signature }];
    let block = Block {
        protocol_version: 2,
        parents,
        payload: Some(Payload::Milestone(Box::new(payload))),
        nonce: 0,
    };
    let err = b.submit_block(&ledger_core::codec::encode_block(&block)).err().unwrap();
    assert_eq!(err.code, Code::MilestoneParentBelowMaxDepth);
    // A's own milestone 17 is fine.
    a.issue_milestone(None).unwrap();
    forward(17);
    assert_eq!(b.status().latest_milestone.unwrap().0, 17);
}
