//! Block RPCs: ListenToBlocks, ListenToSolidBlocks, ListenToReferencedBlocks, SubmitBlock,
//! ReadBlock, ReadBlockMetadata (Hornet's `components/inx/server_blocks.go`).
//!
//! The store stores a block only once its parents are there (D13), so a block is solid the
//! moment it is stored: new and solid blocks come from the same events (intake batches and
//! each milestone's own block). Referenced blocks come with their milestone's commit, in
//! white-flag order, before that milestone's ledger update.

use crate::convert::{self, Advice};
use crate::feed::Kinds;
use crate::proto;
use crate::server::Context;
use crate::status::{self, blocking};
use crate::streams::{self, ResponseStream};
use crate::submit;
use ledger_store::events::{StoreEvent, StoredBlock};
use std::sync::Arc;
use tonic::{Response, Status};

/// The blocks an event stored, in write order: an intake batch, or a milestone's own block.
fn stored(event: &StoreEvent) -> &[StoredBlock] {
    match event {
        StoreEvent::BlocksStored(blocks) => blocks,
        StoreEvent::MilestoneCommitted(m) => std::slice::from_ref(&m.block),
        StoreEvent::TipsChanged(_) => &[],
    }
}

pub fn listen_to_blocks(ctx: &Arc<Context>) -> Response<ResponseStream<proto::Block>> {
    streams::spawn_listening(
        ctx,
        "ListenToBlocks",
        Kinds::BLOCKS_AND_MILESTONES,
        move |out, mut events| async move {
            loop {
                let event = out.next_event(&mut events).await?;
                for b in stored(&event) {
                    out.send(proto::Block {
                        block_id: Some(convert::block_id(&b.block_id)),
                        block: Some(proto::RawBlock { data: b.bytes.clone() }),
                    })
                    .await?;
                }
            }
        },
    )
}

pub fn listen_to_solid_blocks(
    ctx: &Arc<Context>,
) -> Response<ResponseStream<proto::BlockMetadata>> {
    streams::spawn_listening(
        ctx,
        "ListenToSolidBlocks",
        Kinds::BLOCKS_AND_MILESTONES,
        move |out, mut events| async move {
            loop {
                let event = out.next_event(&mut events).await?;
                for b in stored(&event) {
                    out.send(convert::metadata(&b.metadata, Advice::Thresholds)).await?;
                }
            }
        },
    )
}

pub fn listen_to_referenced_blocks(
    ctx: &Arc<Context>,
) -> Response<ResponseStream<proto::BlockMetadata>> {
    streams::spawn_listening(
        ctx,
        "ListenToReferencedBlocks",
        Kinds::MILESTONES,
        move |out, mut events| async move {
            loop {
                let event = out.next_event(&mut events).await?;
                let StoreEvent::MilestoneCommitted(m) = &*event else { continue };
                for r in &m.referenced {
                    out.send(convert::metadata(&r.metadata, Advice::Thresholds)).await?;
                }
            }
        },
    )
}

pub async fn submit_block(
    ctx: &Arc<Context>,
    request: proto::RawBlock,
) -> Result<Response<proto::BlockId>, Status> {
    let block_id = submit::attach(ctx, request.data).await?;
    Ok(Response::new(convert::block_id(&block_id)))
}

pub async fn read_block(
    ctx: &Arc<Context>,
    request: proto::BlockId,
) -> Result<Response<proto::RawBlock>, Status> {
    let id = convert::id::<32>(&request.id);
    let store = ctx.store.clone();
    let found =
        blocking(move || store.block(&id).map_err(|e| status::internal("reading the block", e)))
            .await?;
    match found {
        Some(data) => Ok(Response::new(proto::RawBlock { data })),
        None => Err(Status::not_found(format!("block 0x{} not found", hex::encode(id)))),
    }
}

/// NotFound for an unknown block (clients read it as "not known yet"); a solid entry point
/// is a solid block without parents.
pub async fn read_block_metadata(
    ctx: &Arc<Context>,
    request: proto::BlockId,
) -> Result<Response<proto::BlockMetadata>, Status> {
    let id = convert::id::<32>(&request.id);
    let store = ctx.store.clone();
    let found = blocking(move || {
        store.block_metadata(&id).map_err(|e| status::internal("reading the block metadata", e))
    })
    .await?;
    match found {
        Some(metadata) => Ok(Response::new(convert::metadata(&metadata, Advice::Thresholds))),
        None if ctx.store.is_solid_entry_point(&id) => Ok(Response::new(proto::BlockMetadata {
            block_id: Some(convert::block_id(&id)),
            solid: true,
            ..Default::default()
        })),
        None => Err(Status::not_found(format!("block metadata 0x{} not found", hex::encode(id)))),
    }
}
