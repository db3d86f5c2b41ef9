//! The store: one RocksDB database and the in-memory graph of unreferenced blocks, kept
//! in step under one lock.
//!
//! Lock discipline. `state` guards the graph and the counters; every write to RocksDB that
//! adds a block or applies a milestone happens while holding it, so memory and disk never
//! disagree. `issuing` serialises milestones (issued here or received from another
//! coordinator): the long part of a milestone — reading the ledger and checking every
//! transaction — runs without `state`, so block submissions go on meanwhile. They cannot
//! disturb it: the ledger only changes when a milestone commits, and the cone being
//! confirmed was fixed before the walk started.
//!
//! This file holds the `Store` itself, its options and `open`; each concern is an
//! `impl Store` block of its own: `intake` (blocks in), `tip_selection`, `milestones`
//! (issue, accept, commit), `checkpoints` (the coordinator's blocks before a milestone when
//! more tips wait than it can approve), `reads` (lookups and status), `views` (the same as
//! structured values), `white_flag_roots` (a milestone's roots computed without committing
//! it), `history` (the snapshot, entry point and pruning indexes), `load` (start-up) and
//! `events` (the event feed filled at the two commit points).

mod checkpoints;
mod events;
mod history;
mod intake;
mod load;
mod milestones;
mod open_marker;
mod reads;
mod snapshots;
#[cfg(feature = "synthetic-ledger")]
mod synthetic;
mod tip_selection;
mod views;
mod white_flag_roots;

pub use checkpoints::{Checkpoint, MAX_CHECKPOINTS};
pub use history::{HistoryTask, HistoryWork};
pub use open_marker::StartCheck;
pub use snapshots::SnapshotRequest;
#[cfg(feature = "synthetic-ledger")]
pub use synthetic::SyntheticChanges;

use crate::columns::{state_key, BLOCK_META, STATE};
use crate::db::{Db, DbOptions};
use crate::entry_points::SolidEntryPoints;
use crate::events::EventFeed;
use crate::graph::{ConeRoots, Graph};
use crate::history::HistoryIndexes;
use crate::initial_state::InitialState;
use crate::milestone::{CoordinatorKeys, MilestoneKeys};
use crate::origin::{GenesisStyle, Origin};
use crate::prune::Pruning;
use crate::records::{array_at, BlockMeta};
use crate::signatures_ahead::SignaturesAhead;
use crate::signed_milestones::SignedMilestones;
use crate::snapshot::{self, WrittenSnapshot};
use crate::storage_error;
use crate::tips::TipThresholds;
use crate::{genesis, index, ledger, schema};
use ledger_core::model::{Id32, Output, OutputId};
use ledger_core::protocol::ProtocolParameters;
use ledger_core::{Code, Error, Result};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

pub struct StoreOptions {
    /// The configured protocol; a ledger made from a snapshot takes the file's instead
    /// and only its network name must agree.
    pub protocol: ProtocolParameters,
    /// Used once, when the data directory is new.
    pub genesis_outputs: Vec<Output>,
    /// The built-in genesis style (D41), fixed when the data directory is new.
    pub genesis_style: GenesisStyle,
    /// A Hornet full snapshot to build a new ledger from instead of the built-in genesis
    /// (snapshot.md §4); ignored once the ledger exists.
    pub snapshot: Option<PathBuf>,
    /// A delta snapshot to apply on top of `snapshot` (snapshot.md §7).
    pub snapshot_delta: Option<PathBuf>,
    /// Seeds of the embedded coordinator; empty when it does not run here.
    pub coordinator_seeds: Vec<[u8; 32]>,
    /// Keys whose milestones this node accepts from elsewhere (coordinator disabled);
    /// defaults to the public keys of `coordinator_seeds`.
    pub trusted_public_keys: Vec<[u8; 32]>,
    /// Hornet's `protocol.publicKeyRanges` and `milestonePublicKeyCount` (D42); when it has
    /// no ranges, `trusted_public_keys` (or the coordinator's own keys) apply from
    /// milestone 0 on, with its threshold (0: all of them must sign).
    pub milestone_keys: MilestoneKeys,
    pub coordinator_enabled: bool,
    pub sync_writes: bool,
    pub max_delta_ycri: u32,
    pub max_delta_ocri: u32,
    /// RocksDB's block cache (shared by every column family), in bytes.
    pub block_cache_bytes: usize,
    /// All memtables of all column families together, in bytes.
    pub write_buffer_bytes: usize,
    /// Keep the UTXO indexer (indexer.md) in step with every milestone; when it was off,
    /// the index is rebuilt from the ledger at the next start with it on.
    pub indexer_enabled: bool,
}

