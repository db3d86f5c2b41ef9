//! What the store offers the INX server: subscribers of the event feed beside the event
//! API's listener (tip changes for both, with `tip-score-updates` payloads for the listener), the structured views (a milestone's diff
//! with its outputs, the unspent outputs of one snapshot, a milestone's cone in white-flag
//! order), and white flag for a milestone not issued yet with each of its error codes.

mod common;

use common::*;
use ledger_core::ids;
use ledger_store::events::StoreEvent;
use ledger_store::views::OutputState;
use ledger_store::{Code, Store, StoreOptions};
use std::sync::{Arc, Mutex};

fn recipient(n: u8) -> [u8; 32] {
    ledger_core::crypto::ed25519_address(&ledger_core::crypto::public_key(&[n; 32]))
}

fn kind(e: &StoreEvent) -> &'static str {
    match e {
        StoreEvent::BlocksStored(_) => "blocks",
        StoreEvent::MilestoneCommitted(_) => "milestone",
        StoreEvent::TipsChanged(_) => "tips",
    }
}

#[test]
fn subscribers_share_events_and_the_listener_gets_tip_updates() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    let listened = Arc::new(Mutex::new(Vec::new()));
    let updates = Arc::new(Mutex::new(Vec::new()));
    let sink = listened.clone();
    let tips = updates.clone();
    store.set_event_listener(Some(Box::new(move |e| {
        if let StoreEvent::TipsChanged(changes) = &e {
            tips.lock().unwrap().push(changes.updates.clone());
        }
        sink.lock().unwrap().push(kind(&e));
    })));
    store.set_events_active(true);
    let shared = Arc::new(Mutex::new(Vec::new()));
    let sink = shared.clone();
    let first = store.subscribe_events(Box::new(move |e| sink.lock().unwrap().push(e.clone())));
    let sink = shared.clone();
    let second = store.subscribe_events(Box::new(move |e| sink.lock().unwrap().push(e.clone())));

    let block = store.submit_block(&block_bytes(&store, None)).unwrap().block_id;
    store.issue_milestone(None).unwrap();
    assert_eq!(*listened.lock().unwrap(), vec!["blocks", "tips", "milestone", "tips"]);
    {
        let events = shared.lock().unwrap();
        // Each subscriber got the same Arc of each event, tip changes included.
        assert_eq!(
            events.iter().map(|e| kind(e)).collect::<Vec<_>>(),
            ["blocks", "blocks", "tips", "tips", "milestone", "milestone", "tips", "tips"]
        );
        assert!(Arc::ptr_eq(&events[0], &events[1]));
        let StoreEvent::TipsChanged(after_block) = &*events[2] else { unreachable!() };
        assert_eq!(after_block.added, vec![block]);
        let ms1 = store.milestone_by_index(1).unwrap().unwrap().block_id;
        assert_eq!(after_block.removed, vec![ms1]);
        let StoreEvent::MilestoneCommitted(m) = &*events[4] else { unreachable!() };
        let StoreEvent::TipsChanged(after_milestone) = &*events[6] else { unreachable!() };
        assert_eq!(after_milestone.added, vec![m.block.block_id]);
        assert_eq!(after_milestone.removed, vec![block]);
        // The structured metadata in the events is what the store reads back.
        for r in &m.referenced {
            assert_eq!(Some(r.metadata.clone()), store.block_metadata(&r.block_id).unwrap());
        }
        // The listener's tip updates: added, then removed, with inx-mqtt's payload at the
        // write (the subscribers' events carry the same).
        let updates = updates.lock().unwrap();
        assert_eq!(after_block.updates, updates[0]);
        let ids = |u: &[ledger_store::events::TipUpdate]| -> Vec<[u8; 32]> {
            u.iter().map(|u| u.block_id).collect()
        };
        assert_eq!(ids(&updates[0]), vec![block, ms1]);
        assert_eq!(ids(&updates[1]), vec![m.block.block_id, block]);
        let json = |u: &ledger_store::events::TipUpdate| {
            serde_json::from_str::<serde_json::Value>(&u.metadata_json).unwrap()
        };
        let parents = |id: &[u8; 32]| store.block_metadata(id).unwrap().unwrap().parents;
        let hexes = |ids: Vec<[u8; 32]>| -> Vec<String> {
            ids.iter().map(|p| format!("0x{}", hex::encode(p))).collect()
        };
        let unreferenced = |id: &[u8; 32]| {
            serde_json::json!({
                "blockId": format!("0x{}", hex::encode(id)),
                "parentBlockIds": hexes(parents(id)),
                "isSolid": true, "shouldPromote": false, "shouldReattach": false,
            })
        };
        // The block entered healthy; milestone 1's block, its first healthy child come, left
        // unreferenced (milestone 2 references it).
        assert_eq!(json(&updates[0][0]), unreferenced(&block));
        assert_eq!(json(&updates[0][1]), unreferenced(&ms1));
        assert!(!updates[0][0].metadata_json.contains("\"parents\""));
        // Milestone 2's block entered (the next milestone references it); the block left,
        // referenced by milestone 2.
        assert_eq!(json(&updates[1][0]), unreferenced(&m.block.block_id));
        let left = json(&updates[1][1]);
        let now = store.block_metadata(&block).unwrap().unwrap();
        assert_eq!(
            left,
            serde_json::json!({
                "blockId": format!("0x{}", hex::encode(block)),
                "parentBlockIds": hexes(parents(&block)),
                "isSolid": true,
                "referencedByMilestoneIndex": 2,
                "ledgerInclusionState": "noTransaction",
                "whiteFlagIndex": now.white_flag_index,
            })
        );
        // Keys in the order of inx-mqtt's blockMetadataPayload.
        let text = &updates[1][1].metadata_json;
        let at = |k: &str| text.find(&format!("\"{k}\"")).unwrap();
        assert!(at("blockId") < at("parentBlockIds") && at("parentBlockIds") < at("isSolid"));
        assert!(at("isSolid") < at("referencedByMilestoneIndex"));
        assert!(at("referencedByMilestoneIndex") < at("ledgerInclusionState"));
        assert!(at("ledgerInclusionState") < at("whiteFlagIndex"));
    }
    store.unsubscribe_events(first);
    store.unsubscribe_events(second);
    store.set_events_active(false);
    shared.lock().unwrap().clear();
    store.submit_block(&block_bytes(&store, None)).unwrap();
    assert!(shared.lock().unwrap().is_empty());
    // A subscriber alone turns the feed on.
    let sink = shared.clone();
    let only = store.subscribe_events(Box::new(move |e| sink.lock().unwrap().push(e.clone())));
    store.issue_milestone(None).unwrap();
    assert!(shared.lock().unwrap().iter().any(|e| kind(e) == "milestone"));
    assert_eq!(listened.lock().unwrap().len(), 4, "the inactive listener got nothing");
    store.unsubscribe_events(only);
}

