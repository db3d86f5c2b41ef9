//! Received blocks on their way into the store (gossip.md §6): collected from every peer
//! into batches and submitted on the runtime's blocking pool, one batch at a time — while a
//! batch is in the store, the next one fills up, so a busy node writes bigger batches
//! (the store scores their proofs of work together and writes each batch atomically).
//! Blocks the store already holds are answered without validation.

use crate::packets::BlockId;
use crate::store::{GossipStore, Intake, ReceivedBlock};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Blocks per submission; the store's bit-sliced proof-of-work scorer takes 128 at once.
pub const MAX_BATCH: usize = 256;

/// How long a batch that is not full waits for the blocks right behind its first one, at
/// the lowest and the highest arrival rates. Peers send blocks one message at a time; each
/// batch costs a hand-off to a blocking thread, the store lock, a RocksDB write and a
/// verdict round, and written alone a block spent more on those than on itself. The wait
/// grows with the rate (`window_for`): a quiet node forwards a block a millisecond after
/// it arrives, a busy one gathers about ten a batch and pays those costs once for them.
pub const MIN_WINDOW: Duration = Duration::from_millis(1);
pub const MAX_WINDOW: Duration = Duration::from_millis(10);

/// Blocks found already waiting that make a batch start at once: the intake is behind (a
/// warp sync's answers come faster than it stores them), the batch is big enough to share
/// its costs, and a wait would only leave the store idle while more pile up.
pub const BACKLOG: usize = MAX_BATCH / 4;

/// Blocks a second from which a batch waits `MAX_WINDOW`; below it the wait falls in
/// proportion, down to `MIN_WINDOW`.
pub const FULL_WINDOW_RATE: f64 = 1000.0;

/// The wait of the next batch at `rate` blocks a second.
pub fn window_for(rate: f64) -> Duration {
    let share = (rate / FULL_WINDOW_RATE).clamp(0.0, 1.0);
    let share = if share.is_nan() { 0.0 } else { share };
    MAX_WINDOW.mul_f64(share).max(MIN_WINDOW)
}

/// Blocks a second arriving at the intake, from one batch's start to the next: the
/// batch's blocks over that time, averaged with the earlier batches' rates (each new one
/// weighs a quarter), so that one burst or one pause does not swing the wait.
#[derive(Debug)]
pub struct ArrivalRate {
    per_second: f64,
    last_start: Option<Instant>,
}

impl ArrivalRate {
    pub fn new() -> ArrivalRate {
        ArrivalRate { per_second: 0.0, last_start: None }
    }

    /// A batch that started at `start`; `blocks` is the size of the batch before it.
    pub fn batch_started(&mut self, start: Instant, blocks: usize) {
        if let Some(last) = self.last_start {
            let seconds = start.saturating_duration_since(last).as_secs_f64().max(1e-6);
            self.per_second += (blocks as f64 / seconds - self.per_second) / 4.0;
        }
        self.last_start = Some(start);
    }

    pub fn per_second(&self) -> f64 {
        self.per_second
    }
}

impl Default for ArrivalRate {
    fn default() -> ArrivalRate {
        ArrivalRate::new()
    }
}

pub type Verdicts = Vec<(BlockId, Intake)>;

pub async fn run<S: GossipStore>(
    store: Arc<S>,
    mut blocks: mpsc::UnboundedReceiver<ReceivedBlock>,
    verdicts: mpsc::UnboundedSender<Verdicts>,
) {
    let mut rate = ArrivalRate::new();
    let mut previous_batch = 0;
    while let Some(first) = blocks.recv().await {
        rate.batch_started(Instant::now(), previous_batch);
        let mut batch = vec![first];
        take_waiting(&mut batch, &mut blocks);
        if batch.len() < BACKLOG {
            tokio::time::sleep(window_for(rate.per_second())).await;
            take_waiting(&mut batch, &mut blocks);
        }
        previous_batch = batch.len();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_grows_with_the_rate_between_its_bounds() {
        assert_eq!(window_for(0.0), MIN_WINDOW);
        assert_eq!(window_for(50.0), MIN_WINDOW);
        assert_eq!(window_for(300.0), Duration::from_millis(3));
        assert_eq!(window_for(FULL_WINDOW_RATE), MAX_WINDOW);
        assert_eq!(window_for(1e9), MAX_WINDOW);
        assert_eq!(window_for(f64::NAN), MIN_WINDOW);
    }

    #[test]
    fn the_rate_follows_batches_and_their_spacing() {
        let start = Instant::now();
        let mut rate = ArrivalRate::new();
        rate.batch_started(start, 0);
        assert_eq!(rate.per_second(), 0.0, "one batch says nothing about the rate");
        // Batches of 10 blocks, 10 ms apart: 1,000 blocks a second, approached by quarters.
        for i in 1..=40 {
            rate.batch_started(start + Duration::from_millis(10 * i), 10);
        }
        assert!((rate.per_second() - 1000.0).abs() < 1.0, "{}", rate.per_second());
        // A pause of ten seconds then one block: the rate falls by a quarter, not to zero.
        rate.batch_started(start + Duration::from_millis(10_400), 1);
        assert!((rate.per_second() - 750.0).abs() < 1.0, "{}", rate.per_second());
    }
}
