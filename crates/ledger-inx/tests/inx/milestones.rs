//! ReadMilestone, ListenToLatestMilestones, ListenToConfirmedMilestones (past → live, bounded,
//! reversed), ComputeWhiteFlag (against another node's milestone, and its refusals),
//! ReadMilestoneCone and ReadMilestoneConeMetadata (white-flag order).

use crate::common::*;
use ledger_core::codec::decode_milestone_payload;
use ledger_inx::proto::{
    BlockId, MilestoneId, MilestoneRangeRequest, MilestoneRequest, NoParams, WhiteFlagRequest,
};
use ledger_store::Store;
use tonic::Code;

fn by_index(milestone_index: u32) -> MilestoneRequest {
    MilestoneRequest { milestone_index, milestone_id: None }
}

#[test]
fn read_milestone_by_index_and_id() {
    let h = Harness::new();
    let mut client = h.client();
    let record = h.store.milestone_by_index(1).unwrap().unwrap();
    let found = h.run(client.read_milestone(by_index(1))).unwrap().into_inner();
    assert_eq!(found.milestone.unwrap().data, record.payload);
    let by_id = h
        .run(client.read_milestone(MilestoneRequest {
            milestone_index: 0,
            milestone_id: Some(MilestoneId { id: record.milestone_id.to_vec() }),
        }))
        .unwrap()
        .into_inner();
    assert_eq!(by_id.milestone_info.unwrap().milestone_index, 1);
    for unknown in [by_index(9), MilestoneRequest { milestone_index: 0, milestone_id: None }] {
        assert_eq!(h.run(client.read_milestone(unknown)).unwrap_err().code(), Code::NotFound);
    }
}

#[test]
fn latest_milestones_come_as_they_are_applied() {
    let h = Harness::new();
    let mut client = h.client();
    h.run(async {
        let mut stream =
            client.listen_to_latest_milestones(NoParams {}).await.unwrap().into_inner();
        quiet(&mut stream, 100).await;
        let issued = h.store.issue_milestone(None).unwrap();
        let m = next(&mut stream).await.unwrap().unwrap();
        let info = m.milestone_info.unwrap();
        assert_eq!(
            (info.milestone_index, info.milestone_id.unwrap().id),
            (2, issued.milestone_id.to_vec())
        );
    });
}

fn range(start: u32, end: u32) -> MilestoneRangeRequest {
    MilestoneRangeRequest { start_milestone_index: start, end_milestone_index: end }
}

#[test]
fn confirmed_milestones_from_the_past_into_live_ones_without_gaps_or_duplicates() {
    let h = Harness::new();
    let mut client = h.client();
    for _ in 2..=5 {
        h.store.issue_milestone(None).unwrap();
    }
    h.run(async {
        let mut stream =
            client.listen_to_confirmed_milestones(range(2, 0)).await.unwrap().into_inner();
        let mut seen = Vec::new();
        for _ in 2..=5 {
            let m = next(&mut stream).await.unwrap().unwrap();
            assert_eq!(m.current_protocol_parameters.unwrap().protocol_version, 2);
            seen.push(m.milestone.unwrap().milestone_info.unwrap().milestone_index);
        }
        // Live ones follow, including one issued while the stored ones were sent.
        for _ in 6..=8 {
            h.store.issue_milestone(None).unwrap();
        }
        for _ in 6..=8 {
            let m = next(&mut stream).await.unwrap().unwrap();
            let raw = m.milestone.unwrap();
            let index = raw.milestone_info.unwrap().milestone_index;
            assert_eq!(
                decode_milestone_payload(&raw.milestone.unwrap().data).unwrap().index,
                index
            );
            seen.push(index);
        }
        assert_eq!(seen, (2..=8).collect::<Vec<_>>());
        quiet(&mut stream, 100).await;
    });
}

#[test]
fn a_bounded_range_ends_ok_and_a_reversed_one_ends_at_once() {
    let h = Harness::new();
    let mut client = h.client();
    for _ in 2..=4 {
        h.store.issue_milestone(None).unwrap();
    }
    h.run(async {
        // Entirely in the past.
        let mut stream =
            client.listen_to_confirmed_milestones(range(2, 3)).await.unwrap().into_inner();
        for index in 2..=3 {
            let m = next(&mut stream).await.unwrap().unwrap();
            assert_eq!(m.milestone.unwrap().milestone_info.unwrap().milestone_index, index);
        }
        assert!(next(&mut stream).await.unwrap().is_none(), "ends OK");
        // Reaching into the future: the stored ones, then live ones up to the end.
        let mut stream =
            client.listen_to_confirmed_milestones(range(4, 6)).await.unwrap().into_inner();
        assert_eq!(
            next(&mut stream)
                .await
                .unwrap()
                .unwrap()
                .milestone
                .unwrap()
                .milestone_info
                .unwrap()
                .milestone_index,
            4
        );
        h.store.issue_milestone(None).unwrap();
        h.store.issue_milestone(None).unwrap();
        for index in 5..=6 {
            let m = next(&mut stream).await.unwrap().unwrap();
            assert_eq!(m.milestone.unwrap().milestone_info.unwrap().milestone_index, index);
        }
        assert!(next(&mut stream).await.unwrap().is_none());
        // Reversed (end before start): nothing, and the stream ends OK, as Hornet's.
        let mut stream =
            client.listen_to_confirmed_milestones(range(4, 2)).await.unwrap().into_inner();
        assert!(next(&mut stream).await.unwrap().is_none());
    });
}

