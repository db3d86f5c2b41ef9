//! A pruned history, answered as Hornet answers it: a ledger that starts from a snapshot at
//! milestone 2 (the pruning index is 2, milestones at or below it are known by index only)
//! and a store pruned by `Store::prune`; ranged streams that start at or below the pruning
//! index are refused with INVALID_ARGUMENT, what was pruned away is NOT_FOUND.

use crate::common::*;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::protocol::ProtocolParameters;
use ledger_core::snapshot::*;
use ledger_inx::proto::ledger_update::{marker::MarkerType, Op};
use ledger_inx::proto::{BlockId, MilestoneRangeRequest, MilestoneRequest, NoParams};
use ledger_store::{PruneTarget, StoreOptions};
use tonic::Code;

/// Milestone 2 is the target; the ledger holds the genesis output.
fn at_target_2() -> FullSnapshot {
    let milestone = MilestonePayload {
        index: 2,
        timestamp: 1_700_000_020,
        protocol_version: 2,
        previous_milestone_id: [0x11; 32],
        parents: vec![[0xe1; 32], [0xe2; 32]],
        inclusion_merkle_root: [0; 32],
        applied_merkle_root: [0; 32],
        metadata: vec![],
        options: vec![],
        signatures: vec![Ed25519Signature { public_key: [1; 32], signature: [2; 64] }],
    };
    let genesis = SnapshotOutput {
        output_id: [0; 34],
        block_id: [0; 32],
        milestone_index_booked: 0,
        milestone_timestamp_booked: 0,
        output: genesis_output(),
    };
    FullSnapshot {
        genesis_milestone_index: 0,
        target_milestone_index: 2,
        target_milestone_timestamp: 1_700_000_020,
        target_milestone_id: ids::milestone_id(&milestone),
        ledger_milestone_index: 2,
        treasury: TreasuryOutput::default(),
        protocol_parameters: ProtocolParametersOption {
            target_milestone_index: 0,
            protocol_version: 2,
            params: ProtocolParameters { min_pow_score: 0, ..ProtocolParameters::dev_default() },
        },
        outputs: vec![genesis],
        milestone_diffs: vec![MilestoneDiff {
            milestone,
            spent_treasury: None,
            created: vec![],
            consumed: vec![],
        }],
        solid_entry_points: vec![[0xe1; 32], [0xe2; 32]],
    }
}

#[test]
fn ranges_at_or_below_the_pruning_index_are_refused() {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), write_full_snapshot(&at_target_2()).unwrap()).unwrap();
    let options = StoreOptions { snapshot: Some(file.path().to_path_buf()), ..follower_options(0) };
    let h = Harness::with(Options {
        store: Some(options),
        first_milestone: false,
        ..Options::default()
    });
    let mut client = h.client();
    let status = h.run(client.read_node_status(NoParams {})).unwrap().into_inner();
    assert_eq!(
        (status.tangle_pruning_index, status.ledger_pruning_index, status.ledger_index),
        (2, 2, 2)
    );
    // The target milestone: by index only, no payload.
    let confirmed = status.confirmed_milestone.unwrap();
    assert_eq!(confirmed.milestone_info.unwrap().milestone_index, 2);
    assert!(confirmed.milestone.is_none());
    h.run(async {
        for start in [1, 2] {
            let range =
                MilestoneRangeRequest { start_milestone_index: start, end_milestone_index: 0 };
            for result in [client.listen_to_ledger_updates(range).await.map(|r| r.into_inner())] {
                let mut stream = result.unwrap();
                let err = next(&mut stream).await.unwrap_err();
                assert_eq!(err.code(), Code::InvalidArgument);
                assert!(
                    err.message().contains("older than the current pruningIndex 2"),
                    "{}",
                    err.message()
                );
            }
            let mut milestones =
                client.listen_to_confirmed_milestones(range).await.unwrap().into_inner();
            assert_eq!(next(&mut milestones).await.unwrap_err().code(), Code::InvalidArgument);
            let mut treasury = client.listen_to_treasury_updates(range).await.unwrap().into_inner();
            assert_eq!(next(&mut treasury).await.unwrap_err().code(), Code::InvalidArgument);
        }
        // From the first index after it: waits for milestone 3.
        let range = MilestoneRangeRequest { start_milestone_index: 3, end_milestone_index: 0 };
        let mut stream = client.listen_to_ledger_updates(range).await.unwrap().into_inner();
        quiet(&mut stream, 100).await;
    });
}

#[test]
fn a_pruned_store_refuses_what_it_no_longer_has() {
    let h = Harness::new();
    let mut early = None;
    for k in 0..45u8 {
        let bytes = block_bytes(&h.store, tagged(b"to prune", vec![k]));
        let id = h.store.submit_block(&bytes).unwrap().block_id;
        early.get_or_insert(id);
        h.store.issue_milestone(None).unwrap();
    }
    let early = early.unwrap();
    let referenced_at = h.store.block_metadata(&early).unwrap().unwrap().referenced_by;
    assert!(referenced_at <= 25, "{referenced_at}");
    let p = h.store.prune(PruneTarget::Index(25), &|| false).unwrap().to;
    assert_eq!(p, 25);
    let by_index = |i: u32| MilestoneRequest { milestone_index: i, milestone_id: None };
    let mut client = h.client();
    h.run(async {
        let status = client.read_node_status(NoParams {}).await.unwrap().into_inner();
        assert_eq!(
            (
                status.tangle_pruning_index,
                status.milestones_pruning_index,
                status.ledger_pruning_index
            ),
            (p, p, p)
        );
        assert_eq!(client.read_milestone(by_index(p)).await.unwrap_err().code(), Code::NotFound);
        let kept = client.read_milestone(by_index(p + 1)).await.unwrap().into_inner();
        assert_eq!(kept.milestone_info.unwrap().milestone_index, p + 1);
        let block = BlockId { id: early.to_vec() };
        assert_eq!(client.read_block(block.clone()).await.unwrap_err().code(), Code::NotFound);
        assert_eq!(client.read_block_metadata(block).await.unwrap_err().code(), Code::NotFound);
        let cone = client.read_milestone_cone(by_index(referenced_at)).await;
        let refused = match cone {
            Err(status) => status,
            Ok(stream) => next(&mut stream.into_inner()).await.unwrap_err(),
        };
        assert_eq!(refused.code(), Code::NotFound);
        // Ledger updates: from the pruning index refused, from the next one replayed as stored.
        let range = MilestoneRangeRequest { start_milestone_index: p, end_milestone_index: 0 };
        let mut stream = client.listen_to_ledger_updates(range).await.unwrap().into_inner();
        let err = next(&mut stream).await.unwrap_err();
        assert_eq!(err.code(), Code::InvalidArgument);
        assert!(
            err.message().contains(&format!("older than the current pruningIndex {p}")),
            "{}",
            err.message()
        );
        let range =
            MilestoneRangeRequest { start_milestone_index: p + 1, end_milestone_index: p + 3 };
        let mut stream = client.listen_to_ledger_updates(range).await.unwrap().into_inner();
        let mut begun = Vec::new();
        while let Some(update) = next(&mut stream).await.unwrap() {
            if let Some(Op::BatchMarker(m)) = update.op {
                if m.marker_type == MarkerType::Begin as i32 {
                    begun.push(m.milestone_index);
                }
            }
        }
        assert_eq!(begun, vec![p + 1, p + 2, p + 3], "the range ends after its end");
    });
}
