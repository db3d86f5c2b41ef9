//! The background pruning (Hornet's `HandleNewConfirmedMilestoneEvent`): a thread of its
//! own, woken after every confirmed milestone, that decides by the configured rules whether
//! to prune and runs the pruning there — never on the caller's thread, never on Node's
//! event loop. Milestones confirmed while it works are folded into the next wake-up.
//!
//! The thread holds the store only while it works (a `Weak` otherwise), so that dropping
//! the last handle closes the database; `stop_pruning` stops it between two steps and waits
//! for it, which the binding does before it closes the store.

use super::{PruneReport, PruningConfig};
use crate::store::{HistoryTask, Store};
use ledger_core::Code;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::thread::JoinHandle;
use std::time::Instant;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Plain values: a panic while one was held leaves nothing half-written.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The store's pruning state.
#[derive(Default)]
pub(crate) struct Pruning {
    config: Mutex<PruningConfig>,
    last_run: Mutex<Option<PruneReport>>,
    /// The last failure of a background run: its code and text.
    last_error: Mutex<Option<(String, String)>>,
    /// When pruning by size last ran (Hornet's `lastPruningBySizeTime`).
    last_size_run: Mutex<Option<Instant>>,
    runs: AtomicU64,
    pub(super) blocks_since_compaction: AtomicU64,
    pub(super) outputs_since_compaction: AtomicU64,
    /// False while a follower catches up: Hornet prunes only when synced.
    unsynced: AtomicBool,
    wake: Arc<Wake>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

#[derive(Default)]
struct Wake {
    state: Mutex<WakeState>,
    signal: Condvar,
}

#[derive(Default)]
struct WakeState {
    /// The newest confirmed milestone not yet looked at.
    confirmed: Option<u32>,
    stop: bool,
}

impl Wake {
    fn stopped(&self) -> bool {
        lock(&self.state).stop
    }

