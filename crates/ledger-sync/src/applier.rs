//! The applier: a thread that applies the milestones the intake queued (`queue.rs`), one
//! after the other from the confirmed index on, while the intake's thread goes on storing
//! the blocks that come next. A milestone's white flag and commit were a third of a warp
//! sync's intake thread, which was the sync's limit (issue 23, docs/performance.md); the
//! store already takes blocks and milestones from several threads at once (its HTTP
//! intake and its gossip intake have always run side by side).
//!
//! A queued milestone got its verdict when it was queued (it carries the required
//! signatures); what the store answers here is the node's affair: a fork halts the node
//! (`milestones.rs`), anything else is logged, and warp sync asks for the milestone again.
//! Once stored, it becomes a `Solid` event, peers hear the new index, and the blocks held
//! for it go into the store in rounds (`rounds.rs`), here.

use crate::sync_store::{lock, SyncStore};
use ledger_core::validate::BlockOrigin;
use ledger_gossip::{Intake, StoreEvent};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::thread::JoinHandle;

/// The applier thread of one `SyncStore` (`GossipSync` starts one; so may a test).
/// Dropping it stops the thread.
pub struct Applier {
    intake: Arc<SyncStore>,
    /// None once joined.
    thread: Option<JoinHandle<()>>,
}

impl Applier {
    /// Start the thread and route the intake's milestones to it.
    pub fn start(intake: Arc<SyncStore>) -> std::io::Result<Applier> {
        let (wake, woken) = channel::<()>();
        let applying = intake.clone();
        let thread = std::thread::Builder::new().name("ledger-gossip-milestones".into()).spawn(
            move || {
                // Ends when the intake drops the sending end (`detach_applier`).
                while woken.recv().is_ok() {
                    while woken.try_recv().is_ok() {}
                    applying.apply_queued_milestones();
                }
            },
        )?;
        intake.attach_applier(wake);
        Ok(Applier { intake, thread: Some(thread) })
    }

    /// Route milestones back to the intake's thread and wait for the one being applied.
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for Applier {
    fn drop(&mut self) {
        self.intake.detach_applier();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl SyncStore {
    /// Apply the queued milestones that continue the confirmed index, until the next one is
    /// not there (or the node halted on a fork, or the applier was detached). `pending` is
    /// not held while the store applies one: the intake's blocks go in meanwhile.
    fn apply_queued_milestones(&self) {
        let mut pending = lock(&self.pending);
        while self.halted().is_none() && self.applier_attached() {
            let confirmed = self.confirmed_index();
            pending.milestones.drop_through(confirmed);
            let index = confirmed + 1;
            let Some((id, bytes)) = pending.milestones.take_for_applying(index) else { return };
            drop(pending);
            let result = self.store.submit_blocks_from(&[&bytes], BlockOrigin::Peer).pop();
            pending = lock(&self.pending);
            pending.milestones.applied();
            let released = match result {
                Some(Ok(submitted)) => {
                    pending.held_milestones.remove(&index);
                    if submitted.stored {
                        self.saw_milestone(index);
                        self.emit(StoreEvent::Solid { id, bytes });
                    }
                    self.released_by(&id, &mut pending)
                }
                Some(Err(e)) => {
                    if let Intake::Invalid(reason) | Intake::Failed(reason) =
                        self.refused(e, id, bytes, Some(index), &mut pending)
                    {
                        eprintln!("ledger-node gossip: milestone {index} ({id}) refused: {reason}");
                    }
                    Vec::new()
                }
                None => Vec::new(),
            };
            pending = self.store_ready(released, pending, &mut []);
            self.sync_changed();
        }
    }
}
