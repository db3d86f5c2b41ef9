//! A bounded pool of mining jobs (pow.md §6): mining never runs on the threads that serve
//! the event loop or storage, and never takes more than a fixed share of them.
//!
//! `jobs` slot threads of the pool's own each take one job at a time from a FIFO queue of
//! at most `queue_size` waiting jobs and mine it with the job's worker threads
//! (`miner::mine`). A submission finds the queue full or the pool closed at once and is
//! refused; a job can be cancelled while it waits (it leaves the queue at once) or while it
//! runs (its workers stop within a batch). Every job gets exactly one outcome, delivered
//! to its `done` callback: on a slot thread, or on the thread that refused or cancelled it.
//!
//! Slot threads run at the lowest scheduling priority where the OS has one per thread
//! (Linux: nice 19, inherited by the miner's workers), so whenever the node's own threads
//! have work they get a core before mining does; idle cores still go to mining.
//!
//! Two things keep one client's flood from starving the others (issue 24):
//! * **Cheap jobs have their own lane.** A job whose target needs at most `QUICK_ZEROS`
//!   trailing zero trits (minPowScore × length ≤ 6,561: a few thousand hashes, well under
//!   a millisecond's work) is mined by one thread of normal priority with a queue
//!   of its own, never behind expensive jobs, and never starved by the low priority when a
//!   flood keeps the cores busy.
//! * **Each client has a share.** The last quarter of a lane's places (jobs + queue) goes
//!   only to clients that hold fewer than a quarter, and free slots take the clients'
//!   jobs in turn (round robin), not in the order a flood queued them.

use super::miner::{mine, MineResult};
use crate::error::{Code, Error};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::thread::JoinHandle;
use std::time::Instant;

pub struct PoolOptions {
    /// Jobs mined at the same time (slot threads); at least 1.
    pub jobs: usize,
    /// Jobs that may wait for a free slot; a submission beyond them is refused.
    pub queue_size: usize,
}

/// A block to mine: `block` is the complete serialized block (its last 8 bytes are the
/// nonce slot), mined with `threads` workers until its score reaches `min_pow_score`.
/// `client` names who asked (an HTTP client's address, an INX extension), for the shares;
/// jobs without a name (the library's callers, who bound their own work) have none.
pub struct MiningRequest {
    pub block: Vec<u8>,
    pub min_pow_score: u32,
    pub threads: usize,
    pub client: String,
}

/// Targets of at most this many trailing zero trits (3^8 = 6,561 hashes expected) are
/// mined in the quick lane.
pub const QUICK_ZEROS: u32 = 8;
/// Jobs the quick lane queues: each is done in well under a millisecond.
const QUICK_QUEUE: usize = 256;

#[derive(Debug)]
pub enum JobOutcome {
    Mined(MineResult),
    /// Cancelled by its handle or by closing the pool, waiting or running.
    Cancelled,
    /// Never queued: `pow-queue-full`, `pow-pool-closed` or `invalid-argument`.
    Refused(Error),
}

/// Called once with the job's outcome.
pub type Done = Box<dyn FnOnce(JobOutcome) + Send>;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoolStatus {
    pub jobs: usize,
    pub queue_size: usize,
    pub queued: usize,
    pub running: usize,
    /// Jobs that found their nonce, were cancelled, or were refused, since the pool started.
    pub mined: u64,
    pub cancelled: u64,
    pub refused: u64,
    /// Moving average of the time a mined job took, 0 before the first.
    pub mean_job_seconds: f64,
}

/// Cancels one job; dropping the handle does not.
pub struct JobHandle {
    id: u64,
    cancel: Arc<AtomicBool>,
    shared: Weak<Shared>,
}

impl JobHandle {
    /// Stop the job: a waiting job leaves the queue now (its outcome is delivered on this
    /// thread), a running one stops within a batch. Nothing happens to a finished job.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        let Some(shared) = self.shared.upgrade() else { return };
        let mut queue = shared.lock();
        let Some(at) = queue.waiting.iter().position(|job| job.id == self.id) else { return };
        let job = queue.waiting.remove(at).expect("the position was just found");
        queue.cancelled += 1;
        drop(queue);
        (job.done)(JobOutcome::Cancelled);
    }
}