pub struct Submitted {
    pub block_id: Id32,
    /// False when the block was stored before (the submission changed nothing).
    pub stored: bool,
}

pub struct IssuedMilestone {
    pub index: u32,
    pub milestone_id: Id32,
    pub block_id: Id32,
    pub timestamp: u32,
    pub referenced_blocks: usize,
    pub included_transactions: usize,
    /// Time spent in white flag (reading and checking the cone) and in the atomic commit.
    pub confirm_micros: u64,
    pub commit_micros: u64,
}

#[derive(Clone, Copy)]
struct Latest {
    index: u32,
    milestone_id: Id32,
    /// Zero for a snapshot's target milestone, whose block the node does not have.
    block_id: Id32,
    timestamp: u32,
}

fn status_of(state: &State) -> Status {
    Status {
        latest_milestone: state.latest.map(|l| (l.index, l.timestamp, l.milestone_id)),
        pruning_index: state.history.pruning_index,
        ledger_index: state.latest.map_or(0, |l| l.index),
        blocks_stored: state.block_count,
        pending_blocks: state.graph.len() as u64,
        blocks_below_max_depth: state.blocks_below_max_depth,
        last_interval: state.last_interval,
        storage_full: false,
    }
}

#[derive(Clone, Copy)]
pub struct Status {
    /// (index, timestamp, milestone id) of the latest milestone; None before milestone 1.
    /// Right after loading a snapshot it is the snapshot's target milestone.
    pub latest_milestone: Option<(u32, u32, Id32)>,
    /// Nothing at or below it is served (`HistoryIndexes::pruning_index`): the target of
    /// the snapshot the ledger started from (0 for a genesis) until pruning moves it.
    pub pruning_index: u32,
    pub ledger_index: u32,
    pub blocks_stored: u64,
    /// Blocks in the in-memory graph: unreferenced and not below max depth.
    pub pending_blocks: u64,
    /// Blocks found below max depth (and dropped from memory) since the store was opened.
    pub blocks_below_max_depth: u64,
    /// The blocks of the last milestone interval; None until two milestones have been
    /// applied since the store was opened.
    pub last_interval: Option<MilestoneInterval>,
    /// The last write failed because the data directory's file system is full
    /// (`Code::StorageFull`); the next write that succeeds clears it.
    pub storage_full: bool,
}

/// What happened between two consecutive milestones (Hornet's confirmed milestone metric):
/// blocks newly stored after milestone `index − 1` up to and including milestone `index`'s
/// own block, blocks milestone `index` referenced, and the time between their timestamps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MilestoneInterval {
    pub index: u32,
    pub new_blocks: u64,
    pub referenced_blocks: u64,
    pub seconds: u32,
}

pub struct UtxoChanges {
    pub index: u32,
    pub created: Vec<OutputId>,
    pub consumed: Vec<OutputId>,
}

/// A block about to be written.
struct NewBlock<'a> {
    id: Id32,
    bytes: &'a [u8],
    parents: Vec<Id32>,
    /// The index of the milestone it carries, 0 for other blocks.
    milestone_index: u32,
    /// Cone roots known in advance (a milestone's own block, whose parents the milestone
    /// references); None: computed from the graph.
    roots: Option<ConeRoots>,
}

