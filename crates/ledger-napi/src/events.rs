//! The store's event feed for JavaScript (events.md §7): `LedgerStore.onEvents(callback)`
//! hands every event of `ledger_store::events` to `callback` on the main thread, in commit
//! order, through a threadsafe function (no polling). The store only queues the Rust value;
//! it becomes JavaScript values here, on the event loop, one call per intake batch or
//! milestone. The function is weak: it never keeps Node running by itself.

use crate::errors::{to_napi, Result};
use crate::store::LedgerStore;
use ledger_core::json::hex;
use ledger_core::Code;
use ledger_store::events::{
    AppliedTransaction, CommittedMilestone, OutputChange, StoreEvent, StoredBlock,
};
use napi::bindgen_prelude::{Buffer, Function, Unknown};
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;

#[napi(object)]
pub struct StoredBlockEvent {
    pub block_id: String,
    pub bytes: Buffer,
    /// The block metadata object of `GET …/blocks/{blockId}/metadata` after the write.
    pub metadata_json: String,
    /// Payload type code, 0 without a payload.
    pub payload_type: u32,
    /// 0x-hex tag of a tagged-data payload (also inside a transaction); null without one.
    pub tag: Option<String>,
}

/// A block and a JSON text about it: a referenced block's metadata (in a milestone), or a
/// tip's `tip-score-updates` payload (`ledger_store::metadata::tip_update_json`).
#[napi(object)]
pub struct BlockJsonEvent {
    pub block_id: String,
    pub metadata_json: String,
}

fn block_json_js(block_id: &[u8; 32], metadata_json: String) -> BlockJsonEvent {
    BlockJsonEvent { block_id: hex(block_id), metadata_json }
}

#[napi(object)]
pub struct UnlockAddress {
    /// The unlock condition's type code (0 address, 1 storage deposit return, 3
    /// expiration, 4 state controller, 5 governor, 6 immutable alias).
    pub condition: u32,
    /// Bech32 with the network's HRP.
    pub address: String,
}

#[napi(object)]
pub struct OutputChangeEvent {
    pub output_id: String,
    pub output: Buffer,
    /// The output metadata object (api.md §2.9) as of this milestone.
    pub metadata_json: String,
    pub unlock_addresses: Vec<UnlockAddress>,
    /// Output type code of an alias (4), foundry (5) or NFT (6) output; null otherwise.
    pub chain_type: Option<u32>,
    /// Its 0x-hex alias, foundry or NFT id (derived when the output starts the chain).
    pub chain_id: Option<String>,
}

#[napi(object)]
pub struct AppliedTransactionEvent {
    pub transaction_id: String,
    /// The block that carries it.
    pub block_id: String,
    /// Spent inputs, in input order.
    pub consumed: Vec<OutputChangeEvent>,
    /// Created outputs, in output order.
    pub created: Vec<OutputChangeEvent>,
}

#[napi(object)]
pub struct MilestoneCommittedEvent {
    pub index: u32,
    pub timestamp: u32,
    pub milestone_id: String,
    pub block: StoredBlockEvent,
    /// The milestone payload's bytes, type code first.
    pub payload: Buffer,
    /// Every referenced block, in white-flag order.
    pub referenced: Vec<BlockJsonEvent>,
    /// Applied transactions, in white-flag order.
    pub transactions: Vec<AppliedTransactionEvent>,
}

/// Exactly one of the fields is set.
#[napi(object)]
pub struct StoreEventJs {
    /// The blocks one intake batch stored, in write order.
    pub blocks: Option<Vec<StoredBlockEvent>>,
    pub milestone: Option<MilestoneCommittedEvent>,
    /// How the write just delivered changed the tips (events.md §3 `tip-score-updates`):
    /// blocks that entered the tip candidates, then those that left.
    pub tips: Option<Vec<BlockJsonEvent>>,
}

fn block_js(b: StoredBlock) -> StoredBlockEvent {
    StoredBlockEvent {
        block_id: hex(&b.block_id),
        bytes: b.bytes.into(),
        metadata_json: b.metadata_json,
        payload_type: b.payload_type,
        tag: b.tag.map(|t| hex(&t)),
    }
}

fn output_js(o: OutputChange) -> OutputChangeEvent {
    let (chain_type, chain_id) = match o.chain {
        Some((kind, id)) => (Some(kind as u32), Some(hex(&id))),
        None => (None, None),
    };
    OutputChangeEvent {
        output_id: hex(&o.output_id),
        output: o.output.into(),
        metadata_json: o.metadata_json,
        unlock_addresses: o
            .unlock_addresses
            .into_iter()
            .map(|(condition, address)| UnlockAddress { condition: condition as u32, address })
            .collect(),
        chain_type,
        chain_id,
    }
}

fn transaction_js(t: AppliedTransaction) -> AppliedTransactionEvent {
    AppliedTransactionEvent {
        transaction_id: hex(&t.transaction_id),
        block_id: hex(&t.block_id),
        consumed: t.consumed.into_iter().map(output_js).collect(),
        created: t.created.into_iter().map(output_js).collect(),
    }
}

fn milestone_js(m: CommittedMilestone) -> MilestoneCommittedEvent {
    MilestoneCommittedEvent {
        index: m.index,
        timestamp: m.timestamp,
        milestone_id: hex(&m.milestone_id),
        block: block_js(m.block),
        payload: m.payload.into(),
        referenced: m
            .referenced
            .into_iter()
            .map(|r| block_json_js(&r.block_id, r.metadata_json))
            .collect(),
        transactions: m.transactions.into_iter().map(transaction_js).collect(),
    }
}

fn event_js(event: StoreEvent) -> StoreEventJs {
    match event {
        StoreEvent::BlocksStored(blocks) => StoreEventJs {
            blocks: Some(blocks.into_iter().map(block_js).collect()),
            milestone: None,
            tips: None,
        },
        StoreEvent::MilestoneCommitted(m) => {
            StoreEventJs { blocks: None, milestone: Some(milestone_js(*m)), tips: None }
        }
        StoreEvent::TipsChanged(changes) => StoreEventJs {
            blocks: None,
            milestone: None,
            tips: Some(
                changes
                    .updates
                    .into_iter()
                    .map(|u| block_json_js(&u.block_id, u.metadata_json))
                    .collect(),
            ),
        },
    }
}

#[napi]
impl LedgerStore {
    /// Deliver the store's events to `callback` from now on (replacing an earlier one).
    /// Events are built only while `setEventsActive(true)`. The callback must not throw.
    #[napi(ts_args_type = "callback: (event: StoreEventJs) => void")]
    pub fn on_events(&self, callback: Function<'_, StoreEventJs, Unknown<'static>>) -> Result<()> {
        let tsfn = callback
            .build_threadsafe_function::<StoreEvent>()
            .callee_handled::<false>()
            .weak::<true>()
            .build_callback(|ctx| Ok(event_js(ctx.value)))
            .map_err(|e| {
                to_napi(ledger_core::Error::new(Code::BindingFailure, "", e.to_string()))
            })?;
        self.get()?.set_event_listener(Some(Box::new(move |event| {
            // Non-blocking: the queue is unbounded, and the store's lock is held here.
            tsfn.call(event, ThreadsafeFunctionCallMode::NonBlocking);
        })));
        Ok(())
    }

    /// Build events (true) or skip that work while nobody listens (false).
    #[napi]
    pub fn set_events_active(&self, active: bool) -> Result<()> {
        self.get()?.set_events_active(active);
        Ok(())
    }
}
