//! The store's event feed (events.md §5, §7, D37): what an atomic write has just changed,
//! handed to one listener while the write's lock is still held, so that listeners see
//! changes in commit order whichever thread or door (HTTP, gossip, a peer's milestone)
//! caused them. Nothing is read back from storage per listener: each event carries what
//! the event API's payloads and topics need.
//!
//! Three events, batched so that a busy node hands over few of them: the blocks one intake
//! batch stored, one committed milestone with everything it changed in white-flag order,
//! and the tip candidates either of them added or removed. Events are built only while the
//! feed is active (a listener is set and wants them, or a subscriber is registered): an
//! idle feed costs one atomic load per write.
//!
//! Two kinds of taker: the one listener of `set_listener` (the event API through the
//! binding), which gets each event as an owned value, and any number of subscribers
//! (`subscribe`, the INX server's streams), which share one `Arc` of it. Both are called
//! with the store's lock held and must only queue. Tip changes are built and handed over
//! only while a subscriber is registered, and only to subscribers.

use crate::records::{OutputRecord, SpentRecord};
use crate::views::{BlockMetadata, Booking};
use crate::{metadata, storage_error};
use ledger_core::bech32;
use ledger_core::codec::decode_output;
use ledger_core::ids;
use ledger_core::model::{Block, Id32, Output, OutputId, Payload, UnlockCondition};
use ledger_core::Result;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// A block just written by intake or as a milestone's block.
#[derive(Clone)]
pub struct StoredBlock {
    pub block_id: Id32,
    pub bytes: Vec<u8>,
    /// The block metadata object of `GET …/blocks/{id}/metadata` right after the write.
    pub metadata_json: String,
    /// The same metadata as values.
    pub metadata: BlockMetadata,
    /// The payload's type code; 0 without a payload.
    pub payload_type: u32,
    /// The tag of a tagged-data payload, or of the tagged-data payload inside a
    /// transaction's essence; None when there is no such payload.
    pub tag: Option<Vec<u8>>,
}

/// A block a milestone references, with its new metadata object.
#[derive(Clone)]
pub struct ReferencedBlock {
    pub block_id: Id32,
    pub metadata_json: String,
    /// The same metadata as values.
    pub metadata: BlockMetadata,
}

/// An output created or spent by an applied transaction.
#[derive(Clone)]
pub struct OutputChange {
    pub output_id: OutputId,
    /// The serialized output.
    pub output: Vec<u8>,
    /// Where and when it was booked (for a created output: this milestone).
    pub booked: Booking,
    /// Its metadata object (api.md §2.9) as of the milestone that changed it.
    pub metadata_json: String,
    /// (unlock condition type code, bech32 address) for every unlock condition that holds
    /// an address, in the output's order (which is the type-code order).
    pub unlock_addresses: Vec<(u8, String)>,
    /// (output type code, chain id) of an alias, foundry or NFT output; a zero alias or NFT
    /// id is replaced by the one derived from the output id (indexer.md §2.3).
    pub chain: Option<(u8, Vec<u8>)>,
}

/// One transaction the milestone applied: its spent inputs in input order, its outputs
/// in output order.
#[derive(Clone)]
pub struct AppliedTransaction {
    pub transaction_id: Id32,
    /// The block that carries it (its included block).
    pub block_id: Id32,
    pub consumed: Vec<OutputChange>,
    pub created: Vec<OutputChange>,
}

#[derive(Clone)]
pub struct CommittedMilestone {
    pub index: u32,
    pub timestamp: u32,
    pub milestone_id: Id32,
    /// The milestone's own block, as stored by the commit.
    pub block: StoredBlock,
    /// The milestone payload's bytes, type code first.
    pub payload: Vec<u8>,
    /// Every block the milestone references, in white-flag order.
    pub referenced: Vec<ReferencedBlock>,
    /// The applied transactions, in white-flag order.
    pub transactions: Vec<AppliedTransaction>,
}