pub struct MiningPool {
    main: Lane,
    quick: Lane,
}

/// Slot threads and their queue.
struct Lane {
    shared: Arc<Shared>,
    slots: Mutex<Vec<JoinHandle<()>>>,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a job is queued or the pool closes.
    work: Condvar,
    jobs: usize,
    queue_size: usize,
}

struct Job {
    id: u64,
    request: MiningRequest,
    cancel: Arc<AtomicBool>,
    done: Done,
}

/// A job being mined: its id, client and cancellation flag.
struct Running {
    id: u64,
    client: String,
    cancel: Arc<AtomicBool>,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Job>,
    running: Vec<Running>,
    /// The client whose job a slot took last.
    last_served: Option<String>,
    closed: bool,
    next_id: u64,
    mined: u64,
    cancelled: u64,
    refused: u64,
    mean_job_seconds: f64,
}

/// Weight of the newest job in the moving average of job times.
const AVERAGE_WEIGHT: f64 = 0.2;

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // The lock is never held across a callback or mining, only across queue edits that
        // cannot panic halfway, so a poisoned queue is still consistent.
        self.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Places (running and waiting) of the lane.
    fn places(&self) -> usize {
        self.jobs.saturating_add(self.queue_size)
    }

    /// The last places, kept for clients that hold fewer than this many (none in a lane of
    /// fewer than four places).
    fn reserve(&self) -> usize {
        self.places() / 4
    }
}

impl Queue {
    fn held_by(&self, client: &str) -> usize {
        self.waiting.iter().filter(|job| job.request.client == client).count()
            + self.running.iter().filter(|run| run.client == client).count()
    }

    /// The next job for a free slot, round robin over clients: the oldest job of a client
    /// that has nothing running and was not served last, else of one with nothing running,
    /// else the oldest.
    fn next_job(&mut self) -> Option<Job> {
        let busy = |client: &str| self.running.iter().any(|run| run.client == client);
        let last = self.last_served.as_deref();
        let pick = self
            .waiting
            .iter()
            .position(|job| !busy(&job.request.client) && Some(job.request.client.as_str()) != last)
            .or_else(|| self.waiting.iter().position(|job| !busy(&job.request.client)))
            .unwrap_or(0);
        let job = self.waiting.remove(pick)?;
        self.last_served = Some(job.request.client.clone());
        Some(job)
    }
}

impl MiningPool {
    pub fn new(options: PoolOptions) -> MiningPool {
        MiningPool {
            main: Lane::start("ledger-mining", options.jobs.max(1), options.queue_size, true),
            quick: Lane::start("ledger-mining-quick", 1, QUICK_QUEUE, false),
        }
    }

    /// Queue a job. `done` receives its outcome exactly once; when the job is refused
    /// (queue full, its client's share used up, pool closed, a block too short to hold a
    /// nonce) that happens before this returns.
    pub fn submit(&self, mut request: MiningRequest, done: Done) -> JobHandle {
        if super::required_zeros(request.min_pow_score, request.block.len()) <= QUICK_ZEROS {
            // Fewer hashes than starting a second thread would cost.
            request.threads = 1;
            return self.quick.submit(request, done);
        }
        self.main.submit(request, done)
    }

    /// The main lane's sizes and average; counts over both lanes.
    pub fn status(&self) -> PoolStatus {
        let (main, quick) = (self.main.status(), self.quick.status());
        PoolStatus {
            jobs: main.jobs,
            queue_size: main.queue_size,
            queued: main.queued + quick.queued,
            running: main.running + quick.running,
            mined: main.mined + quick.mined,
            cancelled: main.cancelled + quick.cancelled,
            refused: main.refused + quick.refused,
            mean_job_seconds: main.mean_job_seconds,
        }
    }

    /// Refuse new jobs, cancel every waiting and running one, and wait until the slot
    /// threads have stopped (a running job stops within a batch). Idempotent.
    pub fn close(&self) {
        self.main.close();
        self.quick.close();
    }
}

