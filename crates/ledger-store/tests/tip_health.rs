//! The invariant of ledger.md §5 (D21 revised): whatever happened before — a fresh start,
//! a long idle time, a burst of load — a block whose parents come from tip selection is
//! healthy when it is attached and the next milestone references it (at most the one
//! after, when it arrives while a milestone is being issued).

mod common;

use common::*;
use ledger_core::model::*;
use ledger_store::Store;

fn tagged(text: &str) -> Option<Payload> {
    Some(Payload::TaggedData(TaggedData {
        tag: b"tip-health".to_vec(),
        data: text.as_bytes().to_vec(),
    }))
}

/// A block on `parents`, nonce 0 (the stores here run at minPowScore 0).
fn block_on(parents: Vec<Id32>, text: &str) -> Vec<u8> {
    ledger_core::codec::encode_block(&Block {
        protocol_version: 2,
        parents,
        payload: tagged(text),
        nonce: 0,
    })
}

fn metadata(store: &Store, id: &Id32) -> serde_json::Value {
    json(&store.block_metadata_json(id).unwrap().unwrap())
}

/// Attach a block on the selected tips and check the invariant for it.
fn attach_and_check(store: &Store, text: &str) {
    let id = store.submit_block(&block_on(store.select_tips().unwrap(), text)).unwrap().block_id;
    let meta = metadata(store, &id);
    assert_eq!(meta["shouldPromote"], false, "{text}: {meta}");
    assert_eq!(meta["shouldReattach"], false, "{text}: {meta}");
    let next = store.issue_milestone(None).unwrap();
    assert_eq!(
        metadata(store, &id)["referencedByMilestoneIndex"],
        next.index,
        "{text}: not referenced by the next milestone"
    );
}

#[test]
fn a_fresh_start() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    attach_and_check(&store, "right after milestone 1");
    attach_and_check(&store, "right after milestone 2");
}

#[test]
fn after_idling_far_past_below_max_depth() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    // Something happens early on, then nothing for 3 × belowMaxDepth milestones.
    for i in 0..5 {
        store.submit_block(&block_on(store.select_tips().unwrap(), &format!("early {i}"))).unwrap();
    }
    for _ in 0..45 {
        store.issue_milestone(None).unwrap();
    }
    // The tips are the last two milestone blocks, never an old block.
    let latest = store.status().latest_milestone.unwrap().0;
    let mut expected = vec![
        store.milestone_by_index(latest).unwrap().unwrap().block_id,
        store.milestone_by_index(latest - 1).unwrap().unwrap().block_id,
    ];
    expected.sort();
    assert_eq!(store.select_tips().unwrap(), expected);
    attach_and_check(&store, "after idling");
    // Without parents at all the API fills them the same way; with the coordinator's own
    // fill an idle milestone references only the milestone blocks before it.
    attach_and_check(&store, "after idling, again");
}

#[test]
fn after_a_burst_of_concurrent_clients() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    // 20 clients ask for tips at the same moment and attach on them; 30 such rounds with a
    // milestone after every third, then one more round and no milestone yet.
    let mut burst = Vec::new();
    for round in 0..31 {
        let selections: Vec<Vec<Id32>> = (0..20).map(|_| store.select_tips().unwrap()).collect();
        let blocks: Vec<Vec<u8>> = selections
            .into_iter()
            .enumerate()
            .map(|(c, parents)| block_on(parents, &format!("burst {round}/{c}")))
            .collect();
        let refs: Vec<&[u8]> = blocks.iter().map(|b| b.as_slice()).collect();
        for result in store.submit_blocks(&refs) {
            burst.push(result.unwrap().block_id);
        }
        if round % 3 == 2 {
            store.issue_milestone(None).unwrap();
        }
    }
    attach_and_check(&store, "right after the burst");
    // Every burst block was healthy when attached and is referenced soon: nothing is left
    // behind to go lazy.
    for _ in 0..3 {
        store.issue_milestone(None).unwrap();
    }
    let unreferenced: Vec<_> = burst
        .iter()
        .filter(|id| metadata(&store, id).get("referencedByMilestoneIndex").is_none())
        .collect();
    assert!(
        unreferenced.is_empty(),
        "{} of {} burst blocks are not referenced",
        unreferenced.len(),
        burst.len()
    );
    assert_eq!(store.status().pending_blocks, 1, "only the latest milestone block is pending");
    assert_eq!(store.status().blocks_below_max_depth, 0);
}

