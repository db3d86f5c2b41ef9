//! Milestone RPCs: ReadMilestone, ListenToLatestMilestones, ListenToConfirmedMilestones,
//! ComputeWhiteFlag, ReadMilestoneCone, ReadMilestoneConeMetadata (Hornet's
//! `components/inx/server_milestones.go`).
//!
//! This node learns a milestone when it applies it, so a milestone is "latest" and
//! "confirmed" at the same moment: both streams follow the store's milestone commits.
//! Cones are streamed in white-flag order, the order inx-poi builds its proofs from.

use crate::convert::{self, Advice};
use crate::feed::Kinds;
use crate::proto::{self, MilestoneAndProtocolParameters, MilestoneRangeRequest};
use crate::range::Range;
use crate::ranged;
use crate::server::Context;
use crate::status::{self, blocking};
use crate::streams::{self, End, Outlet, ResponseStream};
use crate::white_flag::{self, WhiteFlagFailure};
use ledger_store::events::{CommittedMilestone, StoreEvent};
use ledger_store::MilestoneRecord;
use std::sync::Arc;
use tonic::{Response, Status};

/// The milestone a request names: by index when it is not 0, else by id.
async fn requested(
    ctx: &Arc<Context>,
    request: &proto::MilestoneRequest,
) -> Result<Option<MilestoneRecord>, Status> {
    let store = ctx.store.clone();
    let index = request.milestone_index;
    let id = convert::id::<32>(request.milestone_id.as_ref().map_or(&[][..], |m| &m.id));
    blocking(move || {
        let found =
            if index != 0 { store.milestone_by_index(index) } else { store.milestone_by_id(&id) };
        found.map_err(|e| status::internal("reading the milestone", e))
    })
    .await
}

pub async fn read_milestone(
    ctx: &Arc<Context>,
    request: proto::MilestoneRequest,
) -> Result<Response<proto::Milestone>, Status> {
    match requested(ctx, &request).await? {
        Some(record) => Ok(Response::new(convert::milestone(&record))),
        None => Err(Status::not_found("milestone not found")),
    }
}

fn committed(m: &CommittedMilestone) -> proto::Milestone {
    proto::Milestone {
        milestone_info: Some(proto::MilestoneInfo {
            milestone_id: Some(convert::milestone_id(&m.milestone_id)),
            milestone_index: m.index,
            milestone_timestamp: m.timestamp,
        }),
        milestone: Some(proto::RawMilestone { data: m.payload.clone() }),
    }
}

pub fn listen_to_latest_milestones(
    ctx: &Arc<Context>,
) -> Response<ResponseStream<proto::Milestone>> {
    streams::spawn_listening(
        ctx,
        "ListenToLatestMilestones",
        Kinds::MILESTONES,
        move |out, mut events| async move {
            loop {
                if let StoreEvent::MilestoneCommitted(m) = &*out.next_event(&mut events).await? {
                    out.send(committed(m)).await?;
                }
            }
        },
    )
}

fn with_parameters(ctx: &Context, milestone: proto::Milestone) -> MilestoneAndProtocolParameters {
    MilestoneAndProtocolParameters {
        milestone: Some(milestone),
        current_protocol_parameters: Some(convert::protocol_parameters(ctx.store.protocol())),
    }
}

/// Stored milestones `from..=to`, in order (NotFound for a missing one).
async fn send_stored(
    ctx: &Arc<Context>,
    out: &Outlet<MilestoneAndProtocolParameters>,
    from: u32,
    to: u32,
) -> Result<(), End> {
    for index in from..=to {
        let store = ctx.store.clone();
        let record = blocking(move || {
            store.milestone_by_index(index).map_err(|e| status::internal("reading a milestone", e))
        })
        .await?
        .ok_or_else(|| Status::not_found(format!("milestone index {index} not found")))?;
        out.send(with_parameters(ctx, convert::milestone(&record))).await?;
    }
    Ok(())
}