/// The tip candidates (ledger.md §5: blocks healthy when attached that no such block
/// approves yet) that one write added and removed, in that order. A block attached healthy
/// is added; its parents leave when it is their first healthy child; a milestone removes
/// the tips it references and those it leaves below max depth, and a parent whose last
/// healthy child went below max depth comes back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TipChanges {
    pub added: Vec<Id32>,
    pub removed: Vec<Id32>,
    /// For the event API's `tip-score-updates` (events.md §3): each block of `added`, then
    /// of `removed`, with its metadata at the write as `metadata::tip_update_json` writes
    /// it. Filled only while the listener takes events; a block whose metadata is gone is
    /// left out.
    pub updates: Vec<TipUpdate>,
}

/// A block that entered or left the tip candidates, with its `tip-score-updates` payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TipUpdate {
    pub block_id: Id32,
    pub metadata_json: String,
}

impl TipChanges {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }
}

#[derive(Clone)]
pub enum StoreEvent {
    /// The blocks one intake batch stored, in the order they were written.
    BlocksStored(Vec<StoredBlock>),
    MilestoneCommitted(Box<CommittedMilestone>),
    /// After `BlocksStored` or `MilestoneCommitted`: how that write changed the tips.
    TipsChanged(TipChanges),
}

/// Called with the store's lock held: it must only hand the event over (queue it), never
/// call back into the store.
pub type EventListener = Box<dyn Fn(StoreEvent) + Send + Sync>;

/// A subscriber's side of the feed: the same rule as `EventListener`; the event is shared
/// by every subscriber.
pub type SharedListener = Box<dyn Fn(&Arc<StoreEvent>) + Send + Sync>;

/// Names a subscription, to end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubscriptionId(u64);

#[derive(Default)]
pub(crate) struct EventFeed {
    listener: RwLock<Option<EventListener>>,
    /// Whether the listener wants events now (`set_active`).
    listener_active: AtomicBool,
    subscribers: RwLock<Vec<(SubscriptionId, SharedListener)>>,
    next_subscription: AtomicU64,
    active: AtomicBool,
}

impl EventFeed {
    /// Build events only when someone takes them.
    pub fn active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    /// Whether a subscriber is registered.
    pub fn has_subscribers(&self) -> bool {
        !self.subscribers.read().unwrap_or_else(|p| p.into_inner()).is_empty()
    }

    /// Whether the listener takes events now (`set_active`).
    pub fn listener_active(&self) -> bool {
        self.listener_active.load(Ordering::Acquire)
    }

    pub fn emit(&self, event: StoreEvent) {
        // A listener that panicked cannot leave a slot half-written: each holds a Box.
        let listener = self.listener.read().unwrap_or_else(|p| p.into_inner());
        let subscribers = self.subscribers.read().unwrap_or_else(|p| p.into_inner());
        let to_listener =
            listener.as_ref().filter(|_| self.listener_active.load(Ordering::Acquire));
        if subscribers.is_empty() {
            if let Some(listen) = to_listener {
                listen(event);
            }
            return;
        }
        let shared = Arc::new(event);
        for (_, subscriber) in subscribers.iter() {
            subscriber(&shared);
        }
        if let Some(listen) = to_listener {
            // The subscribers keep their share queued, so the listener gets its own copy.
            listen(Arc::try_unwrap(shared).unwrap_or_else(|shared| (*shared).clone()));
        }
    }

    pub fn set_listener(&self, listener: Option<EventListener>) {
        let mut slot = self.listener.write().unwrap_or_else(|p| p.into_inner());
        if listener.is_none() {
            self.listener_active.store(false, Ordering::Release);
        }
        *slot = listener;
        drop(slot);
        self.update_active();
    }

    /// Turn event building for the listener on or off (only while a listener is set).
    pub fn set_active(&self, active: bool) {
        let slot = self.listener.read().unwrap_or_else(|p| p.into_inner());
        self.listener_active.store(active && slot.is_some(), Ordering::Release);
        drop(slot);
        self.update_active();
    }

