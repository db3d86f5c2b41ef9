//! Indexer queries (indexer.md §2–§3): the filters, how each kind's part of a query reads
//! the indexes, and one page of output ids in sort-key order from one snapshot.
//!
//! Plan per kind: every address-like filter (and the tag, and holding native tokens) is a
//! range of `indexer_fields`; `unlockableByAddress` is the union of the ranges of the
//! fields that can unlock that kind; the ranges are intersected by leapfrogging. Filters
//! no field range answers (flags, times, counts) are checked against the output's record
//! in `indexer_outputs`; without any field range the query walks that family for the
//! kind. Created-time bounds narrow every range. The combined route merges the kinds.

use super::entry::{IndexedOutput, OutputKind};
use super::fields::{self, AddressField, Field};
use super::outputs::{self, IndexerOutputs};
use super::scan::{Intersection, Range, Union};
use super::sort_key::SortKey;
use crate::columns::{TypedColumn, INDEXER_FIELDS, INDEXER_OUTPUTS};
use crate::db::Snapshot;
use crate::storage_error;
use ledger_core::json::extend_hex;
use ledger_core::model::{Address, OutputId};
use ledger_core::Result;
use std::collections::VecDeque;
use std::io::Write;

/// The conditions of indexer.md §2.1; None = not asked. All must hold. Their query
/// parameters, kinds and routes are listed in `filters.rs`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputFilter {
    pub unlockable_by_address: Option<Address>,
    pub address: Option<Address>,
    pub has_storage_deposit_return: Option<bool>,
    pub storage_deposit_return_address: Option<Address>,
    pub has_timelock: Option<bool>,
    pub timelocked_before: Option<u32>,
    pub timelocked_after: Option<u32>,
    pub has_expiration: Option<bool>,
    pub expires_before: Option<u32>,
    pub expires_after: Option<u32>,
    pub expiration_return_address: Option<Address>,
    pub sender: Option<Address>,
    pub issuer: Option<Address>,
    /// 1 to 64 bytes.
    pub tag: Option<Vec<u8>>,
    pub state_controller: Option<Address>,
    pub governor: Option<Address>,
    pub alias_address: Option<Address>,
    pub has_native_tokens: Option<bool>,
    pub min_native_token_count: Option<u32>,
    pub max_native_token_count: Option<u32>,
    pub created_before: Option<u32>,
    pub created_after: Option<u32>,
}

impl OutputFilter {
    /// Whether an output with these fields, created at `created`, meets every condition.
    pub fn matches(&self, e: &IndexedOutput, created: u32) -> bool {
        fn equal(asked: &Option<Address>, held: Option<Address>) -> bool {
            asked.is_none() || *asked == held
        }
        fn presence<T>(asked: Option<bool>, held: &Option<T>) -> bool {
            asked.is_none_or(|present| present == held.is_some())
        }
        fn time(held: Option<u32>, before: Option<u32>, after: Option<u32>) -> bool {
            before.is_none_or(|b| held.is_some_and(|t| t < b))
                && after.is_none_or(|a| held.is_some_and(|t| t > a))
        }
        let expiration_time = e.expiration.map(|(_, t)| t);
        let tokens = e.native_tokens as u32;
        self.unlockable_by_address.is_none_or(|a| e.unlockable_by(&a))
            && equal(&self.address, e.address)
            && presence(self.has_storage_deposit_return, &e.storage_deposit_return)
            && equal(&self.storage_deposit_return_address, e.storage_deposit_return)
            && presence(self.has_timelock, &e.timelock)
            && time(e.timelock, self.timelocked_before, self.timelocked_after)
            && presence(self.has_expiration, &e.expiration)
            && time(expiration_time, self.expires_before, self.expires_after)
            && equal(&self.expiration_return_address, e.expiration.map(|(a, _)| a))
            && equal(&self.sender, e.sender)
            && equal(&self.issuer, e.issuer)
            && self.tag.as_ref().is_none_or(|t| e.tag.as_ref() == Some(t))
            && equal(&self.state_controller, e.state_controller)
            && equal(&self.governor, e.governor)
            && equal(&self.alias_address, e.alias_address)
            && self.has_native_tokens.is_none_or(|has| has == (tokens > 0))
            && self.min_native_token_count.is_none_or(|min| tokens >= min)
            && self.max_native_token_count.is_none_or(|max| tokens <= max)
            && self.created_before.is_none_or(|b| created < b)
            && self.created_after.is_none_or(|a| created > a)
    }

    /// Filters that no field range answers, so candidates must be checked against their
    /// record (created time is a bound of every range, never checked afterwards).
    fn needs_record(&self) -> bool {
        self.has_storage_deposit_return.is_some()
            || self.has_timelock.is_some()
            || self.timelocked_before.is_some()
            || self.timelocked_after.is_some()
            || self.has_expiration.is_some()
            || self.expires_before.is_some()
            || self.expires_after.is_some()
            || self.has_native_tokens == Some(false)
            || self.min_native_token_count.is_some_and(|min| min > 1)
            || self.max_native_token_count.is_some()
    }