impl Lane {
    fn start(name: &str, jobs: usize, queue_size: usize, low_priority: bool) -> Lane {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            work: Condvar::new(),
            jobs,
            queue_size,
        });
        let slots = (0..jobs)
            .map(|k| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("{name}-{k}"))
                    .spawn(move || slot(&shared, low_priority))
                    .expect("the OS can start a mining thread")
            })
            .collect();
        Lane { shared, slots: Mutex::new(slots) }
    }

    fn submit(&self, request: MiningRequest, done: Done) -> JobHandle {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut queue = self.shared.lock();
        let id = queue.next_id;
        queue.next_id += 1;
        let handle = JobHandle { id, cancel: cancel.clone(), shared: Arc::downgrade(&self.shared) };
        let taken = queue.running.len() + queue.waiting.len();
        let places = self.shared.places();
        let reserve = self.shared.reserve();
        let refusal = if request.block.len() < 8 {
            Some(Error::new(Code::InvalidArgument, "", "a block has at least 8 bytes (its nonce)"))
        } else if queue.closed {
            Some(Error::new(Code::PowPoolClosed, "nonce", "the mining pool is closed"))
        } else if taken >= places {
            Some(Error::new(
                Code::PowQueueFull,
                "nonce",
                format!(
                    "{} blocks are waiting to be mined, the most this node queues",
                    queue.waiting.len()
                ),
            ))
        } else if reserve > 0
            && !request.client.is_empty()
            && taken + reserve >= places
            && queue.held_by(&request.client) >= reserve
        {
            Some(Error::new(
                Code::PowQueueFull,
                "nonce",
                format!(
                    "this client has {} blocks waiting to be mined; the last places are kept for others",
                    queue.held_by(&request.client)
                ),
            ))
        } else {
            None
        };
        match refusal {
            Some(error) => {
                queue.refused += 1;
                drop(queue);
                done(JobOutcome::Refused(error));
            }
            None => {
                queue.waiting.push_back(Job { id, request, cancel, done });
                drop(queue);
                self.shared.work.notify_one();
            }
        }
        handle
    }

    fn status(&self) -> PoolStatus {
        let queue = self.shared.lock();
        PoolStatus {
            jobs: self.shared.jobs,
            queue_size: self.shared.queue_size,
            queued: queue.waiting.len(),
            running: queue.running.len(),
            mined: queue.mined,
            cancelled: queue.cancelled,
            refused: queue.refused,
            mean_job_seconds: queue.mean_job_seconds,
        }
    }

    fn close(&self) {
        let mut queue = self.shared.lock();
        queue.closed = true;
        let waiting: Vec<Job> = queue.waiting.drain(..).collect();
        queue.cancelled += waiting.len() as u64;
        for run in &queue.running {
            run.cancel.store(true, Ordering::Relaxed);
        }
        drop(queue);
        self.shared.work.notify_all();
        for job in waiting {
            job.cancel.store(true, Ordering::Relaxed);
            (job.done)(JobOutcome::Cancelled);
        }
        let slots = std::mem::take(
            &mut *self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        for slot in slots {
            // A slot thread that panicked has nothing left to clean up.
            let _ = slot.join();
        }
    }
}

impl Drop for MiningPool {
    fn drop(&mut self) {
        self.close();
    }
}

