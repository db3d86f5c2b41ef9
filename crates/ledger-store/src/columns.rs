//! Column families and key layouts (ledger.md §8). Indexes are big-endian in keys so that
//! RocksDB's byte order is numeric order.

pub const BLOCKS: &str = "blocks"; // block id → raw block bytes
pub const BLOCK_META: &str = "block_meta"; // block id → records::BlockMeta
pub const CHILDREN: &str = "children"; // parent id ‖ child id → ()
pub const TX_BLOCKS: &str = "tx_blocks"; // transaction id ‖ block id → () (every block carrying it)
pub const UNREFERENCED: &str = "unreferenced"; // arrival seq (u64 BE) ‖ block id → ()
pub const OUTPUTS: &str = "outputs"; // output id → records::OutputRecord (kept after spending)
pub const SPENTS: &str = "spents"; // output id → records::SpentRecord
pub const UNSPENT: &str = "unspent"; // output id → ()
pub const MILESTONES: &str = "milestones"; // index (u32 BE) → records::MilestoneRecord
pub const MILESTONE_IDS: &str = "milestone_ids"; // milestone id → index (u32 BE)
pub const DIFFS: &str = "diffs"; // index (u32 BE) → records::Diff
pub const STATE: &str = "state"; // name → value (see `state_key`)
pub const SOLID_ENTRY_POINTS: &str = "solid_entry_points"; // block id → milestone index (u32 LE)
pub const RECEIPTS: &str = "receipts"; // migratedAt (u32 BE) ‖ milestone index (u32 BE) → receipts::Receipts
pub const MILESTONE_BLOCKS: &str = "milestone_blocks"; // index (u32 BE) ‖ block id → milestone_blocks::Settled
                                                       // The UTXO indexer (indexer.md §6); typed columns in `index/`, keys end in the sort key.
pub const INDEXER_OUTPUTS: &str = "indexer_outputs"; // kind ‖ sort key → index::IndexedOutput
pub const INDEXER_FIELDS: &str = "indexer_fields"; // kind ‖ field code ‖ field value ‖ sort key → ()
pub const INDEXER_CHAINS: &str = "indexer_chains"; // kind ‖ alias/NFT id or foundry id → output id

pub const ALL: [&str; 18] = [
    BLOCKS,
    BLOCK_META,
    CHILDREN,
    TX_BLOCKS,
    UNREFERENCED,
    OUTPUTS,
    SPENTS,
    UNSPENT,
    MILESTONES,
    MILESTONE_IDS,
    DIFFS,
    STATE,
    SOLID_ENTRY_POINTS,
    MILESTONE_BLOCKS,
    RECEIPTS,
    INDEXER_OUTPUTS,
    INDEXER_FIELDS,
    INDEXER_CHAINS,
];

/// A column family whose keys and values are encoded in one place (style §5): the compiler
/// refuses a value in the wrong family, and every reader refuses a record of the wrong shape.
pub trait TypedColumn {
    const NAME: &'static str;
    type Key;
    type Value;
    fn encode_key(key: &Self::Key) -> Vec<u8>;
    fn decode_key(bytes: &[u8]) -> ledger_core::Result<Self::Key>;
    fn encode_value(value: &Self::Value) -> Vec<u8>;
    fn decode_value(bytes: &[u8]) -> ledger_core::Result<Self::Value>;
}

/// Keys of the `state` column family.
pub mod state_key {
    /// The protocol parameters as JSON text, fixed when the ledger is created.
    pub const PROTOCOL: &[u8] = b"protocol";
    /// u32 LE: the index of the last applied milestone (0 = only genesis).
    pub const LEDGER_INDEX: &[u8] = b"ledger_index";
    /// u64 LE: how many blocks are stored.
    pub const BLOCK_COUNT: &[u8] = b"block_count";
    /// u64 LE: the next arrival sequence number.
    pub const NEXT_SEQ: &[u8] = b"next_seq";
    /// u32 LE: the layout of the data directory (`schema.rs`).
    pub const SCHEMA_VERSION: &[u8] = b"schema_version";
    /// u32 LE ‖ u32 LE: the indexer's format version and the ledger index its families
    /// reflect. Written in every milestone batch while the indexer is on; when it lags the
    /// ledger index (the indexer was off) or is absent, the index is rebuilt at start-up.
    pub const INDEXED_LEDGER: &[u8] = b"indexed_ledger";
    /// `origin::Origin`: the genesis style and the snapshot the ledger started from.
    pub const ORIGIN: &[u8] = b"origin";
    /// The unspent treasury output: milestone id ‖ u64 LE amount. Written when the ledger is
    /// created (also with amount 0, as Hornet stores a snapshot's treasury) and by every
    /// milestone with a receipt; absent only in data directories of schema version 4 and
    /// older, whose treasury was the zero one.
    pub const TREASURY: &[u8] = b"treasury";
    /// `history::HistoryIndexes` (Hornet's `SnapshotInfo`): genesis, snapshot, entry point
    /// and pruning index and the snapshot's timestamp, five u32 LE. Absent in older data
    /// directories: taken from the origin at the first open.
    pub const HISTORY_INDEXES: &[u8] = b"history_indexes";
    /// Present while a store has the directory open; removed when it closes. Found at open,
    /// it says the last run ended without closing (a crash, kill -9, power loss): the
    /// ledger is checked before the node starts.
    pub const OPEN: &[u8] = b"open";
}

pub fn pair_key(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut key = Vec::with_capacity(a.len() + b.len());
    key.extend_from_slice(a);
    key.extend_from_slice(b);
    key
}

pub fn index_key(index: u32) -> [u8; 4] {
    index.to_be_bytes()
}

pub fn unreferenced_key(seq: u64, block_id: &[u8; 32]) -> [u8; 40] {
    let mut key = [0u8; 40];
    key[..8].copy_from_slice(&seq.to_be_bytes());
    key[8..].copy_from_slice(block_id);
    key
}
