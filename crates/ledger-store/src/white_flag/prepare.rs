//! Everything the white flag needs of a milestone's blocks that does not depend on the
//! order it applies them in: each block read and decoded, and for each transaction its id,
//! its essence hash, whether its signatures verify, and what the ledger held for each of
//! its inputs before this milestone. The ledger does not change while a milestone is
//! confirmed (the caller holds the issuing lock; only the commit writes outputs), so these
//! reads give the same answers as reads made during the walk.
//!
//! This is most of a transfer's cost (Ed25519 above all), and it is done for all blocks at
//! once on up to one thread per core, before the sequential pass of §7.2. Signatures
//! checked since the block was stored (`signatures_ahead`) are not checked again.

use crate::columns::BLOCKS;
use crate::db::Db;
use crate::ledger;
use crate::signatures_ahead::{SignaturesAhead, Use};
use crate::storage_error;
use ledger_core::codec::{decode_block, decode_output};
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::validate::Prechecked;
use ledger_core::Result;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

pub enum PreparedBlock {
    NoTransaction,
    Transaction(PreparedTransaction),
}

pub struct PreparedTransaction {
    pub tx: Box<TransactionPayload>,
    pub transaction_id: Id32,
    pub pre: Prechecked,
    /// Per input, in input order: the ledger before this milestone.
    pub stored: Vec<StoredInput>,
}

// Most inputs are `Found`: boxing the output would cost each an allocation on the hot path.
#[allow(clippy::large_enum_variant)]
pub enum StoredInput {
    /// Not a UTXO input (the walk judges it).
    NotUtxo,
    /// No such output in the ledger (it may still be created earlier in the walk).
    Missing,
    /// The output, decoded (an error is reported only if the walk needs it), and whether it
    /// was unspent.
    Found { output: Result<Output>, unspent: bool },
}

/// Blocks per claim of a worker: large enough that the shared counter is not contended,
/// small enough that two workers end together.
const CHUNK: usize = 16;

/// Below this many blocks, starting threads costs more than it saves.
const PARALLEL_FROM: usize = 2 * CHUNK;

/// The machine's cores, asked once: the standard library reads the cgroup's CPU quota from
/// files each time, and asked per milestone that was 4 % of a warp sync's intake.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Prepare every block of `order`, in order.
pub fn prepare(
    db: &Db,
    ahead: (&SignaturesAhead, Use),
    order: &[Id32],
) -> Result<Vec<PreparedBlock>> {
    let workers = cores().min(order.len().div_ceil(CHUNK));
    if order.len() < PARALLEL_FROM || workers < 2 {
        return order.iter().map(|id| prepare_block(db, ahead, id)).collect();
    }
    // Each worker claims CHUNK blocks at a time and keeps what it prepared with the
    // blocks' positions; the results are put back in order at the end.
    let next = AtomicUsize::new(0);
    let mut prepared: Vec<(usize, Result<PreparedBlock>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    claims(&next, order.len())
                        .map(|i| (i, prepare_block(db, ahead, &order[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    prepared.sort_unstable_by_key(|(i, _)| *i);
    prepared.into_iter().map(|(_, p)| p).collect()
}

/// The positions a worker prepares: chunks of CHUNK claimed from `next` until none is left.
fn claims(next: &AtomicUsize, len: usize) -> impl Iterator<Item = usize> + '_ {
    std::iter::from_fn(move || {
        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
        (start < len).then(|| start..(start + CHUNK).min(len))
    })
    .flatten()
}

fn prepare_block(
    db: &Db,
    (ahead, mode): (&SignaturesAhead, Use),
    block_id: &Id32,
) -> Result<PreparedBlock> {
    let bytes = db.get(BLOCKS, block_id)?.ok_or_else(|| {
        storage_error(format!("block 0x{} is pending but not stored", hex::encode(block_id)))
    })?;
    let block = decode_block(&bytes).map_err(|e| {
        storage_error(format!("stored block 0x{} does not decode: {e}", hex::encode(block_id)))
    })?;
    let parents = block.parents.len();
    let Some(Payload::Transaction(tx)) = block.payload else {
        return Ok(PreparedBlock::NoTransaction);
    };
    let transaction_id = ids::transaction_id_in_block(&bytes, parents);
    debug_assert_eq!(transaction_id, ids::transaction_id(&tx));
    let pre = ahead.prechecked(&transaction_id, &tx, mode);
    let mut stored = Vec::with_capacity(tx.essence.inputs.len());
    for input in &tx.essence.inputs {
        let Input::Utxo { transaction_id, output_index } = input else {
            stored.push(StoredInput::NotUtxo);
            continue;
        };
        let id = ids::output_id(transaction_id, *output_index);
        stored.push(match ledger::output(db, &id)? {
            None => StoredInput::Missing,
            Some(record) => StoredInput::Found {
                output: decode_output(&record.output).map_err(|e| {
                    storage_error(format!(
                        "stored output 0x{} does not decode: {e}",
                        hex::encode(id)
                    ))
                }),
                unspent: ledger::is_unspent(db, &id)?,
            },
        });
    }
    Ok(PreparedBlock::Transaction(PreparedTransaction { tx, transaction_id, pre, stored }))
}
