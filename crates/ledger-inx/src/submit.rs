//! SubmitBlock (Hornet's `pkg/tangle/attacher.go`): a block with no parents gets the node's
//! tip selection; a block with nonce 0 that misses `minPowScore` is mined; then it goes
//! through the same intake as the REST API's blocks (`Store::submit_block`: every rule,
//! parents known, one atomic write) and out to gossip (`Node::block_submitted`), and the
//! store's events tell the streams.
//!
//! Mining runs on the node's mining pool (`ledger_core::pow::MiningPool`), the very pool
//! the REST API's submissions use: one queue and one set of threads, so INX and HTTP
//! together never mine more blocks at once, or queue more, than `restApi.pow` allows; a
//! full queue is `RESOURCE_EXHAUSTED`. A block whose parents the node chose gets fresh tips
//! every `refresh_tips_interval` while it waits or is mined (Hornet's PoW loop does the
//! same), and the whole attachment gives up after `timeout`. A client that cancels the RPC
//! cancels its mining job.
//!
//! The parents rule is the protocol's 1..8 (`ORIGIN`), not the REST API's 2..8 (D40):
//! Hornet's attacher takes an extension's block with a single parent, and inx-faucet sends
//! one when it chains a payout on its previous, not yet confirmed block.

use crate::server::Context;
use crate::status::{self, blocking};
use ledger_core::codec::{decode_block, encode_block};
use ledger_core::model::{Id32, Payload};
use ledger_core::pow::{self, JobHandle, JobOutcome, MiningRequest};
use ledger_core::validate::BlockOrigin;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::oneshot;
use tonic::Status;

/// Stardust's block protocol version.
const PROTOCOL_VERSION: u8 = 2;

/// The rules an extension's block is held to: the protocol's, as for blocks from peers
/// (1..8 parents, D40), which is what Hornet's attacher applies.
const ORIGIN: BlockOrigin = BlockOrigin::Peer;

fn invalid(detail: impl std::fmt::Display) -> Status {
    Status::invalid_argument(format!("failed to attach block: {detail}"))
}

pub async fn attach(ctx: &Arc<Context>, bytes: Vec<u8>) -> Result<Id32, Status> {
    // Hornet parses without validation; what does not parse is a plain error (UNKNOWN).
    let block = decode_block(&bytes).map_err(|e| Status::unknown(format!("invalid block: {e}")))?;
    if block.protocol_version != PROTOCOL_VERSION {
        return Err(invalid(format!(
            "protocolVersion invalid: {} (this node's is {PROTOCOL_VERSION})",
            block.protocol_version
        )));
    }
    let milestone = matches!(block.payload, Some(Payload::Milestone(_)));
    let select_parents = block.parents.is_empty();
    if select_parents && block.nonce != 0 {
        return Err(invalid("no parents given, but a nonce is set"));
    }
    let min_pow_score = ctx.store.protocol().min_pow_score;
    // A milestone is never mined (its nonce is 0); a block with a nonce keeps it.
    let mine = !milestone && block.nonce == 0 && min_pow_score > 0;
    let pow = &ctx.config.pow;
    let pool = match (&ctx.pool, pow.enabled) {
        (Some(pool), true) => Some(pool.clone()),
        _ => None,
    };
    let started = Instant::now();
    let mut block = block;
    if milestone {
        block.nonce = 0;
    }
    let bytes = loop {
        if select_parents {
            let store = ctx.store.clone();
            block.parents = blocking(move || {
                store.select_tips().map_err(|e| {
                    Status::internal(format!("failed to attach block: attaching not possible: {e}"))
                })
            })
            .await?;
        }
        let bytes = if select_parents || milestone { encode_block(&block) } else { bytes.clone() };
        if !mine || pow::meets_min_score(&bytes, min_pow_score) {
            break bytes;
        }
        let Some(pool) = pool.as_ref() else {
            return Err(Status::unavailable(
                "failed to attach block: proof of work is not available on this node",
            ));
        };
        // Everything but the nonce is final: a block the store would refuse is refused
        // before any mining.
        let (store, checked) = (ctx.store.clone(), bytes.clone());
        blocking(move || {
            store
                .precheck_block_from(&checked, ORIGIN)
                .map_err(|e| status::of_store("failed to attach block", e))
        })
        .await?;
        let remaining = pow.timeout.saturating_sub(started.elapsed());
        let limit =
            if select_parents { remaining.min(pow.refresh_tips_interval) } else { remaining };
        let threads = if pow.threads == 0 { pow::default_threads() } else { pow.threads };
        match mine_on(pool, bytes, min_pow_score, threads, limit).await? {
            Some(mined) => break mined,
            None if select_parents && started.elapsed() < pow.timeout => continue,
            None => {
                return Err(Status::unavailable("failed to attach block: proof of work timed out"))
            }
        }
    };
    let store = ctx.store.clone();
    let (submitted, bytes) = blocking(move || {
        let submitted = store
            .submit_blocks_from(&[&bytes], ORIGIN)
            .pop()
            .expect("one result per block")
            .map_err(|e| status::of_store("failed to attach block", e))?;
        Ok((submitted, bytes))
    })
    .await?;
    if submitted.stored {
        ctx.node.block_submitted(submitted.block_id, bytes);
    }
    Ok(submitted.block_id)
}

/// Cancels a mining job when the attachment is dropped (the client cancelled, the node
/// stops) or gives up; nothing happens to a finished job.
struct CancelOnDrop(JobHandle);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The block with a nonce that reaches the score, or None when `limit` passed first.
async fn mine_on(
    pool: &Arc<pow::MiningPool>,
    mut bytes: Vec<u8>,
    min_pow_score: u32,
    threads: usize,
    limit: std::time::Duration,
) -> Result<Option<Vec<u8>>, Status> {
    let (done, outcome) = oneshot::channel();
    // Extensions share one place in the pool's per-client shares (its HTTP clients have theirs).
    let request =
        MiningRequest { block: bytes.clone(), min_pow_score, threads, client: "inx".into() };
    let job = CancelOnDrop(pool.submit(
        request,
        Box::new(move |outcome| {
            let _ = done.send(outcome);
        }),
    ));
    let outcome = match tokio::time::timeout(limit, outcome).await {
        Ok(Ok(outcome)) => outcome,
        // The pool delivers every job's outcome exactly once; a closed channel means it was
        // dropped with the pool.
        Ok(Err(_)) => JobOutcome::Cancelled,
        Err(_) => return Ok(None),
    };
    drop(job);
    match outcome {
        JobOutcome::Mined(result) => {
            let at = bytes.len() - 8;
            bytes[at..].copy_from_slice(&result.nonce.to_le_bytes());
            Ok(Some(bytes))
        }
        JobOutcome::Cancelled => {
            Err(Status::unavailable("failed to attach block: mining was cancelled (node stopping)"))
        }
        JobOutcome::Refused(e) if e.code == ledger_core::Code::PowQueueFull => {
            Err(Status::resource_exhausted(format!("failed to attach block: {}", e.detail)))
        }
        JobOutcome::Refused(e) => Err(Status::unavailable(format!("failed to attach block: {e}"))),
    }
}
