//! UTXO RPCs: ReadUnspentOutputs, ListenToLedgerUpdates, ListenToTreasuryUpdates,
//! ReadOutput, ListenToMigrationReceipts (Hornet's `components/inx/server_utxo.go`).
//!
//! A ledger update is one batch per milestone — BEGIN, every consumed output, every created
//! output, END, the counts on both markers; milestones that changed nothing still get BEGIN
//! and END. Stored milestones are read from their diffs (`Store::ledger_diff`), live ones
//! come with the milestone's commit event, in the same (white-flag) order, so a batch is the
//! same whichever way it came and equals `GET …/milestones/by-index/{index}/utxo-changes`.
//! The unspent outputs are read from one snapshot of the database: milestones go on being
//! applied meanwhile (Hornet holds its ledger lock for the whole stream).

use crate::convert;
use crate::feed::Kinds;
use crate::proto::{self, ledger_update, LedgerUpdate, MilestoneRangeRequest, TreasuryUpdate};
use crate::range::Range;
use crate::ranged;
use crate::server::Context;
use crate::status::{self, blocking};
use crate::streams::{self, End, Outlet, ResponseStream};
use ledger_core::codec::{decode_milestone_payload, encode_milestone_option};
use ledger_core::model::MilestoneOption;
use ledger_store::events::{CommittedMilestone, StoreEvent};
use ledger_store::views::{LedgerDiff, LedgerOutput, LedgerSpent, OutputState};
use std::future::ready;
use std::sync::Arc;
use tokio::sync::mpsc;
use tonic::{Response, Status};

/// Unspent outputs read ahead of the client.
const UNSPENT_AHEAD: usize = 256;

pub fn read_unspent_outputs(ctx: &Arc<Context>) -> Response<ResponseStream<proto::UnspentOutput>> {
    let store = ctx.store.clone();
    streams::spawn(ctx, "ReadUnspentOutputs", move |out| async move {
        let (sender, mut read) = mpsc::channel(UNSPENT_AHEAD);
        let walk = tokio::task::spawn_blocking(move || {
            store.for_each_unspent_output(|ledger_index, output| {
                let message = proto::UnspentOutput {
                    ledger_index,
                    output: Some(convert::ledger_output(&output)),
                };
                // False (stop) once the stream is gone.
                sender.blocking_send(message).is_ok()
            })
        });
        while let Some(message) = read.recv().await {
            out.send(message).await?;
        }
        walk.await
            .map_err(status::task_failed)?
            .map_err(|e| status::internal("reading the unspent outputs", e))?;
        Ok(())
    })
}

fn marker(
    index: u32,
    kind: ledger_update::marker::MarkerType,
    consumed: usize,
    created: usize,
) -> LedgerUpdate {
    LedgerUpdate {
        op: Some(ledger_update::Op::BatchMarker(ledger_update::Marker {
            milestone_index: index,
            marker_type: kind as i32,
            consumed_count: consumed as u32,
            created_count: created as u32,
        })),
    }
}

/// One milestone's batch: BEGIN, consumed, created, END.
async fn send_batch(
    out: &Outlet<LedgerUpdate>,
    index: u32,
    consumed: Vec<proto::LedgerSpent>,
    created: Vec<proto::LedgerOutput>,
) -> Result<(), End> {
    use ledger_update::marker::MarkerType;
    let counts = (consumed.len(), created.len());
    out.send(marker(index, MarkerType::Begin, counts.0, counts.1)).await?;
    for spent in consumed {
        out.send(LedgerUpdate { op: Some(ledger_update::Op::Consumed(spent)) }).await?;
    }
    for output in created {
        out.send(LedgerUpdate { op: Some(ledger_update::Op::Created(output)) }).await?;
    }
    out.send(marker(index, MarkerType::End, counts.0, counts.1)).await
}

async fn stored_diff(ctx: &Arc<Context>, index: u32) -> Result<LedgerDiff, Status> {
    let store = ctx.store.clone();
    blocking(move || {
        store.ledger_diff(index).map_err(|e| status::internal("reading a ledger diff", e))
    })
    .await?
    .ok_or_else(|| Status::not_found(format!("ledger update for milestoneIndex {index} not found")))
}

async fn send_stored_diffs(
    ctx: &Arc<Context>,
    out: &Outlet<LedgerUpdate>,
    from: u32,
    to: u32,
) -> Result<(), End> {
    for index in from..=to {
        let diff = stored_diff(ctx, index).await?;
        let consumed = diff.consumed.iter().map(convert::ledger_spent).collect();
        let created = diff.created.iter().map(convert::ledger_output).collect();
        send_batch(out, index, consumed, created).await?;
    }
    Ok(())
}

/// A committed milestone's changes as the diff has them: every transaction's inputs in
/// white-flag order, then every transaction's outputs.
fn live_changes(m: &CommittedMilestone) -> (Vec<proto::LedgerSpent>, Vec<proto::LedgerOutput>) {
    let mut consumed = Vec::new();
    let mut created = Vec::new();
    for tx in &m.transactions {
        for c in &tx.consumed {
            consumed.push(convert::ledger_spent(&LedgerSpent {
                output: LedgerOutput {
                    output_id: c.output_id,
                    booked: c.booked,
                    output: c.output.clone(),
                },
                transaction_id_spent: tx.transaction_id,
                milestone_index_spent: m.index,
                milestone_timestamp_spent: m.timestamp,
            }));
        }
        for c in &tx.created {
            created.push(convert::ledger_output(&LedgerOutput {
                output_id: c.output_id,
                booked: c.booked,
                output: c.output.clone(),
            }));
        }
    }
    (consumed, created)
}

