//! Proof of work for JavaScript: the score of a block, and a `MiningPool` that mines on
//! threads of its own (never libuv's, which the store's tasks need) and settles each job's
//! promise from there. A `MiningJob` handle cancels a job at any moment, waiting or running
//! (napi's own AbortSignal support only cancels tasks not yet started).

use crate::errors::{invalid_argument, rejection, to_napi, Result};
use crate::shared::Shared;
use ledger_core::pow;
use ledger_core::Code;
use napi::bindgen_prelude::{AsyncTask, Buffer, Object};
use napi::{Env, Task};
use napi_derive::napi;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

#[napi]
pub fn pow_score(bytes: Buffer) -> Result<f64> {
    check_len(&bytes)?;
    Ok(pow::score(&bytes))
}

#[napi]
pub fn pow_trailing_zeros(bytes: Buffer) -> Result<u32> {
    check_len(&bytes)?;
    Ok(pow::trailing_zeros(&bytes))
}

/// Scores of many serialized blocks, computed together (128 blocks a bit-sliced pass).
#[napi]
pub fn pow_score_many(blocks: Vec<Buffer>) -> Result<Vec<f64>> {
    for b in &blocks {
        check_len(b)?;
    }
    let refs: Vec<&[u8]> = blocks.iter().map(|b| &b[..]).collect();
    Ok(pow::scores_many(&refs))
}

fn check_len(bytes: &[u8]) -> Result<()> {
    if bytes.len() < 8 {
        return Err(invalid_argument("", "a block has at least 8 bytes (its nonce)"));
    }
    Ok(())
}

#[napi(object)]
pub struct PowInfo {
    /// The engine the miner uses.
    pub engine: String,
    pub lanes: u32,
    pub threads: u32,
    /// Every engine this CPU runs, fastest first.
    pub engines: Vec<String>,
}

#[napi]
pub fn pow_info() -> PowInfo {
    let engine = pow::Engine::detect();
    let engines = pow::Engine::available().iter().map(|e| e.name().to_string()).collect();
    PowInfo {
        engine: engine.name().to_string(),
        lanes: engine.lanes() as u32,
        threads: pow::default_threads() as u32,
        engines,
    }
}

/// Hashes per second of `threads` workers over `millis` milliseconds (runs off the loop),
/// with the miner's engine or the named one.
#[napi(ts_return_type = "Promise<number>")]
pub fn pow_hash_rate(
    threads: u32,
    millis: u32,
    engine: Option<String>,
) -> Result<AsyncTask<HashRateTask>> {
    let engine = match engine {
        None => pow::Engine::detect(),
        Some(name) => {
            pow::Engine::available().into_iter().find(|e| e.name() == name).ok_or_else(|| {
                invalid_argument("engine", format!("'{name}' is not an engine this CPU runs"))
            })?
        }
    };
    Ok(AsyncTask::new(HashRateTask { threads: threads.max(1) as usize, millis, engine }))
}

pub struct HashRateTask {
    threads: usize,
    millis: u32,
    engine: pow::Engine,
}

impl Task for HashRateTask {
    type Output = f64;
    type JsValue = f64;
    fn compute(&mut self) -> napi::Result<f64> {
        Ok(pow::hash_rate(
            self.threads,
            std::time::Duration::from_millis(self.millis as u64),
            self.engine,
        ))
    }
    fn resolve(&mut self, _env: Env, output: f64) -> napi::Result<f64> {
        Ok(output)
    }
}

/// A pool of mining threads of its own, apart from libuv's pool (which serves the store's
/// tasks): a fixed number of jobs at a time and a bounded queue (`ledger_core::pow::pool`).
/// Each job's promise is settled from the pool's thread through a deferred.
#[napi]
pub struct MiningPool {
    pool: Arc<pow::MiningPool>,
    /// The key it is shared under (`shared`): a closed pool is withdrawn, so that a node
    /// started again in this process makes a new one.
    shared_as: Option<String>,
}

/// Pools that worker threads share with the main thread, by key (shared.rs).
static SHARED_POOLS: Shared<pow::MiningPool> = Shared::new();

#[napi(object)]
pub struct MiningPoolOptions {
    /// Jobs mined at the same time (at least 1).
    pub jobs: u32,
    /// Jobs that may wait for a free slot; more are refused with `pow-queue-full`.
    pub queue_size: u32,
}

#[napi(object)]
pub struct MiningPoolStatus {
    pub jobs: u32,
    pub queue_size: u32,
    pub queued: u32,
    pub running: u32,
    pub mined: f64,
    pub cancelled: f64,
    pub refused: f64,
    pub mean_job_seconds: f64,
}

#[napi(object)]
pub struct MineOutcome {
    /// Decimal nonce; absent when the job was cancelled.
    pub nonce: Option<String>,
    pub hashes: f64,
}

