//! A stream's subscription to the store's event feed (`ledger_store::events`): the events of
//! the kinds it wants, in commit order, in a bounded buffer of its own. The store hands an
//! event over with its lock held, so the hand-over never waits: when the buffer is full the
//! subscription marks itself overflowed and takes nothing more, and the stream that owns it
//! is dropped (`streams.rs`). One slow extension costs the node nothing but that stream.
//!
//! Subscribe before reading what is stored, and a stream that starts in the past misses
//! nothing between the two (`range.rs` skips what the reads already sent).

use ledger_store::events::{StoreEvent, SubscriptionId};
use ledger_store::Store;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio::sync::Notify;

/// Which events a stream wants; the others never enter its buffer.
#[derive(Clone, Copy, Default)]
pub struct Kinds {
    pub blocks: bool,
    pub milestones: bool,
    pub tips: bool,
}

impl Kinds {
    pub const MILESTONES: Kinds = Kinds { blocks: false, milestones: true, tips: false };
    pub const BLOCKS_AND_MILESTONES: Kinds = Kinds { blocks: true, milestones: true, tips: false };
    pub const TIPS: Kinds = Kinds { blocks: false, milestones: false, tips: true };

    fn wants(&self, event: &StoreEvent) -> bool {
        match event {
            StoreEvent::BlocksStored(_) => self.blocks,
            StoreEvent::MilestoneCommitted(_) => self.milestones,
            StoreEvent::TipsChanged(_) => self.tips,
        }
    }
}

/// Set once, when the buffer was full: from then on the stream is incomplete.
#[derive(Default)]
pub struct Overflow {
    happened: AtomicBool,
    notify: Notify,
}

impl Overflow {
    pub fn happened(&self) -> bool {
        self.happened.load(Ordering::Acquire)
    }

    /// Resolves once the buffer has overflowed (at once if it already has).
    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            if self.happened() {
                return;
            }
            notified.await;
        }
    }

    fn mark(&self) {
        self.happened.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }
}

pub struct Subscription {
    store: Arc<Store>,
    id: SubscriptionId,
    events: mpsc::Receiver<Arc<StoreEvent>>,
    overflow: Arc<Overflow>,
    capacity: usize,
}

impl Subscription {
    /// Every later event of `kinds`, up to `capacity` waiting.
    pub fn new(store: &Arc<Store>, kinds: Kinds, capacity: usize) -> Subscription {
        let capacity = capacity.max(1);
        let (sender, events) = mpsc::channel(capacity);
        let overflow = Arc::new(Overflow::default());
        let mark = overflow.clone();
        let id = store.subscribe_events(Box::new(move |event| {
            if !kinds.wants(event) || mark.happened() {
                return;
            }
            match sender.try_send(event.clone()) {
                Ok(()) => {}
                Err(TrySendError::Full(_)) => mark.mark(),
                // The stream has ended; the subscription ends when it drops.
                Err(TrySendError::Closed(_)) => {}
            }
        }));
        Subscription { store: store.clone(), id, events, overflow, capacity }
    }

    pub fn overflow(&self) -> &Arc<Overflow> {
        &self.overflow
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The next event; None once the buffer has overflowed.
    pub async fn next(&mut self) -> Option<Arc<StoreEvent>> {
        if self.overflow.happened() {
            return None;
        }
        tokio::select! {
            biased;
            _ = self.overflow.wait() => None,
            // The sender lives in the store's feed until `Drop` below: never None here.
            event = self.events.recv() => event,
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.store.unsubscribe_events(self.id);
    }
}