pub async fn listen_to_ledger_updates(
    ctx: &Arc<Context>,
    request: MilestoneRangeRequest,
) -> Result<Response<ResponseStream<LedgerUpdate>>, Status> {
    let mut range = Range::new(request.start_milestone_index, request.end_milestone_index);
    let ctx2 = ctx.clone();
    // Subscribed first: what commits while storage is read waits in the buffer.
    Ok(streams::spawn_listening(
        ctx,
        "ListenToLedgerUpdates",
        Kinds::MILESTONES,
        move |out, mut events| async move {
            let ctx = ctx2;
            let status = ctx.store.status();
            if let Some((from, to)) = range.history(status.ledger_index, status.pruning_index)? {
                send_stored_diffs(&ctx, &out, from, to).await?;
                range.sent_up_to(to);
            }
            ranged::follow(
                range,
                &out,
                &mut events,
                |from, to| send_stored_diffs(&ctx, &out, from, to),
                |m| {
                    let (consumed, created) = live_changes(m);
                    send_batch(&out, m.index, consumed, created)
                },
            )
            .await
        },
    ))
}

/// Treasury changes, ranged. This node's ledger changes the treasury only when it is built
/// from a snapshot, so milestones bring none; as Hornet does when the stored range sent
/// nothing, the stream starts with the current treasury output (as created and consumed,
/// at the ledger index) and then stays open. A network without a treasury has an empty one
/// (zero milestone id, amount 0), as Hornet's private networks do.
pub async fn listen_to_treasury_updates(
    ctx: &Arc<Context>,
    request: MilestoneRangeRequest,
) -> Result<Response<ResponseStream<TreasuryUpdate>>, Status> {
    let mut range = Range::new(request.start_milestone_index, request.end_milestone_index);
    let ctx2 = ctx.clone();
    Ok(streams::spawn_listening(
        ctx,
        "ListenToTreasuryUpdates",
        Kinds::MILESTONES,
        move |out, mut events| async move {
            let ctx = ctx2;
            let status = ctx.store.status();
            if let Some((from, to)) = range.history(status.ledger_index, status.pruning_index)? {
                // No stored milestone changed the treasury, but each must be there (Hornet
                // reads every diff of the range).
                for index in from..=to {
                    stored_diff(&ctx, index).await?;
                }
                range.sent_up_to(to);
            }
            let store = ctx.store.clone();
            let (ledger_index, treasury) = blocking(move || {
                store.treasury().map_err(|e| {
                    Status::unavailable(format!("error accessing the UTXO ledger: {e}"))
                })
            })
            .await?;
            let output = proto::TreasuryOutput {
                milestone_id: Some(convert::milestone_id(&treasury.milestone_id)),
                amount: treasury.amount,
            };
            out.send(TreasuryUpdate {
                milestone_index: ledger_index,
                created: Some(output.clone()),
                consumed: Some(output),
            })
            .await?;
            range.sent_up_to(ledger_index);
            // No milestone changes the treasury here: only the range's end matters.
            ranged::follow(range, &out, &mut events, |_, _| ready(Ok(())), |_| ready(Ok(()))).await
        },
    ))
}

pub async fn read_output(
    ctx: &Arc<Context>,
    request: proto::OutputId,
) -> Result<Response<proto::OutputResponse>, Status> {
    let id = convert::id::<34>(&request.id);
    let store = ctx.store.clone();
    let found = blocking(move || {
        store.output_state(&id).map_err(|e| status::internal("reading the output", e))
    })
    .await?;
    // Hornet answers an unknown output with its storage's "key not found", a plain error
    // (UNKNOWN); kept for clients that look at the code.
    let (ledger_index, state) =
        found.ok_or_else(|| Status::unknown(format!("output 0x{} not found", hex::encode(id))))?;
    let payload = match state {
        OutputState::Unspent(o) => {
            proto::output_response::Payload::Output(convert::ledger_output(&o))
        }
        OutputState::Spent(s) => proto::output_response::Payload::Spent(convert::ledger_spent(&s)),
    };
    Ok(Response::new(proto::OutputResponse { ledger_index, payload: Some(payload) }))
}

/// The receipt of every milestone that carries one, as it is applied. Dev networks have no
/// receipts: the stream then sends nothing and stays open.
pub fn listen_to_migration_receipts(
    ctx: &Arc<Context>,
) -> Response<ResponseStream<proto::RawReceipt>> {
    streams::spawn_listening(
        ctx,
        "ListenToMigrationReceipts",
        Kinds::MILESTONES,
        move |out, mut events| async move {
            loop {
                let event = out.next_event(&mut events).await?;
                let StoreEvent::MilestoneCommitted(m) = &*event else { continue };
                let payload = decode_milestone_payload(&m.payload)
                    .map_err(|e| status::internal("decoding a committed milestone", e))?;
                for option in &payload.options {
                    if matches!(option, MilestoneOption::Receipt(_)) {
                        out.send(proto::RawReceipt { data: encode_milestone_option(option) })
                            .await?;
                    }
                }
            }
        },
    )
}
