//! Asking again for the parents of held blocks (D46): gossip's request queue retries a
//! request for a while and then gives it up (gossip.md §6.1), but a held block may wait
//! longer than that. A small thread asks for every missing parent again at an interval
//! (`Limits::retry_interval`, once a second), and so also forgets the blocks held too long;
//! gossip's queue deduplicates and routes the requests. The same round announces a pruning
//! index that a pruning run moved between milestones. Warp sync (gossip.md §7) runs in
//! `ledger-gossip` itself.

use crate::sync_store::SyncStore;
use ledger_gossip::Gossip;
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub(crate) struct Maintenance {
    /// Dropped to stop the thread at once (it waits on the receiving end between rounds).
    stop: Sender<()>,
    thread: JoinHandle<()>,
}

impl Maintenance {
    pub fn start(
        gossip: Arc<Gossip>,
        intake: Arc<SyncStore>,
        interval: Duration,
    ) -> std::io::Result<Maintenance> {
        let (stop, stopped) = channel::<()>();
        let thread =
            std::thread::Builder::new().name("ledger-gossip-parents".into()).spawn(move || {
                loop {
                    match stopped.recv_timeout(interval) {
                        Err(RecvTimeoutError::Timeout) => {}
                        Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                    }
                    intake.announce_pruning();
                    let missing = intake.missing_parents();
                    if !missing.is_empty() && gossip.request_blocks(missing, None, false).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Maintenance { stop, thread })
    }

    /// Stop the thread and wait for it (at most one round of requests).
    pub fn stop(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}