/// One slot: take the next waiting job (`Queue::next_job`), mine it, deliver its outcome;
/// until closed.
fn slot(shared: &Shared, low_priority: bool) {
    if low_priority {
        crate::priority::lower_this_thread();
    }
    loop {
        let job = {
            let mut queue = shared.lock();
            loop {
                if queue.closed {
                    return;
                }
                if let Some(job) = queue.next_job() {
                    queue.running.push(Running {
                        id: job.id,
                        client: job.request.client.clone(),
                        cancel: job.cancel.clone(),
                    });
                    break job;
                }
                queue = shared.work.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        };
        let started = Instant::now();
        let found =
            mine(&job.request.block, job.request.min_pow_score, job.request.threads, &job.cancel);
        let mut queue = shared.lock();
        queue.running.retain(|run| run.id != job.id);
        let outcome = match found {
            Some(result) => {
                queue.mined += 1;
                let seconds = started.elapsed().as_secs_f64();
                queue.mean_job_seconds = match queue.mined {
                    1 => seconds,
                    _ => {
                        queue.mean_job_seconds + AVERAGE_WEIGHT * (seconds - queue.mean_job_seconds)
                    }
                };
                JobOutcome::Mined(result)
            }
            None => {
                queue.cancelled += 1;
                JobOutcome::Cancelled
            }
        };
        drop(queue);
        (job.done)(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// A block whose score can never be reached: it runs until cancelled.
    fn endless() -> MiningRequest {
        endless_for("")
    }

    fn endless_for(client: &str) -> MiningRequest {
        MiningRequest {
            block: vec![2u8; 300],
            min_pow_score: u32::MAX,
            threads: 1,
            client: client.into(),
        }
    }

    /// Quick lane: 5 zeros.
    fn easy(tag: u8) -> MiningRequest {
        MiningRequest { block: vec![tag; 120], min_pow_score: 1, threads: 1, client: String::new() }
    }

    /// Main lane (10 zeros, about 59,000 hashes), done within milliseconds.
    fn medium(client: &str) -> MiningRequest {
        MiningRequest {
            block: vec![3u8; 120],
            min_pow_score: 200,
            threads: 1,
            client: client.into(),
        }
    }

    fn reporter() -> (Done, mpsc::Receiver<JobOutcome>) {
        let (tx, rx) = mpsc::channel();
        (Box::new(move |outcome| tx.send(outcome).expect("the test waits")), rx)
    }

    fn wait_until(pool: &MiningPool, what: impl Fn(&PoolStatus) -> bool) {
        for _ in 0..5000 {
            if what(&pool.status()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("pool never reached the state: {:?}", pool.status());
    }

    #[test]
    fn mines_every_job_with_a_nonce_that_meets_the_score() {
        let pool = MiningPool::new(PoolOptions { jobs: 2, queue_size: 8 });
        let receivers: Vec<_> = (0..6u8)
            .map(|k| {
                let (done, rx) = reporter();
                pool.submit(easy(k), done);
                (k, rx)
            })
            .collect();
        for (k, rx) in receivers {
            let JobOutcome::Mined(found) = rx.recv().unwrap() else {
                panic!("job {k} was not mined")
            };
            let mut block = vec![k; 120];
            block[112..].copy_from_slice(&found.nonce.to_le_bytes());
            assert!(crate::pow::meets_min_score(&block, 1));
        }
        let status = pool.status();
        assert_eq!((status.mined, status.queued, status.running), (6, 0, 0));
    }

    #[test]
    fn a_full_queue_refuses_at_once() {
        let pool = MiningPool::new(PoolOptions { jobs: 1, queue_size: 1 });
        let (first, _first_rx) = reporter();
        let running = pool.submit(endless(), first);
        wait_until(&pool, |s| s.running == 1);
        let (second, _second_rx) = reporter();
        let waiting = pool.submit(endless(), second);
        let (third, third_rx) = reporter();
        pool.submit(endless(), third);
        match third_rx.try_recv() {
            Ok(JobOutcome::Refused(e)) => assert_eq!(e.code, Code::PowQueueFull),
            other => panic!("expected a refusal before submit returned, got {other:?}"),
        }
        assert_eq!(pool.status().refused, 1);
        waiting.cancel();
        running.cancel();
    }

    #[test]
    fn a_waiting_job_leaves_the_queue_when_cancelled() {
        let pool = MiningPool::new(PoolOptions { jobs: 1, queue_size: 4 });
        let (first, first_rx) = reporter();
        let running = pool.submit(endless(), first);
        let (second, second_rx) = reporter();
        let waiting = pool.submit(endless(), second);
        wait_until(&pool, |s| s.running == 1 && s.queued == 1);
        waiting.cancel();
        assert!(
            matches!(second_rx.try_recv(), Ok(JobOutcome::Cancelled)),
            "delivered on the cancelling thread"
        );
        assert_eq!(pool.status().queued, 0);
        running.cancel();
        assert!(matches!(first_rx.recv().unwrap(), JobOutcome::Cancelled));
        wait_until(&pool, |s| s.running == 0 && s.cancelled == 2);
    }

    #[test]
    fn closing_cancels_everything_and_refuses_new_jobs() {
        let pool = MiningPool::new(PoolOptions { jobs: 1, queue_size: 4 });
        let receivers: Vec<_> = (0..3)
            .map(|_| {
                let (done, rx) = reporter();
                pool.submit(endless(), done);
                rx
            })
            .collect();
        wait_until(&pool, |s| s.running == 1);
        pool.close();
        for rx in receivers {
            assert!(matches!(rx.recv().unwrap(), JobOutcome::Cancelled));
        }
        let (late, late_rx) = reporter();
        pool.submit(easy(1), late);
        assert!(
            matches!(late_rx.recv().unwrap(), JobOutcome::Refused(e) if e.code == Code::PowPoolClosed)
        );
        assert_eq!(pool.status().running, 0);
    }

    #[test]
    fn a_queue_of_zero_still_fills_free_slots() {
        let pool = MiningPool::new(PoolOptions { jobs: 1, queue_size: 0 });
        let (done, rx) = reporter();
        pool.submit(easy(7), done);
        assert!(matches!(rx.recv().unwrap(), JobOutcome::Mined(_)));
    }

    #[test]
    fn cheap_jobs_are_not_queued_behind_expensive_ones() {
        let pool = MiningPool::new(PoolOptions { jobs: 1, queue_size: 1 });
        let (first, _first_rx) = reporter();
        let running = pool.submit(endless(), first);
        let (second, _second_rx) = reporter();
        let waiting = pool.submit(endless(), second);
        wait_until(&pool, |s| s.running == 1 && s.queued == 1);
        let (cheap, cheap_rx) = reporter();
        pool.submit(easy(9), cheap);
        assert!(matches!(cheap_rx.recv().unwrap(), JobOutcome::Mined(_)));
        waiting.cancel();
        running.cancel();
    }

    #[test]
    fn a_flooding_client_leaves_the_last_places_to_others() {
        // 8 places, the last 2 kept for clients holding fewer than 2.
        let pool = MiningPool::new(PoolOptions { jobs: 1, queue_size: 7 });
        let mut jobs = Vec::new();
        let mut refused_at = None;
        for k in 0..8 {
            let (done, rx) = reporter();
            let handle = pool.submit(endless_for("flood"), done);
            if let Ok(JobOutcome::Refused(e)) = rx.try_recv() {
                assert_eq!(e.code, Code::PowQueueFull);
                refused_at = Some(k);
                break;
            }
            jobs.push((handle, rx));
        }
        assert_eq!(refused_at, Some(6), "the flood holds 6 of 8 places");
        for k in 0..2 {
            let (done, rx) = reporter();
            let handle = pool.submit(endless_for("honest"), done);
            assert!(rx.try_recv().is_err(), "honest job {k} waits");
            jobs.push((handle, rx));
        }
        let (done, rx) = reporter();
        pool.submit(endless_for("third"), done);
        assert!(matches!(rx.try_recv(), Ok(JobOutcome::Refused(_))), "now the lane is full");
        for (handle, _) in &jobs {
            handle.cancel();
        }
        wait_until(&pool, |s| s.running == 0 && s.queued == 0);
    }

    #[test]
    fn a_free_slot_serves_a_client_with_nothing_running_first() {
        let pool = MiningPool::new(PoolOptions { jobs: 1, queue_size: 7 });
        let (done, _running_rx) = reporter();
        let running = pool.submit(endless_for("flood"), done);
        wait_until(&pool, |s| s.running == 1);
        let flood: Vec<_> = (0..3)
            .map(|_| {
                let (done, rx) = reporter();
                (pool.submit(endless_for("flood"), done), rx)
            })
            .collect();
        let (done, honest_rx) = reporter();
        pool.submit(medium("honest"), done);
        running.cancel();
        // FIFO would start the next endless flood job, and the honest one would never run.
        assert!(matches!(honest_rx.recv().unwrap(), JobOutcome::Mined(_)));
        for (handle, _) in &flood {
            handle.cancel();
        }
        wait_until(&pool, |s| s.running == 0 && s.queued == 0);
    }
}
