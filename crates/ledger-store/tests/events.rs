//! The event feed on the spec's history (events.md §5.1): Examples B and C stored, then
//! milestone 2 committed. Every event carries the bytes and metadata objects the store's
//! own reads answer right after the same commit, in commit and white-flag order, and an
//! inactive feed builds nothing.

mod common;

use common::worked_examples::{hex32, text};
use common::*;
use ledger_core::json::hex;
use ledger_store::events::StoreEvent;
use ledger_store::Store;
use std::sync::{Arc, Mutex};

fn collect(store: &Store) -> Arc<Mutex<Vec<StoreEvent>>> {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = events.clone();
    store.set_event_listener(Some(Box::new(move |e| sink.lock().unwrap().push(e))));
    events
}

#[test]
fn milestone_two_in_white_flag_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 1500);
    let events = collect(&store);
    store.issue_milestone(Some(1_700_000_000)).unwrap();
    // Not active yet: nothing is built.
    assert!(events.lock().unwrap().is_empty());
    store.set_events_active(true);

    let b = store.submit_block(&example("B")).unwrap().block_id;
    let c = store.submit_block(&example("C")).unwrap().block_id;
    // Stored again: no event.
    store.submit_block(&example("C")).unwrap();
    {
        let list = events.lock().unwrap();
        // Each write's tip changes follow its own event.
        assert_eq!(list.len(), 4);
        assert!(matches!(list[1], StoreEvent::TipsChanged(_)));
        assert!(matches!(list[3], StoreEvent::TipsChanged(_)));
        let StoreEvent::BlocksStored(stored) = &list[0] else { panic!("blocks first") };
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0].block_id, b);
        assert_eq!(stored[0].bytes, example("B"));
        assert_eq!(stored[0].payload_type, 5);
        assert_eq!(stored[0].tag.as_deref(), Some(&b"ledger"[..]));
        assert_eq!(stored[0].metadata_json, store.block_metadata_json(&b).unwrap().unwrap());
        let StoreEvent::BlocksStored(stored) = &list[2] else { panic!("blocks") };
        assert_eq!(stored[0].payload_type, 6);
        assert_eq!(stored[0].tag, None);
    }

    let second = store.issue_milestone(Some(1_700_000_010)).unwrap();
    let list = events.lock().unwrap();
    assert_eq!(list.len(), 6);
    assert!(matches!(list[5], StoreEvent::TipsChanged(_)), "its tip changes last");
    let StoreEvent::MilestoneCommitted(m) = &list[4] else { panic!("milestone") };
    assert_eq!(m.index, 2);
    assert_eq!(m.timestamp, 1_700_000_010);
    assert_eq!(m.milestone_id, second.milestone_id);
    assert_eq!(m.block.block_id, second.block_id);
    assert_eq!(m.block.payload_type, 7);
    assert_eq!(m.block.bytes, store.block(&second.block_id).unwrap().unwrap());
    assert_eq!(m.payload, store.milestone_by_index(2).unwrap().unwrap().payload);
    assert_eq!(
        m.block.metadata_json,
        store.block_metadata_json(&second.block_id).unwrap().unwrap()
    );
    let meta = json(&m.block.metadata_json);
    assert_eq!(meta["milestoneIndex"], 2);
    assert_eq!(meta["shouldPromote"], false);

    // White-flag order: milestone 1's block, Example B, Example C (ledger.md §7.4).
    let order: Vec<String> = m.referenced.iter().map(|r| hex(&r.block_id)).collect();
    assert_eq!(order, vec![text("/A/id").to_string(), hex(&b), hex(&c)]);
    for r in &m.referenced {
        assert_eq!(r.metadata_json, store.block_metadata_json(&r.block_id).unwrap().unwrap());
    }

    let tx = hex32("/C/extra/transactionId");
    assert_eq!(m.transactions.len(), 1);
    let t = &m.transactions[0];
    assert_eq!(t.transaction_id, tx);
    assert_eq!(t.block_id, c);
    assert_eq!(t.consumed.len(), 1);
    let genesis = &t.consumed[0];
    assert_eq!(genesis.output_id, [0; 34]);
    let (bytes, metadata) = store.output(&[0; 34]).unwrap().unwrap();
    assert_eq!(genesis.output, bytes);
    assert_eq!(genesis.metadata_json, metadata);
    assert_eq!(
        genesis.unlock_addresses,
        vec![(0, "tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc".to_string())]
    );
    assert_eq!(t.created.len(), 2);
    for (i, created) in t.created.iter().enumerate() {
        let id = ledger_core::ids::output_id(&tx, i as u16);
        assert_eq!(created.output_id, id);
        let (bytes, metadata) = store.output(&id).unwrap().unwrap();
        assert_eq!(created.output, bytes);
        assert_eq!(created.metadata_json, metadata);
        assert!(created.chain.is_none());
    }
    assert_eq!(
        t.created[0].unlock_addresses[0].1,
        "tst1qz2fwnh90thjx9hmh24jyfeljy2gttvee35gkj3e3yljx9s50vjcklgq6z7"
    );
}

#[test]
fn without_a_listener_the_feed_stays_off() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 1500);
    // Activating without a listener does nothing; removing the listener deactivates.
    store.set_events_active(true);
    store.issue_milestone(Some(1_700_000_000)).unwrap();
    let events = collect(&store);
    store.submit_block(&example("B")).unwrap();
    assert!(events.lock().unwrap().is_empty());
    store.set_events_active(true);
    store.set_event_listener(None);
    let events2 = collect(&store);
    store.submit_block(&example("C")).unwrap();
    assert!(events.lock().unwrap().is_empty());
    assert!(events2.lock().unwrap().is_empty());
}
