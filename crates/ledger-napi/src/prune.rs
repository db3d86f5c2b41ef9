//! Pruning for JavaScript (docs/configuration.md `pruning`, Hornet's
//! `POST /api/core/v2/control/database/prune`): a run on request as an async task on libuv's
//! pool, the background pruning on the store's own thread, and what both report. The rules
//! are `ledger_store::prune`'s; this file only converts.

use crate::errors::{rejection, to_napi, Result};
use crate::store::{LedgerStore, NativeFailure};
use ledger_store::{PruneReport, PruneTarget, PruningConfig, SizeRule, Store};
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Task};
use napi_derive::napi;
use std::sync::Arc;
use std::time::Duration;

/// What to prune to: exactly one of the three (the route checks it).
#[napi(object)]
pub struct PruneRequest {
    /// Every milestone up to this index.
    pub index: Option<u32>,
    /// All but the last `depth` confirmed milestones.
    pub depth: Option<u32>,
    /// As many of the oldest milestones as bring the database to this size (bytes) less
    /// `thresholdPercentage` %.
    pub target_bytes: Option<f64>,
    pub threshold_percentage: f64,
}

/// The background pruning's rules (`pruning.*`, already parsed).
#[napi(object)]
pub struct PruningConfigJs {
    /// `pruning.milestones.maxMilestonesToKeep` when `pruning.milestones.enabled`.
    pub max_milestones_to_keep: Option<u32>,
    /// `pruning.size.targetSize` in bytes when `pruning.size.enabled`.
    pub target_bytes: Option<f64>,
    pub threshold_percentage: f64,
    pub cooldown_seconds: f64,
    pub prune_receipts: bool,
    /// `snapshots.depth` (raised to belowMaxDepth + 5) while periodic snapshots are enabled:
    /// pruning then keeps what the next delta snapshot needs.
    pub snapshot_depth: Option<u32>,
}

/// A finished run: the new pruning index and what it took.
#[napi(object)]
pub struct PruneReportJs {
    pub from: u32,
    pub index: u32,
    pub blocks: f64,
    pub outputs: f64,
    /// Batches written, each under the store's lock.
    pub steps: f64,
    /// The longest the store's lock was held by one batch, in microseconds.
    pub longest_step_micros: f64,
    pub compaction_micros: f64,
    pub micros: f64,
}

#[napi(object)]
pub struct PruningStatusJs {
    pub running: bool,
    pub runs: f64,
    pub last_run: Option<PruneReportJs>,
    /// The last failure of a background run (its code and text), other than "not yet".
    pub last_error: Option<NativeFailure>,
}

fn report_js(r: PruneReport) -> PruneReportJs {
    PruneReportJs {
        from: r.from,
        index: r.to,
        blocks: r.blocks as f64,
        outputs: r.outputs as f64,
        steps: r.steps as f64,
        longest_step_micros: r.longest_step_micros as f64,
        compaction_micros: r.compaction_micros as f64,
        micros: r.micros as f64,
    }
}

#[napi]
impl LedgerStore {
    /// Prune to a target (Hornet's `PruneDatabaseBy*`), off the event loop; rejects with
    /// Hornet's reasons (`history-task-running`, `no-pruning-needed`, `not-enough-history`,
    /// `history-missing`).
    #[napi(ts_return_type = "Promise<PruneReportJs>")]
    pub fn prune(&self, request: PruneRequest) -> Result<AsyncTask<PruneTask>> {
        let target = match (request.index, request.depth, request.target_bytes) {
            (Some(index), _, _) => PruneTarget::Index(index),
            (None, Some(depth), _) => PruneTarget::Depth(depth),
            (None, None, bytes) => PruneTarget::Size {
                bytes: bytes.unwrap_or(0.0).max(0.0) as u64,
                threshold_percentage: request.threshold_percentage,
            },
        };
        Ok(AsyncTask::new(PruneTask { store: self.get()?, target }))
    }

    /// Start the background pruning with these rules (or only keep them, when neither rule
    /// is enabled). It runs on the store's own thread and is stopped when the store closes.
    #[napi]
    pub fn start_pruning(&self, config: PruningConfigJs) -> Result<()> {
        let size = config.target_bytes.map(|bytes| SizeRule {
            target_bytes: bytes.max(0.0) as u64,
            threshold_percentage: config.threshold_percentage,
            cooldown: Duration::from_secs_f64(config.cooldown_seconds.max(0.0)),
        });
        self.get()?.start_pruning(PruningConfig {
            max_milestones_to_keep: config.max_milestones_to_keep,
            size,
            prune_receipts: config.prune_receipts,
            snapshot_depth: config.snapshot_depth,
        });
        Ok(())
    }

    /// Which history task runs now: "pruning", "snapshot" or null (the prune route answers
    /// 503 while one does, before it reads the body, as Hornet).
    #[napi]
    pub fn history_task(&self) -> Result<Option<String>> {
        Ok(self.get()?.history_task().map(|t| {
            match t {
                ledger_store::HistoryTask::Pruning => "pruning",
                ledger_store::HistoryTask::Snapshot => "snapshot",
            }
            .to_string()
        }))
    }

    /// The pruning index now (it moves between milestones while a run works).
    #[napi]
    pub fn pruning_index(&self) -> Result<u32> {
        Ok(self.get()?.status().pruning_index)
    }

    #[napi]
    pub fn pruning_status(&self) -> Result<PruningStatusJs> {
        let s = self.get()?.pruning_status();
        Ok(PruningStatusJs {
            running: s.running,
            runs: s.runs as f64,
            last_run: s.last_run.map(report_js),
            last_error: s.last_error.map(|(code, detail)| NativeFailure {
                code,
                path: String::new(),
                detail,
            }),
        })
    }
}

pub struct PruneTask {
    store: Arc<Store>,
    target: PruneTarget,
}

impl Task for PruneTask {
    type Output = ledger_core::Result<PruneReport>;
    type JsValue = PruneReportJs;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        // Not abortable from JavaScript: the run is short steps, and closing the store
        // waits for the task (it holds its own Arc).
        Ok(self.store.prune(self.target, &|| false))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<PruneReportJs> {
        output.map(report_js).map_err(|e| rejection(&env, to_napi(e)))
    }
}
