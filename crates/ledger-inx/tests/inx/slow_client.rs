//! A client that stops reading: the node goes on (blocks are stored, milestones issued, other
//! streams served), and the stream whose buffer overflows is dropped with a log event; its
//! client gets what was sent before, then RESOURCE_EXHAUSTED.

use crate::common::*;
use ledger_inx::proto::{MilestoneRangeRequest, NoParams};
use ledger_inx::InxEvent;
use std::time::{Duration, Instant};
use tonic::Code;

fn dropped(h: &Harness, rpc: &str) -> bool {
    h.events().iter().any(|e| matches!(e, InxEvent::StreamDropped { rpc: r, .. } if *r == rpc))
}

fn wait_for(what: impl Fn() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if what() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn milestones_go_on_while_a_ledger_update_client_does_not_read() {
    // Room for 64 milestones waiting: the reading extension keeps up on a busy machine, the
    // stuck one fills it after about 130 (its windows, its channel, then its buffer).
    let h = Harness::with(Options { stream_buffer: 64, ..Options::default() });
    let slow = h.slow_client();
    let mut fast = h.client();
    let range = MilestoneRangeRequest { start_milestone_index: 0, end_milestone_index: 0 };
    let mut stuck = h.run(slow.clone().listen_to_ledger_updates(range)).unwrap().into_inner();
    // Another extension that reads everything, on its own connection.
    let mut reader = h.run(fast.listen_to_ledger_updates(range)).unwrap().into_inner();
    // Milestones 2 to 302: a BEGIN and an END each.
    let counted = h.rt.spawn(async move {
        let mut markers = 0;
        while markers < 2 * 301 {
            match reader.message().await {
                Ok(Some(_)) => markers += 1,
                other => panic!("after {markers} markers: {other:?}"),
            }
        }
        markers
    });
    let started = Instant::now();
    for _ in 0..300 {
        h.store.issue_milestone(None).unwrap();
    }
    // The node was never held up by the stuck client.
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(h.store.status().ledger_index, 301);
    assert!(
        wait_for(|| dropped(&h, "ListenToLedgerUpdates")),
        "the stuck stream is dropped: {:?}",
        h.events()
    );
    // The stuck client reads what was sent before, then the stream's end.
    let end = h.run(async {
        loop {
            match next(&mut stuck).await {
                Ok(Some(_)) => continue,
                Ok(None) => panic!("the stream must end with an error"),
                Err(status) => break status,
            }
        }
    });
    assert_eq!(end.code(), Code::ResourceExhausted);
    // The reading extension gets every batch.
    h.store.issue_milestone(None).unwrap();
    let markers = h.run(async { tokio::time::timeout(Duration::from_secs(10), counted).await });
    assert_eq!(markers.expect("within 10 s").unwrap(), 2 * 301);
}

#[test]
fn blocks_are_stored_while_a_block_client_does_not_read() {
    let h = Harness::with(Options { stream_buffer: 4, ..Options::default() });
    let slow = h.slow_client();
    let mut stuck = h.run(slow.clone().listen_to_blocks(NoParams {})).unwrap().into_inner();
    let started = Instant::now();
    // More blocks than the stream can park: its buffer (4 events of one block each), the
    // outlet's 64 messages and what HTTP/2 takes before the client's 1 KiB window stops it.
    for k in 0..150u32 {
        let bytes = block_bytes(&h.store, tagged(b"big", vec![(k % 251) as u8; 20_000]));
        assert!(h.store.submit_block(&bytes).unwrap().stored);
        if k % 10 == 9 {
            h.store.issue_milestone(None).unwrap();
        }
    }
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(wait_for(|| dropped(&h, "ListenToBlocks")), "{:?}", h.events());
    let end = h.run(async {
        loop {
            match next(&mut stuck).await {
                Ok(Some(_)) => continue,
                Ok(None) => panic!("the stream must end with an error"),
                Err(status) => break status,
            }
        }
    });
    assert_eq!(end.code(), Code::ResourceExhausted);
    // The server still serves the same client on a new stream.
    let mut fresh = h.run(slow.clone().listen_to_blocks(NoParams {})).unwrap().into_inner();
    let id =
        h.store.submit_block(&block_bytes(&h.store, tagged(b"small", vec![]))).unwrap().block_id;
    let b = h.run(next(&mut fresh)).unwrap().unwrap();
    assert_eq!(b.block_id.unwrap().id, id.to_vec());
}

#[test]
fn stopping_the_node_cancels_open_streams() {
    let mut h = Harness::new();
    let mut client = h.client();
    let mut stream = h.run(client.listen_to_blocks(NoParams {})).unwrap().into_inner();
    h.stop();
    let end = h.run(async {
        loop {
            match tokio::time::timeout(Duration::from_secs(10), stream.message()).await.unwrap() {
                Ok(Some(_)) => continue,
                Ok(None) => return None,
                Err(status) => return Some(status.code()),
            }
        }
    });
    assert!(
        matches!(end, Some(Code::Cancelled) | Some(Code::Unavailable) | Some(Code::Unknown)),
        "{end:?}"
    );
}
