//! RequestTips, ListenToTipsMetrics, ListenToTipScoreUpdates.

use crate::common::*;
use ledger_inx::proto::{NoParams, TipsMetricRequest, TipsRequest};
use tonic::Code;

#[test]
fn tips_on_request() {
    let h = Harness::new();
    let mut client = h.client();
    for k in 0..10u8 {
        h.store.submit_block(&block_bytes(&h.store, tagged(b"tip", vec![k]))).unwrap();
    }
    let all = h
        .run(client.request_tips(TipsRequest { count: 0, allow_semi_lazy: false }))
        .unwrap()
        .into_inner();
    assert!((2..=8).contains(&all.tips.len()));
    let two = h
        .run(client.request_tips(TipsRequest { count: 2, allow_semi_lazy: true }))
        .unwrap()
        .into_inner();
    assert_eq!(two.tips.len(), 2);
    for tip in &two.tips {
        assert!(h.store.block_metadata(&id32(&tip.id)).unwrap().is_some());
    }
    // Before milestone 1 there is nothing to select.
    let empty = Harness::with(Options { first_milestone: false, ..Options::default() });
    let err = empty
        .run(empty.client().request_tips(TipsRequest { count: 0, allow_semi_lazy: false }))
        .unwrap_err();
    assert_eq!(err.code(), Code::Unavailable);
}

#[test]
fn tip_pool_sizes_every_interval() {
    let h = Harness::new();
    let mut client = h.client();
    let zero =
        h.run(client.listen_to_tips_metrics(TipsMetricRequest { interval_in_milliseconds: 0 }));
    assert_eq!(zero.unwrap_err().code(), Code::InvalidArgument);
    h.store.submit_block(&block_bytes(&h.store, tagged(b"a", vec![]))).unwrap();
    h.run(async {
        let mut stream = client
            .listen_to_tips_metrics(TipsMetricRequest { interval_in_milliseconds: 50 })
            .await
            .unwrap()
            .into_inner();
        let first = next(&mut stream).await.unwrap().unwrap();
        assert_eq!((first.non_lazy_pool_size, first.semi_lazy_pool_size), (1, 0));
        // A second block approves the first: it takes its place.
        h.store.submit_block(&block_bytes(&h.store, tagged(b"b", vec![]))).unwrap();
        let later = next(&mut stream).await.unwrap().unwrap();
        assert_eq!((later.non_lazy_pool_size, later.semi_lazy_pool_size), (1, 0));
    });
}

#[test]
fn tips_entering_and_leaving_the_pool() {
    let h = Harness::new();
    let mut client = h.client();
    h.run(async {
        let mut stream =
            client.listen_to_tip_score_updates(NoParams {}).await.unwrap().into_inner();
        let first =
            h.store.submit_block(&block_bytes(&h.store, tagged(b"1", vec![]))).unwrap().block_id;
        // The new tip enters; milestone 1's block, its parent, leaves the tips.
        let mut updates = Vec::new();
        for _ in 0..2 {
            let m = next(&mut stream).await.unwrap().unwrap();
            updates.push((id32(&m.block_id.unwrap().id), m.should_promote, m.should_reattach));
        }
        assert!(updates.contains(&(first, false, false)));
        let ms1 = h.store.milestone_by_index(1).unwrap().unwrap().block_id;
        assert!(updates.iter().any(|(id, _, _)| *id == ms1), "{updates:?}");
        // A milestone references the tip: it leaves, referenced now.
        h.store.issue_milestone(None).unwrap();
        let mut left = false;
        while let Ok(Ok(Some(m))) =
            tokio::time::timeout(std::time::Duration::from_millis(300), stream.message()).await
        {
            if id32(&m.block_id.clone().unwrap().id) == first {
                assert_eq!(m.referenced_by_milestone_index, 2);
                left = true;
            }
        }
        assert!(left);
    });
}
