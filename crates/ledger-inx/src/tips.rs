//! Tip RPCs: RequestTips, ListenToTipsMetrics, ListenToTipScoreUpdates (Hornet's
//! `components/inx/server_tips.go` and the tip part of `server_blocks.go`).
//!
//! The node's tip selection (ledger.md §5) draws from its healthy tip candidates; Hornet's
//! two pools are the candidates that are non-lazy and semi-lazy at the confirmed milestone.
//! Tip updates follow the store's record of candidates entering and leaving
//! (`ledger_store::events::TipChanges`), each with the block's metadata at that moment.

use crate::convert::{self, Advice};
use crate::feed::Kinds;
use crate::proto;
use crate::server::Context;
use crate::status::blocking;
use crate::streams::{self, ResponseStream};
use ledger_store::events::StoreEvent;
use std::sync::Arc;
use std::time::Duration;
use tonic::{Response, Status};

/// Up to `count` (0: all) of the node's selection: 2..8 tips, sorted. UNAVAILABLE while
/// there is nothing to select (before the first milestone).
pub async fn request_tips(
    ctx: &Arc<Context>,
    request: proto::TipsRequest,
) -> Result<Response<proto::TipsResponse>, Status> {
    let store = ctx.store.clone();
    let semi_lazy = request.allow_semi_lazy;
    let mut tips = blocking(move || {
        let selected = if semi_lazy { store.select_tips_semi_lazy() } else { store.select_tips() };
        selected.map_err(|e| Status::unavailable(format!("error selecting tips: {e}")))
    })
    .await?;
    let count = request.count as usize;
    if count > 0 && count < tips.len() {
        tips.truncate(count);
    }
    Ok(Response::new(proto::TipsResponse { tips: tips.iter().map(convert::block_id).collect() }))
}

/// The sizes of the non-lazy and semi-lazy pools every interval (the first after one).
pub fn listen_to_tips_metrics(
    ctx: &Arc<Context>,
    request: proto::TipsMetricRequest,
) -> Result<Response<ResponseStream<proto::TipsMetric>>, Status> {
    if request.interval_in_milliseconds == 0 {
        return Err(Status::invalid_argument("interval must be > 0"));
    }
    let period = Duration::from_millis(request.interval_in_milliseconds as u64);
    let store = ctx.store.clone();
    Ok(streams::spawn(ctx, "ListenToTipsMetrics", move |out| async move {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                _ = out.closed() => return Ok(()),
            }
            let (non_lazy, semi_lazy) = store.tip_counts();
            out.send(proto::TipsMetric {
                non_lazy_pool_size: non_lazy as u32,
                semi_lazy_pool_size: semi_lazy as u32,
            })
            .await?;
        }
    }))
}

/// Every block that enters or leaves the tip candidates, with its metadata now (promote
/// and reattach as the tip pools judge it); a block whose metadata is gone is skipped.
pub fn listen_to_tip_score_updates(
    ctx: &Arc<Context>,
) -> Response<ResponseStream<proto::BlockMetadata>> {
    let ctx2 = ctx.clone();
    streams::spawn_listening(
        ctx,
        "ListenToTipScoreUpdates",
        Kinds::TIPS,
        move |out, mut events| async move {
            loop {
                let event = out.next_event(&mut events).await?;
                let StoreEvent::TipsChanged(changes) = &*event else { continue };
                let ids: Vec<_> = changes.added.iter().chain(&changes.removed).copied().collect();
                let store = ctx2.store.clone();
                let found = blocking(move || {
                    ids.iter()
                        .map(|id| {
                            store
                                .block_metadata(id)
                                .map_err(|e| crate::status::internal("reading tip metadata", e))
                        })
                        .collect::<Result<Vec<_>, Status>>()
                })
                .await?;
                for metadata in found.into_iter().flatten() {
                    out.send(convert::metadata(&metadata, Advice::TipPools)).await?;
                }
            }
        },
    )
}