#[test]
fn diffs_unspent_outputs_and_cones_as_values() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    let genesis = [([0u8; 34], genesis_output())];
    let tx = transfer(
        &genesis_seed(),
        &genesis,
        vec![basic_output(SUPPLY - 1_000_000, recipient(1)), basic_output(1_000_000, recipient(2))],
    );
    let carrier = store.submit_block(&tx_block(&store, &tx)).unwrap().block_id;
    let issued = store.issue_milestone(None).unwrap();
    let tx_id = ids::transaction_id(&tx);

    let diff = store.ledger_diff(2).unwrap().unwrap();
    let changes = store.utxo_changes(2).unwrap().unwrap();
    assert_eq!(diff.created.iter().map(|o| o.output_id).collect::<Vec<_>>(), changes.created);
    assert_eq!(
        diff.consumed.iter().map(|s| s.output.output_id).collect::<Vec<_>>(),
        changes.consumed
    );
    assert_eq!(diff.created[0].booked.block_id, carrier);
    assert_eq!(diff.created[0].booked.milestone_timestamp, issued.timestamp);
    assert_eq!(diff.consumed[0].transaction_id_spent, tx_id);
    assert_eq!(diff.consumed[0].output.booked.milestone_index, 0);
    assert!(store.ledger_diff(3).unwrap().is_none());

    let mut unspent = Vec::new();
    store
        .for_each_unspent_output(|ledger_index, o| {
            assert_eq!(ledger_index, 2);
            unspent.push(o.output_id);
            true
        })
        .unwrap();
    assert_eq!(unspent, vec![ids::output_id(&tx_id, 0), ids::output_id(&tx_id, 1)]);
    let mut first_only = 0;
    store
        .for_each_unspent_output(|_, _| {
            first_only += 1;
            false
        })
        .unwrap();
    assert_eq!(first_only, 1);
    let Some((2, OutputState::Spent(spent))) = store.output_state(&[0; 34]).unwrap() else {
        panic!("the genesis output is spent")
    };
    assert_eq!(spent.milestone_index_spent, 2);
    assert!(store.output_state(&[7; 34]).unwrap().is_none());

    let cone = store.milestone_cone(2).unwrap().unwrap();
    assert_eq!(cone.len(), issued.referenced_blocks);
    assert!(cone
        .iter()
        .enumerate()
        .all(|(k, m)| m.white_flag_index as usize == k && m.referenced_by == 2));
    assert!(cone.iter().any(|m| m.block_id == carrier));
    assert!(store.milestone_cone(9).unwrap().is_none());
    assert_eq!(store.treasury().unwrap(), (2, Default::default()));
}

