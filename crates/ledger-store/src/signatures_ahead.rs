//! Transaction signatures checked ahead of the white flag, on a thread of their own.
//!
//! Ed25519 is most of what confirming a transfer costs, and a received milestone is
//! confirmed on the thread that takes blocks in: while it verifies, intake waits (a
//! follower's profile had one thread busy and the other core mostly idle). A signature
//! verifies or not whatever the ledger holds, so every transaction the intake stores is
//! handed to this thread, which checks it while the block waits for its milestone. The
//! white flag takes the verdict by transaction id: the id hashes the whole payload,
//! signatures included, so a verdict is about exactly the bytes being confirmed.
//!
//! Nothing waits for this thread, and it yields to every other (nice 19, as the miner). A
//! full queue drops the job; a verdict not there yet
//! means the white flag checks the transaction itself, as it always did, and leaves a mark
//! that makes the thread skip the job when it gets there: a thread that fell behind
//! (a warp sync confirms faster than one core verifies) catches up with the milestones
//! instead of checking what was already confirmed. Verdicts and marks the white flag never
//! takes (a block no milestone references) are dropped all at once when there are too
//! many. Only a positive verdict changes anything (`Prechecked`).

use ledger_core::model::{Id32, TransactionPayload};
use ledger_core::validate::Prechecked;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, TryLockError};
use std::thread::JoinHandle;

/// Transactions waiting for the thread at most (about a kilobyte each).
const MAX_QUEUED: usize = 4_096;

/// Verdicts and marks kept at most; past it they are all dropped (they cost the white
/// flag nothing but a check of its own, the thread nothing but a check it could skip).
const MAX_VERDICTS: usize = 65_536;

type Job = (Id32, Box<TransactionPayload>);
type Verdicts = Arc<Mutex<HashMap<Id32, Entry>>>;

/// What the map holds for a transaction.
#[derive(Clone)]
enum Entry {
    /// Checked by the thread.
    Checked(Prechecked),
    /// Confirmed before the thread got to it: the thread skips it.
    Settled,
}

pub struct SignaturesAhead {
    jobs: Option<SyncSender<Job>>,
    verdicts: Verdicts,
    worker: Option<JoinHandle<()>>,
    closing: Arc<AtomicBool>,
}

impl SignaturesAhead {
    /// Start the thread (if the system refuses one, the white flag checks everything
    /// itself).
    pub fn start() -> SignaturesAhead {
        let (tx, rx) = sync_channel(MAX_QUEUED);
        let verdicts: Verdicts = Arc::default();
        let closing: Arc<AtomicBool> = Arc::default();
        let (shared, stop) = (verdicts.clone(), closing.clone());
        let worker = std::thread::Builder::new()
            .name("ledger-signatures".into())
            .spawn(move || check_until_closed(rx, shared, stop))
            .ok();
        SignaturesAhead { jobs: worker.is_some().then_some(tx), verdicts, worker, closing }
    }

    /// Queue a stored transaction for checking; never blocks.
    pub fn submit(&self, transaction_id: Id32, tx: Box<TransactionPayload>) {
        let Some(jobs) = &self.jobs else { return };
        // Full: the white flag checks this one itself. Disconnected: only while dropping.
        let _ = jobs.try_send((transaction_id, tx));
    }

    /// The transaction's essence hash and signature verdict: checked ahead when that is
    /// done, here otherwise. `Use::Take` when the milestone commits (the verdict is not
    /// needed again), `Use::Keep` when its roots are only computed.
    pub fn prechecked(
        &self,
        transaction_id: &Id32,
        tx: &TransactionPayload,
        mode: Use,
    ) -> Prechecked {
        // Never wait for the thread, which runs at the lowest priority and may be holding
        // the lock while it waits for a core: a busy map is a miss.
        let ahead = match self.verdicts.try_lock() {
            Ok(mut verdicts) => taken(&mut verdicts, transaction_id, mode),
            Err(TryLockError::Poisoned(poisoned)) => {
                taken(&mut poisoned.into_inner(), transaction_id, mode)
            }
            Err(TryLockError::WouldBlock) => None,
        };
        ahead.unwrap_or_else(|| Prechecked::of(tx))
    }
}

/// The verdict on `id` if the thread has one; a commit that finds none marks the
/// transaction settled, so that the thread does not check it after the fact.
fn taken(verdicts: &mut HashMap<Id32, Entry>, id: &Id32, mode: Use) -> Option<Prechecked> {
    match mode {
        Use::Take => match verdicts.remove(id) {
            Some(Entry::Checked(pre)) => Some(pre),
            _ => {
                verdicts.insert(*id, Entry::Settled);
                None
            }
        },
        Use::Keep => match verdicts.get(id) {
            Some(Entry::Checked(pre)) => Some(pre.clone()),
            _ => None,
        },
    }
}

/// Whether the white flag that reads a verdict leaves it for a later one.
#[derive(Clone, Copy)]
pub enum Use {
    Take,
    Keep,
}