/// Counters at the last applied milestone, for the next `MilestoneInterval` (arrivals, not
/// the stored count, which pruning lowers).
#[derive(Clone, Copy)]
struct IntervalStart {
    next_seq: u64,
    referenced_total: u64,
}

struct State {
    graph: Graph,
    next_seq: u64,
    block_count: u64,
    latest: Option<Latest>,
    /// Blocks referenced by milestones applied since the store was opened.
    referenced_total: u64,
    blocks_below_max_depth: u64,
    interval_start: Option<IntervalStart>,
    last_interval: Option<MilestoneInterval>,
    tip_rng: tip_selection::TipRng,
    /// The coordinator's last checkpoint since its last milestone: the next milestone
    /// approves it first (`checkpoints.rs`).
    checkpoint: Option<Id32>,
    /// As persisted: changed under this lock, in the batch that changes what it describes.
    history: HistoryIndexes,
}

pub struct Store {
    db: Db,
    protocol: ProtocolParameters,
    /// The protocol with the PoW check off: intake scores proofs of work for a whole batch.
    rules_without_pow: ProtocolParameters,
    keys: CoordinatorKeys,
    coordinator_enabled: bool,
    indexer_enabled: bool,
    milestone_keys: MilestoneKeys,
    thresholds: TipThresholds,
    origin: Origin,
    /// Replaced (never changed in place) by pruning, under the state lock; readers take the
    /// set of the moment (`entry_points()`).
    entry_points: RwLock<Arc<SolidEntryPoints>>,
    state: Mutex<State>,
    /// A copy of what `status()` reports, renewed whenever the state changes under its lock:
    /// the API reads it on every info request, and must not wait while a batch or a
    /// milestone is written under the state lock.
    status: Mutex<Status>,
    issuing: Mutex<()>,
    /// The pruning run or snapshot in progress (`history.rs`).
    history_task: Mutex<Option<HistoryTask>>,
    events: EventFeed,
    /// The data directory (RocksDB's), whose size pruning by size measures.
    path: PathBuf,
    /// The background pruning worker, its configuration and its last run (`prune/`).
    pub(crate) pruning: Pruning,
    /// The last snapshot written since the store was opened (`snapshots.rs`).
    last_snapshot: Mutex<Option<WrittenSnapshot>>,
    start_check: Option<open_marker::StartCheck>,
    /// Stored transactions' signatures, checked on a thread of their own before their
    /// milestone's white flag needs them.
    signatures_ahead: SignaturesAhead,
    /// Milestone signatures that passed, checked once (`signed_milestones.rs`).
    signed_milestones: SignedMilestones,
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

pub(crate) fn unix_seconds() -> u64 {
    now_ms() / 1000
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave RocksDB half-written (batches are
    // atomic) and memory is only changed after a successful write, so the data is usable.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Store {
    /// Open the store in `path`, or create it from the built-in genesis or the configured
    /// snapshot. A new ledger is checked whole before anything is written, and written in
    /// one batch. Refuses a data directory of another storage schema version or whose
    /// persisted protocol or genesis style differs from the options, a ledger whose
    /// unspent outputs and treasury do not add up to the token supply, and the coordinator
    /// on a ledger that began after genesis. With the indexer on, rebuilds the index when it
    /// does not reflect the ledger.
    pub fn open(path: &Path, options: StoreOptions) -> Result<Store> {
        // RocksDB's CURRENT file exists once a database was created here.
        let prepared = match path.join("CURRENT").exists() {
            true => None,
            false => Some(initial_state(&options)?),
        };
        if let Some(state) = &prepared {
            check_coordinator(&state.origin, &options)?;
        }
        let db_options = DbOptions {
            sync_writes: options.sync_writes,
            block_cache_bytes: options.block_cache_bytes,
            write_buffer_bytes: options.write_buffer_bytes,
        };
        let db = Db::open(path, &db_options)?;
        let (protocol, origin) = match db.get(STATE, state_key::PROTOCOL)? {
            Some(text) => {
                schema::check(&db)?;
                let persisted = genesis::protocol_from_json(&String::from_utf8_lossy(&text))?;
                let origin = persisted_origin(&db)?;
                check_configuration(&persisted, &origin, &options)?;
                (persisted, origin)
            }
            None => {
                let state = match prepared {
                    Some(state) => state,
                    None => initial_state(&options)?,
                };
                state.write(&db)?;
                (state.protocol, state.origin)
            }
        };
        if options.indexer_enabled {
            index::bring_up_to_date(&db)?;
        }
        let total = ledger::unspent_total(&db)? + ledger::treasury(&db)?.amount as u128;
        if total != protocol.token_supply as u128 {
            return Err(Error::new(
                Code::LedgerInvariantBroken,
                "",
                format!("the unspent outputs and the treasury hold {total}, the token supply is {}: the ledger is inconsistent", protocol.token_supply),
            ));
        }
        check_coordinator(&origin, &options)?;
        let keys = CoordinatorKeys::new(options.coordinator_seeds);
        if options.coordinator_enabled && keys.is_empty() {
            return Err(Error::new(
                Code::CoordinatorKeysMissing,
                "coordinator.privateKeys",
                "the embedded coordinator needs at least one key",
            ));
        }
        let threshold = options.milestone_keys.threshold;
        let milestone_keys =
            match (options.milestone_keys.is_empty(), options.trusted_public_keys.is_empty()) {
                (false, _) => options.milestone_keys,
                (true, false) => MilestoneKeys {
                    threshold,
                    ..MilestoneKeys::all_of(&options.trusted_public_keys)
                },
                (true, true) => {
                    MilestoneKeys { threshold, ..MilestoneKeys::all_of(&keys.public_keys()) }
                }
            };
        let thresholds = TipThresholds {
            max_delta_ycri: options.max_delta_ycri,
            max_delta_ocri: options.max_delta_ocri,
            below_max_depth: protocol.below_max_depth as u32,
        };
        let entry_points = SolidEntryPoints::load(&db)?;
        if entry_points.is_empty() {
            return Err(storage_error("the ledger has no solid entry points"));
        }
        // Last before the state is loaded: a directory the options refuse keeps its marker as
        // it was, and a damaged ledger is named before anything reads it.
        let start_check = open_marker::check_and_mark(&db)?;
        let state = load::load_state(&db, &thresholds, &origin, &entry_points)?;
        Ok(Store {
            db,
            rules_without_pow: ProtocolParameters { min_pow_score: 0, ..protocol.clone() },
            protocol,
            keys,
            coordinator_enabled: options.coordinator_enabled,
            indexer_enabled: options.indexer_enabled,
            milestone_keys,
            thresholds,
            status: Mutex::new(status_of(&state)),
            origin,
            entry_points: RwLock::new(Arc::new(entry_points)),
            state: Mutex::new(state),
            issuing: Mutex::new(()),
            history_task: Mutex::new(None),
            events: EventFeed::default(),
            path: path.to_path_buf(),
            pruning: Pruning::default(),
            last_snapshot: Mutex::new(None),
            start_check,
            signatures_ahead: SignaturesAhead::start(),
            signed_milestones: SignedMilestones::default(),
        })
    }

    pub fn protocol(&self) -> &ProtocolParameters {
        &self.protocol
    }

    /// Milestone 1 exists (or the snapshot's target): blocks can be accepted and tips selected.
    pub fn is_ready(&self) -> bool {
        lock(&self.state).latest.is_some()
    }

    /// Where the ledger began: genesis style, snapshot indexes.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// The data directory RocksDB lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The first state of a new ledger: from the configured snapshot, else the built-in genesis.
fn initial_state(options: &StoreOptions) -> Result<InitialState> {
    match &options.snapshot {
        Some(path) => snapshot::load::initial_state(
            path,
            options.snapshot_delta.as_deref(),
            &options.protocol,
        ),
        None => {
            genesis::built_in(&options.protocol, &options.genesis_outputs, options.genesis_style)
        }
    }
}

/// The embedded coordinator issues a network's milestones from its genesis on: a ledger
/// that starts from a later snapshot belongs to a network with a coordinator elsewhere.
fn check_coordinator(origin: &Origin, options: &StoreOptions) -> Result<()> {
    if options.coordinator_enabled && origin.target_milestone_index > 0 {
        return Err(Error::new(
            Code::CoordinatorNotAllowed,
            "coordinator.enabled",
            format!(
                "this ledger starts from a snapshot at milestone {}, so the node follows that network's coordinator: disable the embedded one (coordinator.enabled false, --no-coordinator)",
                origin.target_milestone_index
            ),
        ));
    }
    Ok(())
}

/// The persisted origin. A ledger created before origins were recorded began with the
/// built-in `ledger` genesis (the only one there was): that is recorded now, once.
fn persisted_origin(db: &Db) -> Result<Origin> {
    if let Some(bytes) = db.get(STATE, state_key::ORIGIN)? {
        return Origin::from_bytes(&bytes);
    }
    let origin = Origin::built_in(GenesisStyle::Ledger);
    let mut batch = db.batch();
    SolidEntryPoints::new(GenesisStyle::Ledger.entry_points().into_iter().map(|id| (id, 0)))
        .put_all(&mut batch);
    batch.put(STATE, state_key::ORIGIN, &origin.to_bytes());
    batch.commit()?;
    Ok(origin)
}

/// A persisted value the configuration contradicts is a startup error (ledger.md §1). A
/// ledger made from a snapshot took its protocol from the file: only the network name
/// must still agree, and the genesis style does not apply.
fn check_configuration(
    persisted: &ProtocolParameters,
    origin: &Origin,
    options: &StoreOptions,
) -> Result<()> {
    if origin.from_snapshot {
        if persisted.network_name != options.protocol.network_name {
            return Err(Error::new(
                Code::ProtocolMismatch,
                "protocol.networkName",
                format!("the ledger (from a snapshot) is for network '{}' but the configuration names '{}'", persisted.network_name, options.protocol.network_name),
            ));
        }
        return Ok(());
    }
    let differences = genesis::protocol_differences(persisted, &options.protocol);
    if !differences.is_empty() {
        return Err(Error::new(Code::ProtocolMismatch, "protocol", differences.join("; ")));
    }
    if origin.style != options.genesis_style {
        return Err(Error::new(
            Code::GenesisStyleMismatch,
            "genesis.style",
            format!(
                "genesis.style is {} in the data directory but {} in the configuration (it is fixed when the data directory is created)",
                origin.style.as_str(),
                options.genesis_style.as_str()
            ),
        ));
    }
    Ok(())
}

fn not_ready() -> Error {
    Error::new(Code::NotReady, "", "no milestone has been issued yet")
}

fn milestone_not_allowed() -> Error {
    Error::new(
        Code::MilestoneNotAllowed,
        "payload",
        "milestone payloads are only issued by this node's coordinator (D16)",
    )
}

/// Where a walk of a past cone stops at a block that is not pending: the milestone that
/// referenced it, for an entry point the index it belongs to, and 0 for a block below max
/// depth (it anchors nothing: any block approving it is below max depth at once, since
/// blocks are only found below max depth once the confirmed index exceeds
/// `belowMaxDepth`).
fn referenced_index(db: &Db, entry_points: &SolidEntryPoints, id: &Id32) -> Result<u32> {
    if let Some(index) = entry_points.index_of(id) {
        return Ok(index);
    }
    match db.get(BLOCK_META, id)? {
        Some(meta) => Ok(BlockMeta::from_bytes(&meta)?.referenced_by),
        None => Err(storage_error(format!("block 0x{} has no metadata", hex::encode(id)))),
    }
}

/// The parents of a stored block, read from its header without decoding the payload.
pub(crate) fn parents_of(bytes: &[u8]) -> Result<Vec<Id32>> {
    let count = *bytes.get(1).ok_or_else(|| storage_error("stored block too short"))? as usize;
    if bytes.len() < 2 + 32 * count {
        return Err(storage_error("stored block too short"));
    }
    Ok((0..count).map(|i| array_at(bytes, 2 + 32 * i)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::SOLID_ENTRY_POINTS;
    use ledger_core::model::{Address, BasicOutput, UnlockCondition};

    fn options(style: GenesisStyle) -> StoreOptions {
        let protocol = ProtocolParameters { min_pow_score: 0, ..ProtocolParameters::dev_default() };
        let genesis = Output::Basic(BasicOutput {
            amount: protocol.token_supply,
            native_tokens: vec![],
            unlock_conditions: vec![UnlockCondition::Address(Address::Ed25519([1; 32]))],
            features: vec![],
        });
        StoreOptions {
            protocol,
            genesis_outputs: vec![genesis],
            genesis_style: style,
            snapshot: None,
            snapshot_delta: None,
            coordinator_seeds: vec![[7; 32]],
            trusted_public_keys: vec![],
            milestone_keys: MilestoneKeys::default(),
            coordinator_enabled: true,
            sync_writes: false,
            max_delta_ycri: 8,
            max_delta_ocri: 13,
            block_cache_bytes: 8 << 20,
            write_buffer_bytes: 8 << 20,
            indexer_enabled: true,
        }
    }

    /// The closed store's database opened underneath it, to make it look older.
    fn raw_db(path: &std::path::Path) -> Db {
        Db::open_for_test(path)
    }

    /// A data directory from before genesis styles: no origin, no entry points stored.
    #[test]
    fn an_older_ledger_is_recorded_as_ledger_style() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), options(GenesisStyle::Ledger)).unwrap();
        store.issue_milestone(Some(1_700_000_000)).unwrap();
        drop(store);
        {
            let db = raw_db(dir.path());
            let mut batch = db.batch();
            batch.delete(STATE, state_key::ORIGIN);
            for id in GenesisStyle::Ledger.entry_points() {
                batch.delete(SOLID_ENTRY_POINTS, &id);
            }
            batch.commit().unwrap();
        }
        let err = Store::open(dir.path(), options(GenesisStyle::Hornet)).err().unwrap();
        assert_eq!(err.code, Code::GenesisStyleMismatch);
        let store = Store::open(dir.path(), options(GenesisStyle::Ledger)).unwrap();
        assert_eq!(store.origin(), &Origin::built_in(GenesisStyle::Ledger));
        assert_eq!(store.entry_points().sorted(), GenesisStyle::Ledger.entry_points().as_slice());
        assert_eq!(store.issue_milestone(None).unwrap().index, 2);
    }

    /// A data directory of schema version 3 has no `milestone_blocks` family: the first
    /// open fills it from the block metadata, and the entry point rule reads the same.
    #[test]
    fn an_older_ledger_gets_its_milestone_blocks() {
        use crate::columns::MILESTONE_BLOCKS;
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), options(GenesisStyle::Ledger)).unwrap();
        for _ in 0..25 {
            store.issue_milestone(None).unwrap();
        }
        let expected = store.solid_entry_points_for(20, 15).unwrap();
        assert!(!expected.is_empty());
        drop(store);
        {
            let db = raw_db(dir.path());
            let mut batch = db.batch();
            batch.clear(MILESTONE_BLOCKS);
            batch.put(STATE, state_key::SCHEMA_VERSION, &3u32.to_le_bytes());
            batch.commit().unwrap();
        }
        let store = Store::open(dir.path(), options(GenesisStyle::Ledger)).unwrap();
        assert_eq!(store.solid_entry_points_for(20, 15).unwrap(), expected);
    }
}