/// A second node follows the first; the first's coordinator issues a milestone, and the
/// follower's ComputeWhiteFlag, asked before it has that milestone, answers its roots (what
/// inx-coordinator's quorum checks).
#[test]
fn white_flag_roots_equal_the_coordinators() {
    let coordinator_dir = tempfile::tempdir().unwrap();
    let coordinator = Store::open(coordinator_dir.path(), dev_options(0)).unwrap();
    let first = coordinator.issue_milestone(None).unwrap();
    let h = Harness::with(Options {
        store: Some(follower_options(0)),
        first_milestone: false,
        ..Options::default()
    });
    let copy = |store: &Store, block_id| store.block(&block_id).unwrap().unwrap();
    h.store.submit_block(&copy(&coordinator, first.block_id)).unwrap();
    // A transfer and a tagged-data block, stored on both.
    let genesis = [([0u8; 34], genesis_output())];
    let tx = transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, [9; 32])]);
    for bytes in [tx_block(&coordinator, &tx), block_bytes(&coordinator, tagged(b"wf", vec![1]))] {
        coordinator.submit_block(&bytes).unwrap();
        h.store.submit_block(&bytes).unwrap();
    }
    let second = coordinator.issue_milestone(None).unwrap();
    let payload =
        decode_milestone_payload(&coordinator.milestone_by_index(2).unwrap().unwrap().payload)
            .unwrap();
    let mut client = h.client();
    let request = |index, timestamp, parents: &[[u8; 32]], previous: [u8; 32]| WhiteFlagRequest {
        milestone_index: index,
        milestone_timestamp: timestamp,
        parents: parents.iter().map(|p| BlockId { id: p.to_vec() }).collect(),
        previous_milestone_id: Some(MilestoneId { id: previous.to_vec() }),
    };
    let answer = h
        .run(client.compute_white_flag(request(
            2,
            payload.timestamp,
            &payload.parents,
            first.milestone_id,
        )))
        .unwrap()
        .into_inner();
    assert_eq!(answer.milestone_inclusion_merkle_root, payload.inclusion_merkle_root.to_vec());
    assert_eq!(answer.milestone_applied_merkle_root, payload.applied_merkle_root.to_vec());
    // Nothing was written: the milestone itself still applies on the follower.
    let milestone_block = copy(&coordinator, second.block_id);
    // Hornet's refusals.
    let code =
        |r: WhiteFlagRequest| h.run(client.clone().compute_white_flag(r)).unwrap_err().code();
    assert_eq!(
        code(request(3, payload.timestamp, &payload.parents, first.milestone_id)),
        Code::Unavailable,
        "not the next index"
    );
    assert_eq!(
        code(request(2, payload.timestamp, &[], first.milestone_id)),
        Code::InvalidArgument,
        "no parents"
    );
    assert_eq!(
        code(request(2, payload.timestamp, &[[0x42; 32]], first.milestone_id)),
        Code::Unavailable,
        "a parent never arrives"
    );
    assert_eq!(
        code(request(2, payload.timestamp, &payload.parents, [5; 32])),
        Code::Internal,
        "another previous milestone"
    );
    assert_eq!(
        code(request(2, first.timestamp, &payload.parents, first.milestone_id)),
        Code::Internal,
        "not after the previous one"
    );
    assert!(h.store.submit_block(&milestone_block).unwrap().stored);
    assert_eq!(h.store.status().ledger_index, 2);
}

#[test]
fn milestone_cones_in_white_flag_order() {
    let h = Harness::new();
    let mut client = h.client();
    let mut stored = Vec::new();
    for k in 0..5u8 {
        stored.push(
            h.store
                .submit_block(&block_bytes(&h.store, tagged(b"cone", vec![k])))
                .unwrap()
                .block_id,
        );
    }
    h.store.issue_milestone(None).unwrap();
    h.run(async {
        let mut stream =
            client.read_milestone_cone_metadata(by_index(2)).await.unwrap().into_inner();
        let mut order = Vec::new();
        while let Some(m) = next(&mut stream).await.unwrap() {
            assert_eq!(m.referenced_by_milestone_index, 2);
            assert_eq!(m.white_flag_index as usize, order.len());
            order.push(id32(&m.block_id.unwrap().id));
        }
        // Milestone 1's block and the five blocks, and nothing else.
        assert_eq!(order.len(), 6);
        for b in &stored {
            assert!(order.contains(b));
        }
        let mut stream = client.read_milestone_cone(by_index(2)).await.unwrap().into_inner();
        let mut with_blocks = Vec::new();
        while let Some(b) = next(&mut stream).await.unwrap() {
            let id = id32(&b.metadata.unwrap().block_id.unwrap().id);
            assert_eq!(b.block.unwrap().data, h.store.block(&id).unwrap().unwrap());
            with_blocks.push(id);
        }
        assert_eq!(with_blocks, order);
        for missing in [
            by_index(9),
            MilestoneRequest {
                milestone_index: 0,
                milestone_id: Some(MilestoneId { id: vec![1; 32] }),
            },
        ] {
            assert_eq!(
                client.read_milestone_cone(missing.clone()).await.unwrap_err().code(),
                Code::NotFound
            );
            assert_eq!(
                client.read_milestone_cone_metadata(missing).await.unwrap_err().code(),
                Code::NotFound
            );
        }
    });
}