    /// Hand every later event to `subscriber` as well, until `unsubscribe`. Events are
    /// built while any subscriber is registered.
    pub fn subscribe(&self, subscriber: SharedListener) -> SubscriptionId {
        let id = SubscriptionId(self.next_subscription.fetch_add(1, Ordering::Relaxed));
        self.subscribers.write().unwrap_or_else(|p| p.into_inner()).push((id, subscriber));
        self.update_active();
        id
    }

    pub fn unsubscribe(&self, id: SubscriptionId) {
        self.subscribers.write().unwrap_or_else(|p| p.into_inner()).retain(|(s, _)| *s != id);
        self.update_active();
    }

    fn update_active(&self) {
        let subscribers = self.subscribers.read().unwrap_or_else(|p| p.into_inner());
        let active = self.listener_active.load(Ordering::Acquire) || !subscribers.is_empty();
        self.active.store(active, Ordering::Release);
    }
}

/// The payload facts of a block the event API's block topics need.
pub(crate) fn payload_facts(block: &Block) -> (u32, Option<Vec<u8>>) {
    match &block.payload {
        None => (0, None),
        Some(Payload::TaggedData(t)) => (5, Some(t.tag.clone())),
        Some(Payload::Transaction(tx)) => match &tx.essence.payload {
            Some(Payload::TaggedData(t)) => (6, Some(t.tag.clone())),
            _ => (6, None),
        },
        Some(p) => (p.type_code(), None),
    }
}

/// The ledger changes of one milestone grouped per applied transaction, in white-flag
/// order. `created` and `consumed` are the white-flag walk's lists: each applied
/// transaction added its inputs to `consumed` and its outputs to `created`, one
/// transaction after the other, so consecutive runs of one transaction id are its share.
/// `consumed_record` finds a spent output's record (in storage, or created earlier in the
/// same milestone).
pub(crate) fn applied_transactions(
    hrp: &str,
    ledger_index: u32,
    created: &[(OutputId, OutputRecord)],
    consumed: &[(OutputId, SpentRecord)],
    mut consumed_record: impl FnMut(&OutputId) -> Result<OutputRecord>,
) -> Result<Vec<AppliedTransaction>> {
    let mut transactions: Vec<AppliedTransaction> = Vec::new();
    for (id, record) in created {
        let transaction_id: Id32 =
            id[..32].try_into().expect("an output id starts with its transaction id");
        if transactions.last().is_none_or(|t| t.transaction_id != transaction_id) {
            transactions.push(AppliedTransaction {
                transaction_id,
                block_id: record.block_id,
                consumed: Vec::new(),
                created: Vec::new(),
            });
        }
        let change = output_change(hrp, id, record, None, ledger_index, true)?;
        transactions.last_mut().expect("pushed above").created.push(change);
    }
    let mut at = 0;
    for (id, spent) in consumed {
        while at < transactions.len() && transactions[at].transaction_id != spent.transaction_id {
            at += 1;
        }
        let Some(transaction) = transactions.get_mut(at) else {
            return Err(storage_error(format!(
                "output 0x{} is spent by a transaction that created nothing",
                hex::encode(id)
            )));
        };
        let record = consumed_record(id)?;
        transaction.consumed.push(output_change(
            hrp,
            id,
            &record,
            Some(spent),
            ledger_index,
            false,
        )?);
    }
    Ok(transactions)
}

fn output_change(
    hrp: &str,
    id: &OutputId,
    record: &OutputRecord,
    spent: Option<&SpentRecord>,
    ledger_index: u32,
    with_chain: bool,
) -> Result<OutputChange> {
    let output = decode_output(&record.output).map_err(|e| {
        storage_error(format!("stored output 0x{} does not decode: {e}", hex::encode(id)))
    })?;
    let unlock_addresses = output
        .unlock_conditions()
        .iter()
        .filter_map(|uc| {
            let (code, address) = match uc {
                UnlockCondition::Address(a) => (0, a),
                UnlockCondition::StorageDepositReturn { return_address, .. } => (1, return_address),
                UnlockCondition::Expiration { return_address, .. } => (3, return_address),
                UnlockCondition::StateControllerAddress(a) => (4, a),
                UnlockCondition::GovernorAddress(a) => (5, a),
                UnlockCondition::ImmutableAliasAddress(a) => (6, a),
                UnlockCondition::Timelock { .. } => return None,
            };
            Some((code, bech32::encode_address(hrp, address)))
        })
        .collect();
    let chain = if with_chain { chain_id(id, &output) } else { None };
    Ok(OutputChange {
        output_id: *id,
        metadata_json: metadata::output_json(id, record, spent, ledger_index),
        output: record.output.clone(),
        booked: Booking {
            block_id: record.block_id,
            milestone_index: record.milestone_index,
            milestone_timestamp: record.milestone_timestamp,
        },
        unlock_addresses,
        chain,
    })
}

