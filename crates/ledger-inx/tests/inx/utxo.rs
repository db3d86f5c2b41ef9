//! ReadUnspentOutputs, ReadOutput, ListenToTreasuryUpdates, ListenToMigrationReceipts.

use crate::common::*;
use ledger_core::ids;
use ledger_inx::proto::{output_response::Payload, MilestoneRangeRequest, NoParams, OutputId};
use tonic::Code;

#[test]
fn unspent_outputs_and_single_outputs() {
    let h = Harness::new();
    let mut client = h.client();
    let genesis = [([0u8; 34], genesis_output())];
    let tx = transfer(
        &genesis_seed(),
        &genesis,
        vec![basic_output(SUPPLY - 1_000_000, [1; 32]), basic_output(1_000_000, [2; 32])],
    );
    let block = h.store.submit_block(&tx_block(&h.store, &tx)).unwrap().block_id;
    let milestone = h.store.issue_milestone(None).unwrap();
    let tx_id = ids::transaction_id(&tx);
    h.run(async {
        let mut stream = client.read_unspent_outputs(NoParams {}).await.unwrap().into_inner();
        let mut ids = Vec::new();
        while let Some(u) = next(&mut stream).await.unwrap() {
            assert_eq!(u.ledger_index, 2);
            let o = u.output.unwrap();
            assert_eq!(o.block_id.unwrap().id, block.to_vec());
            assert_eq!(
                (o.milestone_index_booked, o.milestone_timestamp_booked),
                (2, milestone.timestamp)
            );
            ids.push(o.output_id.unwrap().id);
        }
        ids.sort();
        assert_eq!(
            ids,
            vec![ids::output_id(&tx_id, 0).to_vec(), ids::output_id(&tx_id, 1).to_vec()]
        );
    });
    let unspent = h
        .run(client.read_output(OutputId { id: ids::output_id(&tx_id, 1).to_vec() }))
        .unwrap()
        .into_inner();
    assert_eq!(unspent.ledger_index, 2);
    let Some(Payload::Output(o)) = unspent.payload else { panic!("unspent") };
    assert_eq!(
        o.output.unwrap().data,
        ledger_core::codec::encode_output(&basic_output(1_000_000, [2; 32]))
    );
    let spent = h.run(client.read_output(OutputId { id: vec![0; 34] })).unwrap().into_inner();
    let Some(Payload::Spent(s)) = spent.payload else { panic!("spent") };
    assert_eq!(s.transaction_id_spent.unwrap().id, tx_id.to_vec());
    assert_eq!((s.milestone_index_spent, s.milestone_timestamp_spent), (2, milestone.timestamp));
    // The genesis output: booked at 0 by no block.
    let genesis = s.output.unwrap();
    assert_eq!((genesis.block_id.unwrap().id, genesis.milestone_index_booked), (vec![0; 32], 0));
    // Unknown: Hornet's storage error is a plain error (UNKNOWN).
    let err = h.run(client.read_output(OutputId { id: vec![9; 34] })).unwrap_err();
    assert_eq!(err.code(), Code::Unknown);
}

#[test]
fn treasury_starts_with_the_current_output_and_receipts_stay_quiet() {
    let h = Harness::new();
    let mut client = h.client();
    h.run(async {
        let range = MilestoneRangeRequest { start_milestone_index: 0, end_milestone_index: 0 };
        let mut treasury = client.listen_to_treasury_updates(range).await.unwrap().into_inner();
        let first = next(&mut treasury).await.unwrap().unwrap();
        assert_eq!(first.milestone_index, 1);
        // The dev network has an empty treasury: created and consumed are the same output.
        assert_eq!(first.created, first.consumed);
        assert_eq!(first.created.unwrap().amount, 0);
        let mut receipts =
            client.listen_to_migration_receipts(NoParams {}).await.unwrap().into_inner();
        h.store.issue_milestone(None).unwrap();
        // No receipt, no treasury change: both stay open and quiet.
        quiet(&mut treasury, 200).await;
        quiet(&mut receipts, 200).await;
        // A bounded range ends once the milestone passes.
        let range = MilestoneRangeRequest { start_milestone_index: 0, end_milestone_index: 3 };
        let mut bounded = client.listen_to_treasury_updates(range).await.unwrap().into_inner();
        assert_eq!(next(&mut bounded).await.unwrap().unwrap().milestone_index, 2);
        h.store.issue_milestone(None).unwrap();
        assert!(next(&mut bounded).await.unwrap().is_none());
    });
}
