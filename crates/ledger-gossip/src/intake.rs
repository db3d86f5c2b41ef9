//! Received blocks on their way into the store (gossip.md §6): collected from every peer
//! into batches and submitted on the runtime's blocking pool, one batch at a time — while a
//! batch is in the store, the next one fills up, so a busy node writes bigger batches
//! (the store scores their proofs of work together and writes each batch atomically).
//! Blocks the store already holds are answered without validation.

use crate::packets::BlockId;
use crate::store::{GossipStore, Intake, ReceivedBlock};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Blocks per submission; the store's bit-sliced proof-of-work scorer takes 128 at once.
pub const MAX_BATCH: usize = 256;

/// How long a batch that is not full waits for the blocks right behind its first one.
/// Peers send blocks one message at a time; without the wait a node receiving thousands a
/// second wrote most of them alone, each with its own hand-off to a blocking thread, store
/// lock, RocksDB write and verdict round, and spent more on waking threads than on blocks.
/// A millisecond (tokio's timer rounds it up to at most two) is small beside gossip's
/// latency budget and lets a few blocks share each of those.
pub const BATCH_WINDOW: Duration = Duration::from_millis(1);

pub type Verdicts = Vec<(BlockId, Intake)>;

pub async fn run<S: GossipStore>(
    store: Arc<S>,
    mut blocks: mpsc::UnboundedReceiver<ReceivedBlock>,
    verdicts: mpsc::UnboundedSender<Verdicts>,
) {
    while let Some(first) = blocks.recv().await {
        let mut batch = vec![first];
        take_waiting(&mut batch, &mut blocks);
        if batch.len() < MAX_BATCH {
            tokio::time::sleep(BATCH_WINDOW).await;
            take_waiting(&mut batch, &mut blocks);
        }
        let ids: Vec<BlockId> = batch.iter().map(|b| b.id).collect();
        let store = store.clone();
        let done = match tokio::task::spawn_blocking(move || submit(&*store, batch)).await {
            Ok(done) => done,
            // The store panicked inside the batch: every block of it gets a verdict all
            // the same, so none waits forever.
            Err(e) => ids
                .into_iter()
                .map(|id| (id, Intake::Failed(format!("the store failed: {e}"))))
                .collect(),
        };
        if verdicts.send(done).is_err() {
            return; // the service is gone
        }
    }
}

/// Add the blocks already waiting in the channel, up to a full batch.
fn take_waiting(
    batch: &mut Vec<ReceivedBlock>,
    blocks: &mut mpsc::UnboundedReceiver<ReceivedBlock>,
) {
    while batch.len() < MAX_BATCH {
        match blocks.try_recv() {
            Ok(block) => batch.push(block),
            Err(_) => break,
        }
    }
}

fn submit<S: GossipStore + ?Sized>(store: &S, batch: Vec<ReceivedBlock>) -> Verdicts {
    let mut verdicts: Vec<(BlockId, Option<Intake>)> = Vec::with_capacity(batch.len());
    let mut fresh = Vec::with_capacity(batch.len());
    for block in batch {
        if store.contains_block(&block.id) {
            verdicts.push((block.id, Some(Intake::AlreadyStored)));
        } else {
            verdicts.push((block.id, None));
            fresh.push(block);
        }
    }
    if !fresh.is_empty() {
        let mut results = store.submit_blocks(&fresh).into_iter();
        for (_, verdict) in verdicts.iter_mut().filter(|(_, v)| v.is_none()) {
            *verdict = Some(results.next().unwrap_or_else(|| {
                Intake::Failed("the store returned fewer verdicts than blocks".into())
            }));
        }
    }
    verdicts.into_iter().map(|(id, v)| (id, v.expect("every block has a verdict"))).collect()
}