impl Drop for SignaturesAhead {
    fn drop(&mut self) {
        // The thread ends after the job in hand: the jobs still queued are not needed.
        self.closing.store(true, Ordering::Relaxed);
        self.jobs.take();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

fn check_until_closed(jobs: Receiver<Job>, verdicts: Verdicts, closing: Arc<AtomicBool>) {
    // Worth it only on a core that would be idle: under load the white flag checks the
    // transactions this thread has not reached, on every core, as before.
    ledger_core::priority::lower_this_thread();
    while let Ok((transaction_id, tx)) = jobs.recv() {
        if closing.load(Ordering::Relaxed) {
            return;
        }
        if matches!(lock(&verdicts).remove(&transaction_id), Some(Entry::Settled)) {
            continue;
        }
        let pre = Entry::Checked(Prechecked::of(&tx));
        // As short as the lock can be held: a full map is swapped out and freed after it.
        let _dropped = {
            let mut verdicts = lock(&verdicts);
            let full = verdicts.len() >= MAX_VERDICTS;
            let dropped = full.then(|| std::mem::take(&mut *verdicts));
            // Settled while it was being checked: nobody will take the verdict.
            if verdicts.remove(&transaction_id).is_none() {
                verdicts.insert(transaction_id, pre);
            }
            dropped
        };
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A map of verdicts cannot be left half-changed by a panic elsewhere.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_core::crypto;
    use ledger_core::ids;
    use ledger_core::model::*;
    use std::time::{Duration, Instant};

    /// A transaction spending one made-up output, signed with `seed`.
    fn signed(seed: u8) -> TransactionPayload {
        let essence = RegularEssence {
            network_id: 1,
            inputs: vec![Input::Utxo { transaction_id: [seed; 32], output_index: 0 }],
            inputs_commitment: [0; 32],
            outputs: vec![],
            payload: None,
        };
        let hash = ids::essence_hash(&essence);
        let seed = [seed; 32];
        let signature = Ed25519Signature {
            public_key: crypto::public_key(&seed),
            signature: crypto::sign(&seed, &hash),
        };
        TransactionPayload { essence, unlocks: vec![Unlock::Signature(signature)] }
    }

    /// Submit `tx` and wait until its verdict is there (the thread's pace is not ours).
    fn checked_ahead(ahead: &SignaturesAhead, tx: &TransactionPayload) -> Id32 {
        let id = ids::transaction_id(tx);
        ahead.submit(id, Box::new(tx.clone()));
        let deadline = Instant::now() + Duration::from_secs(30);
        while !lock(&ahead.verdicts).contains_key(&id) {
            assert!(Instant::now() < deadline, "no verdict after 30 s");
            std::thread::sleep(Duration::from_millis(1));
        }
        id
    }

    #[test]
    fn a_verdict_checked_ahead_is_kept_for_roots_and_taken_once_by_the_commit() {
        let ahead = SignaturesAhead::start();
        let tx = signed(1);
        let id = checked_ahead(&ahead, &tx);
        let kept = ahead.prechecked(&id, &tx, Use::Keep);
        assert!(kept.signatures_verified);
        assert_eq!(kept.essence_hash, ids::essence_hash(&tx.essence));
        assert!(lock(&ahead.verdicts).contains_key(&id), "computing roots leaves it");
        assert!(ahead.prechecked(&id, &tx, Use::Take).signatures_verified);
        assert!(!lock(&ahead.verdicts).contains_key(&id), "the commit takes it");
        // Not there any more: checked on the spot, with the same answer.
        assert!(ahead.prechecked(&id, &tx, Use::Take).signatures_verified);
    }

    #[test]
    fn a_transaction_confirmed_before_the_thread_reached_it_is_skipped() {
        let ahead = SignaturesAhead::start();
        let tx = signed(5);
        let id = ids::transaction_id(&tx);
        assert!(ahead.prechecked(&id, &tx, Use::Take).signatures_verified, "checked on the spot");
        assert!(matches!(lock(&ahead.verdicts).get(&id), Some(Entry::Settled)));
        ahead.submit(id, Box::new(tx.clone()));
        // A later job proves the thread has passed the first one: jobs go in order.
        let later = checked_ahead(&ahead, &signed(6));
        let verdicts = lock(&ahead.verdicts);
        assert!(!verdicts.contains_key(&id), "skipped, and the mark removed");
        assert!(matches!(verdicts.get(&later), Some(Entry::Checked(_))));
    }

    #[test]
    fn a_bad_signature_checked_ahead_is_reported_unverified() {
        let ahead = SignaturesAhead::start();
        let mut tx = signed(2);
        let Unlock::Signature(s) = &mut tx.unlocks[0] else { unreachable!() };
        s.signature[10] ^= 1;
        let id = checked_ahead(&ahead, &tx);
        let pre = ahead.prechecked(&id, &tx, Use::Take);
        assert!(!pre.signatures_verified, "the unlock step then verifies and names reason 5");
        assert_eq!(pre.essence_hash, ids::essence_hash(&tx.essence));
    }

    #[test]
    fn a_transaction_not_checked_yet_is_checked_on_the_spot() {
        let ahead = SignaturesAhead::start();
        let tx = signed(3);
        let pre = ahead.prechecked(&ids::transaction_id(&tx), &tx, Use::Take);
        assert!(pre.signatures_verified);
    }

    #[test]
    fn too_many_verdicts_are_dropped_together() {
        let ahead = SignaturesAhead::start();
        let tx = signed(4);
        lock(&ahead.verdicts).extend((0..MAX_VERDICTS as u32).map(|i| {
            let pre = Prechecked::unverified(&tx);
            (ledger_core::hash::blake2b256(&i.to_le_bytes()), Entry::Checked(pre))
        }));
        let id = checked_ahead(&ahead, &tx);
        assert_eq!(lock(&ahead.verdicts).len(), 1, "{id:?} alone after the clear");
    }
}