    /// The field ranges this filter reads for one kind, each a union of field values;
    /// None when no output of the kind can match (e.g. foundries unlocked by an Ed25519
    /// address).
    fn field_ranges(&self, kind: OutputKind) -> Option<Vec<Vec<Field>>> {
        let mut ranges = Vec::new();
        if let Some(a) = self.unlockable_by_address {
            // The unlock conditions each kind can carry (TIP-18).
            let union = match kind {
                OutputKind::Basic | OutputKind::Nft => vec![
                    Field::Address(a),
                    Field::StorageDepositReturn(a),
                    Field::ExpirationReturn(a),
                ],
                OutputKind::Alias => vec![Field::StateController(a), Field::Governor(a)],
                OutputKind::Foundry if matches!(a, Address::Alias(_)) => {
                    vec![Field::AliasAddress(a)]
                }
                OutputKind::Foundry => return None,
            };
            ranges.push(union);
        }
        let single: [(Option<Address>, AddressField); 8] = [
            (self.address, Field::Address),
            (self.storage_deposit_return_address, Field::StorageDepositReturn),
            (self.expiration_return_address, Field::ExpirationReturn),
            (self.sender, Field::Sender),
            (self.issuer, Field::Issuer),
            (self.state_controller, Field::StateController),
            (self.governor, Field::Governor),
            (self.alias_address, Field::AliasAddress),
        ];
        ranges.extend(single.into_iter().filter_map(|(a, field)| a.map(|a| vec![field(a)])));
        if let Some(tag) = &self.tag {
            ranges.push(vec![Field::Tag(tag.clone())]);
        }
        if self.has_native_tokens == Some(true)
            || self.min_native_token_count.is_some_and(|min| min >= 1)
        {
            ranges.push(vec![Field::NativeTokens]);
        }
        Some(ranges)
    }
}

/// Which outputs a route lists: one kind, or all four merged (`/outputs`, §2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputsOf {
    AllKinds,
    Kind(OutputKind),
}

#[derive(Clone, Debug)]
pub struct OutputQuery {
    pub of: OutputsOf,
    pub filter: OutputFilter,
    /// The first key of the page (a cursor, §3.3); None = from the start.
    pub cursor: Option<SortKey>,
    /// Items per page, at least 1.
    pub page_size: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPage {
    pub ledger_index: u32,
    pub page_size: u32,
    pub items: Vec<OutputId>,
    /// The first item of the next page, when more follow.
    pub next: Option<SortKey>,
}

impl OutputPage {
    /// The response body of indexer.md §3.1, keys in order, cursor only when more follow.
    pub fn to_json(&self) -> String {
        String::from_utf8(self.to_json_bytes()).expect("the page is ASCII")
    }

    /// The same body as bytes, as the HTTP answer sends it (no text conversion on the way).
    pub fn to_json_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(96 + 71 * self.items.len());
        let _ =
            write!(out, "{{\"ledgerIndex\":{},\"pageSize\":{}", self.ledger_index, self.page_size);
        if let Some(next) = &self.next {
            let _ = write!(out, ",\"cursor\":\"{}.{}\"", next.to_hex(), self.page_size);
        }
        out.extend_from_slice(b",\"items\":[");
        for (i, id) in self.items.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            extend_hex(&mut out, id);
            out.push(b'"');
        }
        out.extend_from_slice(b"]}");
        out
    }
}