    /// The next confirmed index to look at; None once stopped.
    fn next(&self) -> Option<u32> {
        let mut state = lock(&self.state);
        loop {
            if state.stop {
                return None;
            }
            if let Some(index) = state.confirmed.take() {
                return Some(index);
            }
            state = self.signal.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Drop for Pruning {
    fn drop(&mut self) {
        // The thread may be the one dropping the store (it held the last handle): tell it
        // to end, never wait for it here.
        lock(&self.wake.state).stop = true;
        self.wake.signal.notify_all();
    }
}

impl Pruning {
    pub(crate) fn config(&self) -> PruningConfig {
        *lock(&self.config)
    }

    pub(super) fn stopping(&self) -> bool {
        self.wake.stopped()
    }
}

/// What the node reports about pruning (metrics, logs).
#[derive(Clone, Debug, Default)]
pub struct PruningStatus {
    /// A pruning run is in progress (background or REST).
    pub running: bool,
    /// Runs finished since the store was opened.
    pub runs: u64,
    pub last_run: Option<PruneReport>,
    /// The last background run that failed for another reason than "nothing to do yet":
    /// its error code and text.
    pub last_error: Option<(String, String)>,
}

impl Store {
    /// Start pruning in the background with `config`. Before its first milestone the thread
    /// finishes a run that a crash or a close stopped, also when neither rule is enabled
    /// (a REST run may have been stopped); then it waits for milestones, and prunes after
    /// them by the rules that are.
    pub fn start_pruning(self: &Arc<Self>, config: PruningConfig) {
        *lock(&self.pruning.config) = config;
        let mut thread = lock(&self.pruning.thread);
        if thread.is_some() {
            return;
        }
        let store = Arc::downgrade(self);
        let wake = self.pruning.wake.clone();
        *thread = Some(std::thread::spawn(move || work(store, wake)));
    }

    /// Stop the background pruning between two steps and wait for it.
    pub fn stop_pruning(&self) {
        lock(&self.pruning.wake.state).stop = true;
        self.pruning.wake.signal.notify_all();
        let thread = lock(&self.pruning.thread).take();
        if let Some(handle) = thread {
            // A panic of the pruning thread left only whole batches behind: nothing to undo.
            let _ = handle.join();
        }
    }

    /// Whether the node is synced (Hornet prunes only then); a coordinator always is.
    pub fn set_synced_for_pruning(&self, synced: bool) {
        self.pruning.unsynced.store(!synced, Relaxed);
    }

    /// What `set_synced_for_pruning` last said (true until anything says otherwise).
    pub fn synced_for_pruning(&self) -> bool {
        !self.pruning.unsynced.load(Relaxed)
    }

    pub fn pruning_status(&self) -> PruningStatus {
        PruningStatus {
            running: self.history_task() == Some(HistoryTask::Pruning),
            runs: self.pruning.runs.load(Relaxed),
            last_run: *lock(&self.pruning.last_run),
            last_error: lock(&self.pruning.last_error).clone(),
        }
    }

    /// Called when milestone `index` is confirmed: wakes the pruning thread (if any).
    pub(crate) fn milestone_confirmed_for_pruning(&self, index: u32) {
        let mut state = lock(&self.pruning.wake.state);
        state.confirmed = Some(index);
        self.pruning.wake.signal.notify_all();
    }

    pub(super) fn record_prune_run(&self, report: PruneReport) {
        *lock(&self.pruning.last_run) = Some(report);
        self.pruning.runs.fetch_add(1, Relaxed);
    }

    /// Hornet's rules after a confirmed milestone: by milestones, keep
    /// `maxMilestonesToKeep`; by size (at most once per cooldown), the size target when it
    /// reaches further; then one run, if either names a target.
    fn prune_after_milestone(&self, confirmed: u32) {
        if self.pruning.unsynced.load(Relaxed) {
            return;
        }
        let config = self.pruning.config();
        if !config.enabled() {
            return;
        }
        let mut target = 0;
        if let Some(keep) = config.max_milestones_to_keep {
            if confirmed > keep {
                target = confirmed - keep;
            }
        }
        let mut by_size = false;
        if let Some(rule) = config.size {
            let due = lock(&self.pruning.last_size_run).is_none_or(|t| t.elapsed() > rule.cooldown);
            if due {
                if let Ok(index) =
                    self.target_index_by_size(rule.target_bytes, rule.threshold_percentage)
                {
                    if target == 0 || target < index {
                        target = index;
                        by_size = true;
                    }
                }
            }
        }
        if target > 0 {
            let abort = || self.pruning.stopping();
            let result = match self.begin_history_task(HistoryTask::Pruning) {
                Some(_work) => self.prune_to(target, &abort),
                None => Err(super::busy()),
            };
            if let Err(e) = result {
                // Not yet possible is the normal answer between two runs (Hornet logs it
                // at debug level); anything else is kept for the operator.
                let expected = matches!(
                    e.code,
                    Code::NoPruningNeeded
                        | Code::NotEnoughHistory
                        | Code::HistoryMissing
                        | Code::HistoryTaskRunning
                        | Code::PruningAborted
                );
                if !expected {
                    *lock(&self.pruning.last_error) = Some((e.code.as_str().to_string(), e.detail));
                }
            }
        }
        if by_size {
            *lock(&self.pruning.last_size_run) = Some(Instant::now());
        }
    }
}

fn work(store: Weak<Store>, wake: Arc<Wake>) {
    if let Some(store) = store.upgrade() {
        let abort = || wake.stopped();
        if let Err(e) = store.finish_unfinished_pruning(&abort) {
            if e.code != Code::PruningAborted {
                *lock(&store.pruning.last_error) = Some((e.code.as_str().to_string(), e.detail));
            }
        }
    }
    while let Some(confirmed) = wake.next() {
        let Some(store) = store.upgrade() else { return };
        store.prune_after_milestone(confirmed);
    }
}
