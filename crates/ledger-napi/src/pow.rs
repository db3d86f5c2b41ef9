//! Proof of work for JavaScript: the score of a block, and the miner as an async task that
//! runs its worker threads off the event loop and can be cancelled at any moment through a
//! `MiningJob` handle (napi's own AbortSignal support only cancels tasks not yet started).

use crate::errors::{invalid_argument, Result};
use ledger_core::pow;
use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi::{Env, Task};
use napi_derive::napi;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
    PowInfo { engine: engine.name().to_string(), lanes: engine.lanes() as u32, threads: pow::default_threads() as u32, engines }
}

/// Hashes per second of `threads` workers over `millis` milliseconds (runs off the loop),
/// with the miner's engine or the named one.
#[napi(ts_return_type = "Promise<number>")]
pub fn pow_hash_rate(threads: u32, millis: u32, engine: Option<String>) -> Result<AsyncTask<HashRateTask>> {
    let engine = match engine {
        None => pow::Engine::detect(),
        Some(name) => pow::Engine::available()
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| invalid_argument("engine", format!("'{name}' is not an engine this CPU runs")))?,
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
        Ok(pow::hash_rate(self.threads, std::time::Duration::from_millis(self.millis as u64), self.engine))
    }
    fn resolve(&mut self, _env: Env, output: f64) -> napi::Result<f64> {
        Ok(output)
    }
}

/// A cancellation handle shared by JavaScript and the miner's threads.
#[napi]
pub struct MiningJob {
    cancelled: Arc<AtomicBool>,
}

#[napi]
impl MiningJob {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        MiningJob { cancelled: Arc::new(AtomicBool::new(false)) }
    }

    #[napi]
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }
}

#[napi(object)]
pub struct MineOutcome {
    /// Decimal nonce; absent when the job was cancelled.
    pub nonce: Option<String>,
    pub hashes: f64,
}

pub struct MineTask {
    block: Vec<u8>,
    min_pow_score: u32,
    threads: usize,
    cancelled: Arc<AtomicBool>,
}

impl Task for MineTask {
    type Output = Option<pow::MineResult>;
    type JsValue = MineOutcome;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(pow::mine(&self.block, self.min_pow_score, self.threads, &self.cancelled))
    }
    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<MineOutcome> {
        Ok(match output {
            Some(r) => MineOutcome { nonce: Some(r.nonce.to_string()), hashes: r.hashes as f64 },
            None => MineOutcome { nonce: None, hashes: 0.0 },
        })
    }
}

/// Mine a nonce for the serialized block (its last 8 bytes are replaced) so that its score
/// reaches `minPowScore`. `threads` 0 = all cores.
#[napi(ts_return_type = "Promise<MineOutcome>")]
pub fn mine_nonce(block: Buffer, min_pow_score: u32, threads: u32, job: &MiningJob) -> Result<AsyncTask<MineTask>> {
    check_len(&block)?;
    let threads = if threads == 0 { pow::default_threads() } else { threads as usize };
    Ok(AsyncTask::new(MineTask { block: block.to_vec(), min_pow_score, threads, cancelled: job.cancelled.clone() }))
}