/// Where a kind's candidates come from.
enum Source<'s> {
    /// Every output of the kind, in order, with its record.
    Walk(Range<'s>),
    /// Candidates from field ranges: all of them match, or (`check_record`) each is
    /// checked against its record, read in batches.
    Fields { keys: Intersection<'s>, check_record: bool },
}

/// Candidates whose records are read together (RocksDB batches the block lookups): the
/// first batch is small (a page of one item needs few), each next one twice as large.
const FIRST_RECORD_BATCH: usize = 8;
const MAX_RECORD_BATCH: usize = 256;

/// One kind's part of a query: its matching sort keys in order.
struct KindScan<'s, 'q> {
    kind: OutputKind,
    source: Source<'s>,
    snapshot: &'s Snapshot<'s>,
    filter: &'q OutputFilter,
    /// Matches found ahead (record checks), ascending.
    ahead: VecDeque<SortKey>,
    /// Where the candidates not yet looked at begin; None when they are all used up.
    next_candidate: Option<SortKey>,
    record_batch: usize,
}

impl KindScan<'_, '_> {
    /// The first match ≥ target; targets never go backwards.
    fn seek(&mut self, target: &SortKey) -> Result<Option<SortKey>> {
        loop {
            while self.ahead.front().is_some_and(|k| k < target) {
                self.ahead.pop_front();
            }
            if let Some(found) = self.ahead.front() {
                return Ok(Some(*found));
            }
            let Some(from) = self.next_candidate else { return Ok(None) };
            let from = from.max(*target);
            self.fill(from)?;
        }
    }

    /// Look at the candidates from `from` on until at least one match is found or a batch
    /// of candidates has been checked.
    fn fill(&mut self, from: SortKey) -> Result<()> {
        let mut at = Some(from);
        let mut unchecked = Vec::new();
        while let Some(target) = at {
            let key = match &mut self.source {
                Source::Walk(range) => match range.seek(&target)? {
                    None => None,
                    Some(key) => {
                        let record = range
                            .value()
                            .ok_or_else(|| storage_error("indexer walk lost its position"))?;
                        if self
                            .filter
                            .matches(&IndexerOutputs::decode_value(record)?, key.created())
                        {
                            self.ahead.push_back(key);
                        }
                        Some(key)
                    }
                },
                Source::Fields { keys, check_record } => match keys.seek(&target)? {
                    None => None,
                    Some(key) if !*check_record => {
                        self.ahead.push_back(key);
                        Some(key)
                    }
                    Some(key) => {
                        unchecked.push(key);
                        Some(key)
                    }
                },
            };
            at = key.and_then(|k| k.successor());
            let walked_enough = matches!(self.source, Source::Walk(_)) && !self.ahead.is_empty();
            if unchecked.len() == self.record_batch
                || walked_enough
                || matches!(self.source, Source::Fields { check_record: false, .. })
            {
                break;
            }
        }
        self.next_candidate = at;
        if !unchecked.is_empty() {
            self.record_batch = (self.record_batch * 2).min(MAX_RECORD_BATCH);
            let keys: Vec<Vec<u8>> = unchecked.iter().map(|k| outputs::key(self.kind, k)).collect();
            for (key, record) in
                unchecked.iter().zip(self.snapshot.multi_get(INDEXER_OUTPUTS, &keys, true)?)
            {
                let record = record.ok_or_else(|| {
                    storage_error(format!(
                        "indexed output 0x{} has no indexer record",
                        hex::encode(key.output_id())
                    ))
                })?;
                if self.filter.matches(&IndexerOutputs::decode_value(&record)?, key.created()) {
                    self.ahead.push_back(*key);
                }
            }
        }
        Ok(())
    }
}

/// One page of the query's answer, read from `snapshot` whose ledger index is given.
pub fn run(snapshot: &Snapshot<'_>, query: &OutputQuery, ledger_index: u32) -> Result<OutputPage> {
    let page_size = query.page_size.max(1);
    let filter = &query.filter;
    let empty = OutputPage { ledger_index, page_size, items: Vec::new(), next: None };
    // Created-time bounds: [after + 1, before) as sort keys.
    let mut lower = query.cursor.unwrap_or(SortKey::MIN);
    if let Some(after) = filter.created_after {
        let Some(first) = after.checked_add(1) else { return Ok(empty) };
        lower = lower.max(SortKey::first_at(first));
    }
    let upper = filter.created_before.map(SortKey::first_at);
    if upper.is_some_and(|u| lower >= u) {
        return Ok(empty);
    }
    let kinds: Vec<OutputKind> = match query.of {
        OutputsOf::AllKinds => OutputKind::ALL.to_vec(),
        OutputsOf::Kind(kind) => vec![kind],
    };
    let check_record = filter.needs_record();
    let mut scans = Vec::with_capacity(kinds.len());
    for kind in kinds {
        let Some(field_ranges) = filter.field_ranges(kind) else { continue };
        let source = if field_ranges.is_empty() {
            Source::Walk(Range::new(snapshot, INDEXER_OUTPUTS, vec![kind.code()], upper.as_ref()))
        } else {
            let unions = field_ranges
                .iter()
                .map(|union| {
                    Union::new(
                        union
                            .iter()
                            .map(|field| {
                                Range::new(
                                    snapshot,
                                    INDEXER_FIELDS,
                                    fields::prefix(kind, field),
                                    upper.as_ref(),
                                )
                            })
                            .collect(),
                    )
                })
                .collect();
            Source::Fields { keys: Intersection::new(unions), check_record }
        };
        scans.push(KindScan {
            kind,
            source,
            snapshot,
            filter,
            ahead: VecDeque::new(),
            next_candidate: Some(lower),
            record_batch: FIRST_RECORD_BATCH,
        });
    }

    let mut page = empty;
    let mut at = lower;
    loop {
        // The smallest match of any kind (sort keys of different kinds never collide).
        let mut next: Option<SortKey> = None;
        for scan in &mut scans {
            if let Some(key) = scan.seek(&at)? {
                next = Some(next.map_or(key, |n| n.min(key)));
            }
        }
        let Some(key) = next else { break };
        if page.items.len() == page_size as usize {
            page.next = Some(key);
            break;
        }
        page.items.push(key.output_id());
        match key.successor() {
            Some(successor) => at = successor,
            None => break,
        }
    }
    Ok(page)
}