fn follower() -> StoreOptions {
    StoreOptions {
        coordinator_enabled: false,
        coordinator_seeds: vec![],
        trusted_public_keys: vec![ledger_core::crypto::public_key(&coordinator_seed())],
        ..dev_options(0)
    }
}

/// The follower computes the roots of the coordinator's next milestone before it has it.
#[test]
fn white_flag_roots_of_the_next_milestone_and_each_refusal() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let coordinator = open_dev(a.path(), 0);
    let follower = Store::open(b.path(), follower()).unwrap();
    let first = coordinator.issue_milestone(None).unwrap();
    let copy = |s: &Store, id| s.block(&id).unwrap().unwrap();
    follower.submit_block(&copy(&coordinator, first.block_id)).unwrap();
    let genesis = [([0u8; 34], genesis_output())];
    let tx = transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient(3))]);
    let bytes = tx_block(&coordinator, &tx);
    coordinator.submit_block(&bytes).unwrap();
    follower.submit_block(&bytes).unwrap();
    let second = coordinator.issue_milestone(None).unwrap();
    let payload = ledger_core::codec::decode_milestone_payload(
        &coordinator.milestone_by_index(2).unwrap().unwrap().payload,
    )
    .unwrap();
    let roots = follower
        .white_flag_roots(2, payload.timestamp, &payload.parents, &first.milestone_id)
        .unwrap();
    assert_eq!(roots, (payload.inclusion_merkle_root, payload.applied_merkle_root));
    let code = |index, timestamp, parents: &[[u8; 32]], previous: &[u8; 32]| {
        follower.white_flag_roots(index, timestamp, parents, previous).unwrap_err().code
    };
    let ts = payload.timestamp;
    assert_eq!(code(3, ts, &payload.parents, &first.milestone_id), Code::NotSynced);
    assert_eq!(code(2, ts, &[], &first.milestone_id), Code::WhiteFlagParentsMissing);
    assert_eq!(code(2, ts, &[[9; 32]], &first.milestone_id), Code::WhiteFlagParentUnknown);
    for (timestamp, previous) in
        [(ts, [0; 32]), (ts, [5; 32]), (first.timestamp, first.milestone_id)]
    {
        assert_eq!(
            code(2, timestamp, &payload.parents, &previous),
            Code::WhiteFlagPreviousMilestone
        );
    }
    // The previous milestone outside the parents' cone (an entry point's).
    let entry_point = ledger_core::codec::decode_milestone_payload(
        &coordinator.milestone_by_index(1).unwrap().unwrap().payload,
    )
    .unwrap()
    .parents[0];
    assert_eq!(code(2, ts, &[entry_point], &first.milestone_id), Code::WhiteFlagPreviousMilestone);
    // Nothing was written: the milestone applies.
    assert!(follower.submit_block(&copy(&coordinator, second.block_id)).unwrap().stored);
}