impl MiningPool {
    /// The pool itself, for Rust services that mine on it too (the INX server).
    pub(crate) fn pool(&self) -> Arc<pow::MiningPool> {
        self.pool.clone()
    }
}

#[napi]
impl MiningPool {
    #[napi(constructor)]
    pub fn new(options: MiningPoolOptions) -> Self {
        MiningPool {
            pool: Arc::new(pow::MiningPool::new(pow::PoolOptions {
                jobs: options.jobs as usize,
                queue_size: options.queue_size as usize,
            })),
            shared_as: None,
        }
    }

    /// The pool shared under `key` by this process's threads: made with `options` by the
    /// first caller, the same pool (one queue, one set of threads) for every later one.
    #[napi(factory)]
    pub fn shared(key: String, options: MiningPoolOptions) -> Self {
        static MAKING: Mutex<()> = Mutex::new(());
        let _one_at_a_time = MAKING.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(pool) = SHARED_POOLS.find(&key) {
            return MiningPool { pool, shared_as: Some(key) };
        }
        let made = MiningPool::new(options);
        SHARED_POOLS.publish(key.clone(), &made.pool);
        MiningPool { shared_as: Some(key), ..made }
    }

    /// Mine a nonce for the serialized block (its last 8 bytes are the nonce slot) so that
    /// its score reaches `minPowScore`, with `threads` workers (0 = all cores). The promise
    /// resolves once the job is mined or cancelled through `job`, and rejects when the job
    /// is refused (`pow-queue-full`, `pow-pool-closed`, `invalid-argument`). `client` names
    /// who asked (an HTTP client's address), for the pool's per-client shares.
    #[napi(ts_return_type = "Promise<MineOutcome>")]
    pub fn mine<'env>(
        &self,
        env: &'env Env,
        block: Buffer,
        min_pow_score: u32,
        threads: u32,
        job: &MiningJob,
        client: Option<String>,
    ) -> Result<Object<'env>> {
        let threads = if threads == 0 { pow::default_threads() } else { threads as usize };
        let (deferred, promise) = env.create_deferred().map_err(|e| {
            to_napi(ledger_core::Error::new(Code::BindingFailure, "", e.to_string()))
        })?;
        let request = pow::MiningRequest {
            block: block.to_vec(),
            min_pow_score,
            threads,
            client: client.unwrap_or_default(),
        };
        let handle = self.pool.submit(
            request,
            Box::new(move |outcome| deferred.resolve(move |env| mine_outcome(&env, outcome))),
        );
        job.attach(handle);
        Ok(promise)
    }

    #[napi]
    pub fn status(&self) -> MiningPoolStatus {
        let s = self.pool.status();
        MiningPoolStatus {
            jobs: s.jobs as u32,
            queue_size: s.queue_size.min(u32::MAX as usize) as u32,
            queued: s.queued as u32,
            running: s.running as u32,
            mined: s.mined as f64,
            cancelled: s.cancelled as f64,
            refused: s.refused as f64,
            mean_job_seconds: s.mean_job_seconds,
        }
    }

    /// Refuse new jobs and cancel every waiting and running one (their promises resolve
    /// without a nonce); returns once the pool's threads have stopped.
    #[napi]
    pub fn close(&self) {
        if let Some(key) = &self.shared_as {
            SHARED_POOLS.withdraw(key, &self.pool);
        }
        self.pool.close();
    }
}

fn mine_outcome(env: &Env, outcome: pow::JobOutcome) -> napi::Result<MineOutcome> {
    match outcome {
        pow::JobOutcome::Mined(r) => {
            Ok(MineOutcome { nonce: Some(r.nonce.to_string()), hashes: r.hashes as f64 })
        }
        pow::JobOutcome::Cancelled => Ok(MineOutcome { nonce: None, hashes: 0.0 }),
        pow::JobOutcome::Refused(e) => Err(rejection(env, to_napi(e))),
    }
}

/// A cancellation handle for one mining job, made in JavaScript before the job is
/// submitted so that a cancel can never miss it.
#[napi]
pub struct MiningJob {
    cancelled: AtomicBool,
    handle: Mutex<Option<pow::JobHandle>>,
}

#[napi]
impl MiningJob {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        MiningJob { cancelled: AtomicBool::new(false), handle: Mutex::new(None) }
    }

    /// Stop the job: it leaves the queue, or its workers stop within a batch.
    #[napi]
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        if let Some(handle) = self.handle.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            handle.cancel();
        }
    }

    fn attach(&self, handle: pow::JobHandle) {
        if self.cancelled.load(Ordering::Relaxed) {
            handle.cancel();
        }
        *self.handle.lock().unwrap_or_else(|p| p.into_inner()) = Some(handle);
    }
}
