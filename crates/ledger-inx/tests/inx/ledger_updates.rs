//! ListenToLedgerUpdates, milestone by milestone against the store's utxo-changes (what
//! `GET /api/core/v2/milestones/by-index/{index}/utxo-changes` answers): a stream that
//! starts in the past reads stored milestones and goes on with live ones, with transfers,
//! chains within one milestone and empty milestones; a stream from now on gets the same live
//! batches.

use crate::common::*;
use ledger_core::ids;
use ledger_core::model::{Output, OutputId, TransactionPayload};
use ledger_inx::proto::{
    ledger_update, LedgerOutput, LedgerSpent, LedgerUpdate, MilestoneRangeRequest,
};
use ledger_store::views::OutputState;
use ledger_store::Store;
use tonic::Streaming;

struct Batch {
    index: u32,
    consumed: Vec<LedgerSpent>,
    created: Vec<LedgerOutput>,
}

fn marker(update: LedgerUpdate) -> ledger_update::Marker {
    match update.op {
        Some(ledger_update::Op::BatchMarker(m)) => m,
        other => panic!("expected a marker, got {other:?}"),
    }
}

/// One whole batch, checked as inx-app's nodebridge checks it.
async fn batch(stream: &mut Streaming<LedgerUpdate>) -> Batch {
    use ledger_update::marker::MarkerType;
    let begin = marker(next(stream).await.unwrap().expect("a batch"));
    assert_eq!(begin.marker_type, MarkerType::Begin as i32);
    let mut consumed = Vec::new();
    for _ in 0..begin.consumed_count {
        match next(stream).await.unwrap().unwrap().op {
            Some(ledger_update::Op::Consumed(s)) => consumed.push(s),
            other => panic!("expected a consumed output, got {other:?}"),
        }
    }
    let mut created = Vec::new();
    for _ in 0..begin.created_count {
        match next(stream).await.unwrap().unwrap().op {
            Some(ledger_update::Op::Created(o)) => created.push(o),
            other => panic!("expected a created output, got {other:?}"),
        }
    }
    let end = marker(next(stream).await.unwrap().unwrap());
    assert_eq!(end.marker_type, MarkerType::End as i32);
    assert_eq!(
        (end.milestone_index, end.consumed_count, end.created_count),
        (begin.milestone_index, begin.consumed_count, begin.created_count)
    );
    Batch { index: begin.milestone_index, consumed, created }
}

fn output_id_of(o: &LedgerOutput) -> OutputId {
    o.output_id.as_ref().unwrap().id.as_slice().try_into().unwrap()
}

/// The batch is the milestone's utxo-changes, and every output is as the store has it.
fn check_against_store(store: &Store, b: &Batch) {
    let changes = store.utxo_changes(b.index).unwrap().expect("a stored diff");
    let created: Vec<OutputId> = b.created.iter().map(output_id_of).collect();
    let consumed: Vec<OutputId> =
        b.consumed.iter().map(|s| output_id_of(s.output.as_ref().unwrap())).collect();
    assert_eq!(created, changes.created, "created outputs of milestone {}", b.index);
    assert_eq!(consumed, changes.consumed, "consumed outputs of milestone {}", b.index);
    let milestone = store.milestone_by_index(b.index).unwrap().unwrap();
    for o in &b.created {
        let (_, state) = store.output_state(&output_id_of(o)).unwrap().unwrap();
        let stored = match state {
            OutputState::Unspent(o) => o,
            OutputState::Spent(s) => s.output,
        };
        assert_eq!(o.block_id.as_ref().unwrap().id, stored.booked.block_id.to_vec());
        assert_eq!(
            (o.milestone_index_booked, o.milestone_timestamp_booked),
            (b.index, milestone.timestamp)
        );
        assert_eq!(o.output.as_ref().unwrap().data, stored.output);
    }
    for s in &b.consumed {
        let output = s.output.as_ref().unwrap();
        let Some((_, OutputState::Spent(stored))) =
            store.output_state(&output_id_of(output)).unwrap()
        else {
            panic!("a consumed output is spent");
        };
        assert_eq!(
            s.transaction_id_spent.as_ref().unwrap().id,
            stored.transaction_id_spent.to_vec()
        );
        assert_eq!(
            (s.milestone_index_spent, s.milestone_timestamp_spent),
            (b.index, milestone.timestamp)
        );
        assert_eq!(output.block_id.as_ref().unwrap().id, stored.output.booked.block_id.to_vec());
        assert_eq!(output.milestone_index_booked, stored.output.booked.milestone_index);
        assert_eq!(output.output.as_ref().unwrap().data, stored.output.output);
    }
}

fn spend(
    store: &Store,
    seed: &[u8; 32],
    inputs: &[(OutputId, Output)],
    outputs: Vec<Output>,
) -> TransactionPayload {
    let tx = transfer(seed, inputs, outputs);
    store.submit_block(&tx_block(store, &tx)).unwrap();
    tx
}