fn chain_id(output_id: &OutputId, output: &Output) -> Option<(u8, Vec<u8>)> {
    let or_derived =
        |id: &Id32| if *id == [0; 32] { ids::alias_id_from_output_id(output_id) } else { *id };
    match output {
        Output::Alias(a) => Some((4, or_derived(&a.alias_id).to_vec())),
        Output::Nft(n) => Some((
            6,
            if n.nft_id == [0; 32] { ids::nft_id_from_output_id(output_id) } else { n.nft_id }
                .to_vec(),
        )),
        Output::Foundry(f) => {
            let alias = f.unlock_conditions.iter().find_map(|uc| match uc {
                UnlockCondition::ImmutableAliasAddress(ledger_core::model::Address::Alias(id)) => {
                    Some(*id)
                }
                _ => None,
            })?;
            let scheme = match f.token_scheme {
                ledger_core::model::TokenScheme::Simple { .. } => 0,
            };
            Some((5, ids::foundry_id(&alias, f.serial_number, scheme).to_vec()))
        }
        Output::Basic(_) | Output::Treasury { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_core::codec::encode_output;
    use ledger_core::model::{Address, AliasOutput, BasicOutput};

    fn basic(address: Id32, ret: Option<Id32>) -> Vec<u8> {
        let mut unlock_conditions = vec![UnlockCondition::Address(Address::Ed25519(address))];
        if let Some(r) = ret {
            unlock_conditions.push(UnlockCondition::Expiration {
                return_address: Address::Ed25519(r),
                unix_time: 5,
            });
        }
        encode_output(&Output::Basic(BasicOutput {
            amount: 1_000_000,
            native_tokens: vec![],
            unlock_conditions,
            features: vec![],
        }))
    }

    fn record(output: Vec<u8>) -> OutputRecord {
        OutputRecord { block_id: [9; 32], milestone_index: 3, milestone_timestamp: 30, output }
    }

    #[test]
    fn changes_are_grouped_per_transaction_in_order() {
        let tx_a = [0xa; 32];
        let tx_b = [0xb; 32];
        let created = vec![
            (ids::output_id(&tx_a, 0), record(basic([1; 32], None))),
            (ids::output_id(&tx_a, 1), record(basic([2; 32], Some([3; 32])))),
            (ids::output_id(&tx_b, 0), record(basic([1; 32], None))),
        ];
        let spent = |tx: Id32| SpentRecord {
            transaction_id: tx,
            milestone_index: 3,
            milestone_timestamp: 30,
        };
        // tx_b spends tx_a's first output, created under the same milestone.
        let consumed = vec![([0; 34], spent(tx_a)), (ids::output_id(&tx_a, 0), spent(tx_b))];
        let mut looked_up = Vec::new();
        let txs = applied_transactions("tst", 3, &created, &consumed, |id| {
            looked_up.push(*id);
            Ok(record(basic([7; 32], None)))
        })
        .unwrap();
        assert_eq!(looked_up.len(), 2);
        assert_eq!(txs.len(), 2);
        assert_eq!(txs[0].transaction_id, tx_a);
        assert_eq!(txs[0].block_id, [9; 32]);
        assert_eq!((txs[0].consumed.len(), txs[0].created.len()), (1, 2));
        assert_eq!((txs[1].consumed.len(), txs[1].created.len()), (1, 1));
        assert_eq!(txs[1].consumed[0].output_id, ids::output_id(&tx_a, 0));
        let spent_json: serde_json::Value =
            serde_json::from_str(&txs[1].consumed[0].metadata_json).unwrap();
        assert_eq!(spent_json["isSpent"], true);
        assert_eq!(spent_json["transactionIdSpent"], format!("0x{}", hex::encode(tx_b)));
        assert_eq!(spent_json["ledgerIndex"], 3);
        let codes: Vec<u8> = txs[0].created[1].unlock_addresses.iter().map(|(c, _)| *c).collect();
        assert_eq!(codes, vec![0, 3]);
        assert_eq!(
            txs[0].created[1].unlock_addresses[0].1,
            bech32::encode_address("tst", &Address::Ed25519([2; 32]))
        );
        assert!(txs[0].created[0].chain.is_none());
    }

    #[test]
    fn a_spend_without_its_transaction_is_an_error() {
        let consumed = vec![(
            [0; 34],
            SpentRecord { transaction_id: [1; 32], milestone_index: 3, milestone_timestamp: 30 },
        )];
        assert!(applied_transactions("tst", 3, &[], &consumed, |_| Ok(record(basic(
            [7; 32], None
        ))))
        .is_err());
    }

    #[test]
    fn a_new_alias_gets_its_derived_id() {
        let alias = Output::Alias(AliasOutput {
            amount: 1,
            native_tokens: vec![],
            alias_id: [0; 32],
            state_index: 0,
            state_metadata: vec![],
            foundry_counter: 0,
            unlock_conditions: vec![
                UnlockCondition::StateControllerAddress(Address::Ed25519([1; 32])),
                UnlockCondition::GovernorAddress(Address::Ed25519([2; 32])),
            ],
            features: vec![],
            immutable_features: vec![],
        });
        let id = ids::output_id(&[5; 32], 1);
        let change =
            output_change("tst", &id, &record(encode_output(&alias)), None, 3, true).unwrap();
        assert_eq!(change.chain, Some((4, ids::alias_id_from_output_id(&id).to_vec())));
        assert_eq!(change.unlock_addresses.iter().map(|(c, _)| *c).collect::<Vec<_>>(), vec![4, 5]);
    }

    #[test]
    fn a_foundry_is_known_by_its_foundry_id() {
        use ledger_core::model::{FoundryOutput, TokenScheme};
        let foundry = Output::Foundry(FoundryOutput {
            amount: 1,
            native_tokens: vec![],
            serial_number: 3,
            token_scheme: TokenScheme::Simple {
                minted_tokens: [0; 32],
                melted_tokens: [0; 32],
                maximum_supply: [1; 32],
            },
            unlock_conditions: vec![UnlockCondition::ImmutableAliasAddress(Address::Alias(
                [8; 32],
            ))],
            features: vec![],
            immutable_features: vec![],
        });
        let change = output_change(
            "tst",
            &ids::output_id(&[5; 32], 0),
            &record(encode_output(&foundry)),
            None,
            3,
            true,
        )
        .unwrap();
        assert_eq!(change.chain, Some((5, ids::foundry_id(&[8; 32], 3, 0).to_vec())));
        assert_eq!(
            change.unlock_addresses,
            vec![(6, bech32::encode_address("tst", &Address::Alias([8; 32])))]
        );
        // Spent outputs carry no chain topic.
        let spent =
            SpentRecord { transaction_id: [6; 32], milestone_index: 3, milestone_timestamp: 30 };
        assert!(output_change(
            "tst",
            &ids::output_id(&[5; 32], 0),
            &record(encode_output(&foundry)),
            Some(&spent),
            3,
            false
        )
        .unwrap()
        .chain
        .is_none());
    }

    #[test]
    fn block_payload_facts() {
        use ledger_core::model::TaggedData;
        let block =
            |payload| Block { protocol_version: 2, parents: vec![[0; 32]], payload, nonce: 0 };
        assert_eq!(payload_facts(&block(None)), (0, None));
        assert_eq!(
            payload_facts(&block(Some(Payload::TaggedData(TaggedData {
                tag: vec![1, 2],
                data: vec![]
            })))),
            (5, Some(vec![1, 2]))
        );
    }
}
