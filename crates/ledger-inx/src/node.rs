//! Node RPCs: ReadNodeStatus, ListenToNodeStatus, ReadNodeConfiguration,
//! ReadProtocolParameters (Hornet's `components/inx/server.go`).
//!
//! The status is Hornet's `currentNodeStatus`: one pruning index for tangle, milestones and
//! ledger; the latest and confirmed milestone in full (id, timestamp, payload) above the
//! pruning index, by index only at or below it; synced when the confirmed index reached the
//! latest, almost synced within two; healthy when almost synced, with a gossip peer and a
//! latest milestone less than five minutes old. This node applies milestones as it learns
//! them, so its latest stored milestone is its confirmed one; the highest index peers
//! announced decides whether it is synced. A node without gossip is a network of its own:
//! the peer condition does not apply to it.

use crate::convert::{self, PROTOCOL_VERSION};
use crate::feed::Kinds;
use crate::proto::{self, MilestoneKeyRange, NodeConfiguration, NodeStatus, NodeStatusRequest};
use crate::server::Context;
use crate::status::{self, blocking};
use crate::streams::{self, ResponseStream};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::time::Instant;
use tonic::{Response, Status};

/// Hornet's health rule: the latest milestone is at most this old.
const MAX_MILESTONE_AGE_SECONDS: u64 = 5 * 60;

fn now_seconds() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The node's status now.
pub async fn current_status(ctx: &Arc<Context>) -> Result<NodeStatus, Status> {
    let peers = ctx.node.connected_peers().await;
    let seen = ctx.node.latest_seen_milestone();
    let store = ctx.store.clone();
    let (status, confirmed) = blocking(move || {
        let status = store.status();
        let confirmed = match status.latest_milestone {
            Some((index, _, _)) if index > status.pruning_index => store
                .milestone_by_index(index)
                .map_err(|e| status::internal("reading the confirmed milestone", e))?
                .map(|r| convert::milestone(&r)),
            _ => None,
        };
        Ok((status, confirmed))
    })
    .await?;
    let (cmi, timestamp) = status.latest_milestone.map_or((0, 0), |(i, t, _)| (i, t));
    let confirmed = confirmed.unwrap_or_else(|| convert::milestone_index_only(cmi));
    let lmi = cmi.max(seen);
    let synced = lmi != 0 && cmi >= lmi;
    let almost_synced = lmi != 0 && cmi.saturating_add(2) >= lmi;
    let fresh = now_seconds().saturating_sub(timestamp as u64) < MAX_MILESTONE_AGE_SECONDS;
    let peered = peers.is_none_or(|n| n > 0);
    Ok(NodeStatus {
        is_healthy: almost_synced && peered && fresh,
        is_synced: synced,
        is_almost_synced: almost_synced,
        latest_milestone: Some(confirmed.clone()),
        confirmed_milestone: Some(confirmed),
        current_protocol_parameters: Some(convert::protocol_parameters(ctx.store.protocol())),
        tangle_pruning_index: status.pruning_index,
        milestones_pruning_index: status.pruning_index,
        ledger_pruning_index: status.pruning_index,
        ledger_index: status.ledger_index,
    })
}

pub async fn read_node_status(ctx: &Arc<Context>) -> Result<Response<NodeStatus>, Status> {
    current_status(ctx).await.map(Response::new)
}

/// Nothing at first; then a status at every milestone. While the node is not almost
/// synced, statuses come at most once per cooldown: a later one replaces one that waits.
pub fn listen_to_node_status(
    ctx: &Arc<Context>,
    request: NodeStatusRequest,
) -> Result<Response<ResponseStream<NodeStatus>>, Status> {
    let cooldown = Duration::from_millis(request.cooldown_in_milliseconds as u64);
    let ctx2 = ctx.clone();
    Ok(streams::spawn_listening(
        ctx,
        "ListenToNodeStatus",
        Kinds::MILESTONES,
        move |out, mut events| async move {
            let ctx = ctx2;
            let mut last_sent: Option<Instant> = None;
            let mut waiting: Option<(Instant, NodeStatus)> = None;
            loop {
                let due = waiting.as_ref().map(|(at, _)| *at);
                tokio::select! {
                    event = out.next_event(&mut events) => {
                        event?;
                        let status = current_status(&ctx).await?;
                        let now = Instant::now();
                        waiting = None;
                        let held = cooldown > Duration::ZERO
                            && !status.is_almost_synced
                            && last_sent.is_some_and(|at| now.duration_since(at) < cooldown);
                        if held {
                            let at = last_sent.map_or(now, |t| t + cooldown);
                            waiting = Some((at, status));
                        } else {
                            out.send(status).await?;
                            last_sent = Some(Instant::now());
                        }
                    }
                    _ = sleep_until(due) => {
                        if let Some((_, status)) = waiting.take() {
                            out.send(status).await?;
                            last_sent = Some(Instant::now());
                        }
                    }
                }
            }
        },
    ))
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The coordinator keys this node accepts, how many must sign, the base token, and the
/// protocol versions it supports (2).
pub fn read_node_configuration(ctx: &Arc<Context>) -> NodeConfiguration {
    let keys = ctx.store.milestone_keys();
    let next = ctx.store.status().latest_milestone.map_or(1, |(i, _, _)| i + 1);
    let count = match keys.threshold {
        0 => keys.applicable(next).len(),
        n => n,
    };
    let token = &ctx.config.base_token;
    NodeConfiguration {
        milestone_public_key_count: count as u32,
        milestone_key_ranges: keys
            .ranges
            .iter()
            .map(|r| MilestoneKeyRange {
                public_key: r.public_key.to_vec(),
                start_index: r.start,
                end_index: r.end,
            })
            .collect(),
        base_token: Some(proto::BaseToken {
            name: token.name.clone(),
            ticker_symbol: token.ticker_symbol.clone(),
            unit: token.unit.clone(),
            subunit: token.subunit.clone(),
            decimals: token.decimals,
            use_metric_prefix: token.use_metric_prefix,
        }),
        supported_protocol_versions: vec![PROTOCOL_VERSION],
    }
}

/// The protocol parameters active at a milestone (by id when one is given: NotFound for
/// an unknown one). This node's protocol does not change, so they are the same at every
/// index.
pub async fn read_protocol_parameters(
    ctx: &Arc<Context>,
    request: proto::MilestoneRequest,
) -> Result<Response<proto::RawProtocolParameters>, Status> {
    if let Some(id) = request.milestone_id {
        let id = convert::id::<32>(&id.id);
        let store = ctx.store.clone();
        let found = blocking(move || {
            store.milestone_by_id(&id).map_err(|e| status::internal("reading the milestone", e))
        })
        .await?;
        if found.is_none() {
            return Err(Status::not_found("milestone not found"));
        }
    }
    Ok(Response::new(convert::protocol_parameters(ctx.store.protocol())))
}