#[test]
fn while_a_milestone_is_issued_at_most_the_one_after() {
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(open_dev(dir.path(), 0));
    for _ in 0..20 {
        store.issue_milestone(None).unwrap();
    }
    // Blocks attached from another thread while milestones are being issued; each notes
    // the latest milestone before its tip selection and right after it was stored, and
    // whether it was healthy then (its metadata, read before any further milestone).
    let submitter = {
        let store = store.clone();
        std::thread::spawn(move || {
            (0..300)
                .map(|i| {
                    let latest = || store.status().latest_milestone.unwrap().0;
                    let selected_at = latest();
                    let id = store
                        .submit_block(&block_on(
                            store.select_tips().unwrap(),
                            &format!("racing {i}"),
                        ))
                        .unwrap()
                        .block_id;
                    let attached_at = latest();
                    let meta = metadata(&store, &id);
                    let healthy = meta["shouldPromote"] == false && meta["shouldReattach"] == false;
                    let healthy_when_attached = healthy && latest() == attached_at;
                    (id, selected_at, attached_at, healthy_when_attached)
                })
                .collect::<Vec<_>>()
        })
    };
    while !submitter.is_finished() {
        store.issue_milestone(None).unwrap();
    }
    let blocks = submitter.join().unwrap();
    store.issue_milestone(None).unwrap();
    store.issue_milestone(None).unwrap();
    // Milestones follow each other here as fast as they can be issued: a client thread
    // that the machine starves between its tip selection and its submission can see
    // several pass, and its block then approves tips that have become too old (it is below
    // max depth and told to reattach, as it should be). Such a block can still have been
    // healthy, at the edge, and be selected by the next client: that client's block is
    // then semi-lazy one milestone later, or already when attached. The invariant is for
    // the blocks attached healthy within a milestone of their selection.
    let mut checked = 0;
    for (id, selected_at, attached_at, healthy_when_attached) in &blocks {
        let meta = metadata(&store, id);
        if attached_at - selected_at <= 1 && *healthy_when_attached {
            let by = meta["referencedByMilestoneIndex"].as_u64().unwrap_or(u64::MAX);
            assert!(
                by <= *attached_at as u64 + 2,
                "selected at milestone {selected_at}, attached after {attached_at}: {meta}"
            );
            checked += 1;
        } else {
            assert!(
                meta.get("referencedByMilestoneIndex").is_some()
                    || meta["shouldReattach"] == true
                    || meta["shouldPromote"] == true,
                "{meta}"
            );
        }
    }
    assert!(
        checked >= 100,
        "only {checked} of {} blocks were attached healthy within a milestone of their selection",
        blocks.len()
    );
}