#[test]
fn ledger_updates_from_the_past_into_live_milestones_equal_utxo_changes() {
    let h = Harness::new();
    let mut client = h.client();
    let (one, two, three) = ([1u8; 32], [2u8; 32], [3u8; 32]);
    let store = &h.store;
    let out = |amount, seed: &[u8; 32]| basic_output(amount, address_of(seed));
    let m = 1_000_000;
    // Milestone 2: genesis → A, B.
    let tx1 = spend(
        store,
        &genesis_seed(),
        &[([0; 34], genesis_output())],
        vec![out(SUPPLY - 10 * m, &one), out(10 * m, &two)],
    );
    let a = (ids::output_id(&ids::transaction_id(&tx1), 0), out(SUPPLY - 10 * m, &one));
    let b = (ids::output_id(&ids::transaction_id(&tx1), 1), out(10 * m, &two));
    store.issue_milestone(None).unwrap();
    // Milestone 3: nothing.
    store.issue_milestone(None).unwrap();
    // Milestone 4: A → C, D, and C → E in the same milestone.
    let tx2 = spend(store, &one, &[a], vec![out(SUPPLY - 20 * m, &one), out(10 * m, &three)]);
    let c = (ids::output_id(&ids::transaction_id(&tx2), 0), out(SUPPLY - 20 * m, &one));
    spend(store, &one, &[c], vec![out(SUPPLY - 20 * m, &three)]);
    store.issue_milestone(None).unwrap();

    h.run(async {
        let from_two = MilestoneRangeRequest { start_milestone_index: 2, end_milestone_index: 0 };
        let mut past = client.listen_to_ledger_updates(from_two).await.unwrap().into_inner();
        let now_on = MilestoneRangeRequest { start_milestone_index: 0, end_milestone_index: 0 };
        let mut live = client.listen_to_ledger_updates(now_on).await.unwrap().into_inner();
        let mut batches = Vec::new();
        for index in 2..=4 {
            let b = batch(&mut past).await;
            assert_eq!(b.index, index);
            batches.push(b);
        }
        assert_eq!(
            batches.iter().map(|b| (b.consumed.len(), b.created.len())).collect::<Vec<_>>(),
            vec![(1, 2), (0, 0), (2, 3)]
        );
        // Live: milestone 5 spends B, milestone 6 is empty.
        spend(store, &two, &[b], vec![out(10 * m, &one)]);
        store.issue_milestone(None).unwrap();
        store.issue_milestone(None).unwrap();
        for index in 5..=6 {
            let from_past = batch(&mut past).await;
            let from_now = batch(&mut live).await;
            assert_eq!((from_past.index, from_now.index), (index, index));
            assert_eq!(from_past.consumed, from_now.consumed);
            assert_eq!(from_past.created, from_now.created);
            batches.push(from_past);
        }
        assert_eq!(batches.iter().map(|b| b.index).collect::<Vec<_>>(), vec![2, 3, 4, 5, 6]);
        for b in &batches {
            check_against_store(store, b);
        }
        // The stored diffs read the same as the live batches did.
        let again = MilestoneRangeRequest { start_milestone_index: 5, end_milestone_index: 6 };
        let mut replay = client.listen_to_ledger_updates(again).await.unwrap().into_inner();
        for index in 5..=6 {
            let b = batch(&mut replay).await;
            let live = batches.iter().find(|x| x.index == index).unwrap();
            assert_eq!((&b.consumed, &b.created), (&live.consumed, &live.created));
        }
        assert!(next(&mut replay).await.unwrap().is_none(), "a bounded range ends OK");
        quiet(&mut past, 100).await;
    });
}

#[test]
fn ranges_of_stored_and_future_milestones() {
    // A range of stored milestones ends once sent; one that starts beyond the ledger index
    // waits for its start.
    let h = Harness::new();
    let mut client = h.client();
    h.run(async {
        let range = MilestoneRangeRequest { start_milestone_index: 1, end_milestone_index: 1 };
        let mut stream = client.listen_to_ledger_updates(range).await.unwrap().into_inner();
        assert_eq!(batch(&mut stream).await.index, 1);
        assert!(next(&mut stream).await.unwrap().is_none());
        let future = MilestoneRangeRequest { start_milestone_index: 3, end_milestone_index: 3 };
        let mut stream = client.listen_to_ledger_updates(future).await.unwrap().into_inner();
        quiet(&mut stream, 100).await;
        h.store.issue_milestone(None).unwrap();
        h.store.issue_milestone(None).unwrap();
        assert_eq!(batch(&mut stream).await.index, 3);
        assert!(next(&mut stream).await.unwrap().is_none());
    });
}