/// Confirmed milestones with the protocol parameters at each, ranged (`range.rs`).
pub async fn listen_to_confirmed_milestones(
    ctx: &Arc<Context>,
    request: MilestoneRangeRequest,
) -> Result<Response<ResponseStream<MilestoneAndProtocolParameters>>, Status> {
    let mut range = Range::new(request.start_milestone_index, request.end_milestone_index);
    let ctx2 = ctx.clone();
    // Subscribed first: what commits while storage is read waits in the buffer.
    Ok(streams::spawn_listening(
        ctx,
        "ListenToConfirmedMilestones",
        Kinds::MILESTONES,
        move |out, mut events| async move {
            let ctx = ctx2;
            let status = ctx.store.status();
            let confirmed = status.latest_milestone.map_or(0, |(i, _, _)| i);
            if let Some((from, to)) = range.history(confirmed, status.pruning_index)? {
                send_stored(&ctx, &out, from, to).await?;
                range.sent_up_to(to);
            }
            ranged::follow(
                range,
                &out,
                &mut events,
                |from, to| send_stored(&ctx, &out, from, to),
                |m| out.send(with_parameters(&ctx, committed(m))),
            )
            .await
        },
    ))
}

pub async fn compute_white_flag(
    ctx: &Arc<Context>,
    request: proto::WhiteFlagRequest,
) -> Result<Response<proto::WhiteFlagResponse>, Status> {
    let parents: Vec<[u8; 32]> = request.parents.iter().map(|p| convert::id::<32>(&p.id)).collect();
    let previous =
        convert::id::<32>(request.previous_milestone_id.as_ref().map_or(&[][..], |m| &m.id));
    let store = ctx.store.clone();
    let timeout = ctx.config.white_flag_parents_timeout;
    let computed = tokio::task::spawn_blocking(move || {
        white_flag::compute_white_flag(
            &store,
            request.milestone_index,
            request.milestone_timestamp,
            &parents,
            &previous,
            timeout,
        )
    })
    .await
    .map_err(status::task_failed)?;
    match computed {
        Ok((inclusion, applied)) => Ok(Response::new(proto::WhiteFlagResponse {
            milestone_inclusion_merkle_root: inclusion.to_vec(),
            milestone_applied_merkle_root: applied.to_vec(),
        })),
        Err(failure) => {
            let message = format!("failed to compute white flag mutations: {failure}");
            Err(match failure {
                WhiteFlagFailure::NotSynced(_) | WhiteFlagFailure::ParentsNotSolid(_) => {
                    Status::unavailable(message)
                }
                WhiteFlagFailure::NoParents(_) => Status::invalid_argument(message),
                WhiteFlagFailure::Other(_) => Status::internal(message),
            })
        }
    }
}

/// The metadata of the blocks milestone `request` referenced, in white-flag order.
async fn cone(
    ctx: &Arc<Context>,
    request: &proto::MilestoneRequest,
) -> Result<Vec<ledger_store::views::BlockMetadata>, Status> {
    let record =
        requested(ctx, request).await?.ok_or_else(|| Status::not_found("milestone not found"))?;
    let confirmed = ctx.store.status().latest_milestone.map_or(0, |(i, _, _)| i);
    if record.index > confirmed {
        return Err(Status::invalid_argument(format!(
            "milestone {} not confirmed yet",
            record.index
        )));
    }
    let store = ctx.store.clone();
    blocking(move || {
        store
            .milestone_cone(record.index)
            .map_err(|e| status::internal("traverse parents failed", e))?
            .ok_or_else(|| Status::internal("traverse parents failed: the milestone is gone"))
    })
    .await
}

pub async fn read_milestone_cone(
    ctx: &Arc<Context>,
    request: proto::MilestoneRequest,
) -> Result<Response<ResponseStream<proto::BlockWithMetadata>>, Status> {
    let blocks = cone(ctx, &request).await?;
    let ctx2 = ctx.clone();
    Ok(streams::spawn(ctx, "ReadMilestoneCone", move |out| async move {
        for metadata in blocks {
            let store = ctx2.store.clone();
            let id = metadata.block_id;
            let bytes = blocking(move || {
                store.block(&id).map_err(|e| status::internal("reading a block", e))
            })
            .await?
            .ok_or_else(|| Status::internal(format!("block 0x{} not found", hex::encode(id))))?;
            out.send(proto::BlockWithMetadata {
                metadata: Some(convert::metadata(&metadata, Advice::Thresholds)),
                block: Some(proto::RawBlock { data: bytes }),
            })
            .await?;
        }
        Ok(())
    }))
}

pub async fn read_milestone_cone_metadata(
    ctx: &Arc<Context>,
    request: proto::MilestoneRequest,
) -> Result<Response<ResponseStream<proto::BlockMetadata>>, Status> {
    let blocks = cone(ctx, &request).await?;
    Ok(streams::spawn(ctx, "ReadMilestoneConeMetadata", move |out| async move {
        for metadata in blocks {
            out.send(convert::metadata(&metadata, Advice::Thresholds)).await?;
        }
        Ok(())
    }))
}