/// A tip attached healthy at the edge (its old root 13 milestones behind) that the next
/// milestone leaves out (more than seven tips were waiting) is semi-lazy after it: no
/// client selects it any more, and the milestone after references it all the same.
#[test]
fn a_tip_that_went_semi_lazy_waiting_is_referenced() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    // The milestone-1 block is referenced by milestone 2: a cone root 13 behind at 15.
    let first = store.issue_milestone(None).unwrap().block_id;
    let mut milestone_blocks = vec![first];
    for _ in 2..=15 {
        milestone_blocks.push(store.issue_milestone(None).unwrap().block_id);
    }
    let (m15, m14) = (milestone_blocks[14], milestone_blocks[13]);
    let attach = |mut parents: Vec<Id32>, text: &str| {
        parents.sort();
        store.submit_block(&block_on(parents, text)).unwrap().block_id
    };
    let waiting: Vec<Id32> =
        (0..8).map(|i| attach(vec![m14, m15], &format!("waiting {i}"))).collect();
    let edge = attach(vec![first, m15], "at the edge");
    let edge_meta = metadata(&store, &edge);
    assert_eq!(
        (&edge_meta["shouldPromote"], &edge_meta["shouldReattach"]),
        (&false.into(), &false.into())
    );
    let newest = attach(vec![m14, m15], "newest");
    // Milestone 16: its own block, the newest tip and the six oldest; not the edge block.
    let m16 = store.issue_milestone(None).unwrap();
    assert_eq!(metadata(&store, &newest)["referencedByMilestoneIndex"], m16.index);
    assert!(metadata(&store, &edge).get("referencedByMilestoneIndex").is_none());
    let edge_meta = metadata(&store, &edge);
    assert_eq!(edge_meta["shouldPromote"], true, "semi-lazy now: {edge_meta}");
    assert!(!store.select_tips().unwrap().contains(&edge), "no client selects it");
    // Milestone 17: the two waiting tips left over, then the semi-lazy one.
    let m17 = store.issue_milestone(None).unwrap();
    for id in waiting.iter().chain([&edge]) {
        let by = metadata(&store, id)["referencedByMilestoneIndex"].as_u64();
        assert!(by == Some(m16.index as u64) || by == Some(m17.index as u64), "{by:?}");
    }
    assert_eq!(metadata(&store, &edge)["referencedByMilestoneIndex"], m17.index);
}

/// Tip selection draws from a pool kept in step with the graph (`tip_pool.rs`): between
/// milestones a tip that gets a child leaves it and the child enters; after a milestone
/// only what is still a healthy tip is drawn.
#[test]
fn selection_follows_the_tips_between_and_across_milestones() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    let first = store.select_tips().unwrap();
    let tips: Vec<Id32> = (0..30)
        .map(|i| {
            store.submit_block(&block_on(first.clone(), &format!("tip {i}"))).unwrap().block_id
        })
        .collect();
    let drawn = |store: &Store, rounds: usize| -> std::collections::HashSet<Id32> {
        (0..rounds)
            .flat_map(|_| {
                let selection = store.select_tips().unwrap();
                assert_eq!(selection.len(), 8);
                assert!(selection.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
                selection
            })
            .collect()
    };
    assert_eq!(
        drawn(&store, 200),
        tips.iter().copied().collect(),
        "every tip is drawn, nothing else"
    );
    // A block approving the first 8 takes them out and comes in.
    let mut approved = tips[..8].to_vec();
    approved.sort();
    let child = store.submit_block(&block_on(approved, "child")).unwrap().block_id;
    let mut expected: std::collections::HashSet<Id32> = tips[8..].iter().copied().collect();
    expected.insert(child);
    assert_eq!(drawn(&store, 200), expected);
    // The milestone references what it approves; the selection then draws from what is left.
    let issued = store.issue_milestone(None).unwrap();
    for id in drawn(&store, 100) {
        assert!(
            metadata(&store, &id).get("referencedByMilestoneIndex").is_none(),
            "a referenced block was drawn after milestone {}",
            issued.index
        );
    }
    // The API's text form is the same selection.
    let text: serde_json::Value = serde_json::from_str(&store.select_tips_json().unwrap()).unwrap();
    let listed = text["tips"].as_array().unwrap();
    assert!((2..=8).contains(&listed.len()));
    assert!(listed
        .iter()
        .all(|t| t.as_str().is_some_and(|s| s.len() == 66 && s.starts_with("0x"))));
}

/// Gossip offers the node's own blocks again to peers that come later while they await a
/// milestone (gossip.md §6): pending until a milestone references them, then not.
#[test]
fn a_block_awaits_a_milestone_until_one_references_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    let id = store.submit_block(&block_on(store.select_tips().unwrap(), "waits")).unwrap().block_id;
    assert!(store.awaits_milestone(&id));
    assert!(!store.awaits_milestone(&[7; 32]), "an unknown block awaits nothing");
    store.issue_milestone(None).unwrap();
    assert_eq!(metadata(&store, &id)["referencedByMilestoneIndex"], 2);
    assert!(!store.awaits_milestone(&id));
}
