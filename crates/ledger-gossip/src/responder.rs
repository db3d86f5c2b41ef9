//! Answers to peers' requests (gossip.md §6): a block request gets the stored block, a
//! milestone request the block carrying that milestone; what the node does not have gets
//! no answer at all (the protocol has no "not found"). Lookups run in batches on the
//! blocking pool; the replies join the asking peer's send queue.
//!
//! The queue of lookups is bounded: when peers ask faster than the store answers, further
//! requests are dropped, and the askers ask again after their retry interval.

use crate::packets::{to_frame, BlockId, BlockPacket};
use crate::session::Outbox;
use crate::store::GossipStore;
use bytes::Bytes;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Lookups waiting for the store, over all peers.
pub const QUEUE: usize = 4096;
const MAX_BATCH: usize = 128;

#[derive(Clone, Copy, Debug)]
pub enum Lookup {
    Block(BlockId),
    /// A concrete index: "latest" (0) is resolved by the service first.
    Milestone(u32),
}

pub struct Job {
    pub lookup: Lookup,
    pub reply_to: Outbox,
}

pub async fn run<S: GossipStore>(store: Arc<S>, mut jobs: mpsc::Receiver<Job>) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let store = store.clone();
        let answered = tokio::task::spawn_blocking(move || {
            batch
                .into_iter()
                .filter_map(|job| {
                    let bytes = match job.lookup {
                        Lookup::Block(id) => store.block_bytes(&id),
                        Lookup::Milestone(index) => store.milestone_block(index),
                    }?;
                    // Stored blocks are at most 32768 bytes; anything else cannot be sent.
                    let packet = BlockPacket::new(bytes).ok()?;
                    Some((job.reply_to, Bytes::from(to_frame(&packet))))
                })
                .collect::<Vec<_>>()
        })
        .await;
        for (outbox, frame) in answered.unwrap_or_default() {
            outbox.send(frame);
        }
    }
}
