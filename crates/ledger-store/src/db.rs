//! Opening RocksDB and the few operations the store uses.
//!
//! Durability: every acknowledged change is one `WriteBatch` written with the WAL on. With
//! `sync_writes` off (the default) the write returns once the WAL record is in the
//! operating system's page cache: it survives a crash or `kill -9` of the node, not a power
//! loss. With `sync_writes` on, every batch is also fsynced before it is acknowledged.
//!
//! Memory: one LRU block cache shared by every column family, which also holds index and
//! filter blocks, and one limit on all memtables together (`db_write_buffer_size`); both
//! are set by the operator (`storage.blockCacheMiB`, `storage.writeBuffersMiB`), so
//! RocksDB's share of the node's memory does not grow with the data.

use crate::columns::{self, TypedColumn};
use crate::storage_error;
use ledger_core::{Code, Result};
use rocksdb::{
    BlockBasedOptions, Cache, ColumnFamily, ColumnFamilyDescriptor, DBRawIteratorWithThreadMode,
    Direction, IteratorMode, LogLevel, Options, ReadOptions, SliceTransform,
    SnapshotWithThreadMode, WriteBatch, WriteOptions, DB,
};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

pub struct Db {
    db: DB,
    write_options: WriteOptions,
    cache: Cache,
    /// Whether the last batch failed for want of space (cleared by the next that succeeds).
    full: AtomicBool,
}

pub struct DbOptions {
    pub sync_writes: bool,
    pub block_cache_bytes: usize,
    /// All memtables together; a column family flushes once its own memtable reaches
    /// half of it, or earlier when all of them together reach it.
    pub write_buffer_bytes: usize,
}

/// RocksDB's own default for one memtable; smaller limits shrink it.
const MAX_MEMTABLE_BYTES: usize = 64 << 20;

/// Families read mostly by whole key, often for keys they do not hold: whether a block
/// arrived before, whether an output exists. They get a bloom filter over the memtable's
/// keys too, so that such a miss skips the walk of the memtable's skip list, which for a
/// memtable of a few hundred thousand random ids costs more than the rest of the lookup.
const POINT_LOOKUP_FAMILIES: [&str; 5] =
    [columns::BLOCKS, columns::BLOCK_META, columns::OUTPUTS, columns::SPENTS, columns::UNSPENT];

/// The memtable bloom filter's size, as a share of the memtable: 1.3 MiB of a 64 MiB one,
/// some 16 bits a key for block metadata's entries of about 100 bytes (false positives
/// well under 1 %), more for bigger entries.
const MEMTABLE_BLOOM_RATIO: f64 = 0.02;

/// Shared by all column families: point lookups dominate, so bloom filters and a block
/// cache. Table files are LZ4-compressed: blocks, metadata and outputs are full of zeros
/// and repeated structure around their random ids and signatures, and LZ4 costs a few
/// microseconds a 4 KiB table block, on flushes and compactions off the write path.
fn column_options(cache: &Cache, memtable_bytes: usize) -> Options {
    let mut table = BlockBasedOptions::default();
    table.set_block_cache(cache);
    table.set_bloom_filter(10.0, false);
    table.set_cache_index_and_filter_blocks(true);
    let mut opts = Options::default();
    opts.set_block_based_table_factory(&table);
    opts.set_compression_type(rocksdb::DBCompressionType::Lz4);
    opts.set_bottommost_compression_type(rocksdb::DBCompressionType::Lz4);
    opts.set_write_buffer_size(memtable_bytes);
    opts
}

fn point_lookup_column_options(cache: &Cache, memtable_bytes: usize) -> Options {
    let mut opts = column_options(cache, memtable_bytes);
    opts.set_memtable_whole_key_filtering(true);
    opts.set_memtable_prefix_bloom_ratio(MEMTABLE_BLOOM_RATIO);
    opts
}

/// The indexer's field family is only ever read by prefix (kind ‖ field ‖ value): bloom
/// filters over that prefix let a query for an address with no outputs skip every file.
fn prefix_column_options(cache: &Cache, memtable_bytes: usize) -> Options {
    let mut table = BlockBasedOptions::default();
    table.set_block_cache(cache);
    table.set_bloom_filter(10.0, false);
    table.set_cache_index_and_filter_blocks(true);
    table.set_whole_key_filtering(false);
    let mut opts = column_options(cache, memtable_bytes);
    opts.set_block_based_table_factory(&table);
    opts.set_prefix_extractor(SliceTransform::create(
        "indexer_field_prefix",
        crate::index::field_prefix,
        Some(crate::index::has_field_prefix),
    ));
    opts.set_memtable_prefix_bloom_ratio(0.1);
    opts
}

/// RocksDB's own files beside the data must not grow with the node's age. At its default
/// level its info log (`LOG`) gained some 300 kB a minute on a pruning node (every flush and
/// compaction is a paragraph) and was never cut; the node has its own log, so RocksDB's
/// keeps warnings only, in at most two files. The manifest (one record a file change) is
/// rewritten from the live files once it reaches a bound instead of RocksDB's 1 GiB.
fn bound_bookkeeping_files(opts: &mut Options) {
    opts.set_log_level(LogLevel::Warn);
    opts.set_max_log_file_size(4 << 20);
    opts.set_keep_log_file_num(2);
    opts.set_max_manifest_file_size(16 << 20);
}

/// How often a read-only open is tried while a running node replaces table files under it,
/// and the pause between tries (a compaction's manifest edit is written within milliseconds).
const READ_ONLY_ATTEMPTS: u32 = 10;
const READ_ONLY_RETRY_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

/// RocksDB's answer when a file the manifest names is not there (its message is all it gives).
fn is_missing_file(e: &rocksdb::Error) -> bool {
    e.to_string().contains("No such file or directory")
}

impl Db {
    /// A node's ledger directory opened read-only (a running node may keep it), or the
    /// one-line refusal of a directory that holds no ledger yet.
    pub fn open_ledger_read_only(ledger_dir: &Path) -> Result<Db> {
        if !ledger_dir.join("CURRENT").exists() {
            return Err(ledger_core::Error::new(
                Code::NoLedger,
                "dataDir",
                format!("no ledger in {}: start the node once to create it", ledger_dir.display()),
            ));
        }
        Db::open_read_only(ledger_dir)
    }

    pub fn open(path: &Path, options: &DbOptions) -> Result<Db> {
        let cache = Cache::new_lru_cache(options.block_cache_bytes);
        let memtable_bytes = (options.write_buffer_bytes / 2).clamp(1 << 20, MAX_MEMTABLE_BYTES);
        let mut opts = column_options(&cache, memtable_bytes);
        opts.create_if_missing(true);
        opts.create_missing_column_families(true);
        opts.increase_parallelism(2);
        opts.set_max_open_files(512);
        opts.set_db_write_buffer_size(options.write_buffer_bytes);
        // A log file is deleted only once every family with a write in it has flushed, so a
        // family written seldom (milestones, protocol parameters) could keep every log since
        // its last flush; past this size RocksDB flushes the families that hold the oldest
        // one, and the logs stay about as large as the memtables they back.
        opts.set_max_total_wal_size(options.write_buffer_bytes as u64);
        bound_bookkeeping_files(&mut opts);
        let descriptors = columns::ALL.iter().map(|name| {
            let options = if *name == columns::INDEXER_FIELDS {
                prefix_column_options(&cache, memtable_bytes)
            } else if POINT_LOOKUP_FAMILIES.contains(name) {
                point_lookup_column_options(&cache, memtable_bytes)
            } else {
                column_options(&cache, memtable_bytes)
            };
            ColumnFamilyDescriptor::new(*name, options)
        });
        let db = DB::open_cf_descriptors(&opts, path, descriptors).map_err(|e| {
            storage_error(format!("cannot open RocksDB in {}: {e}", path.display()))
        })?;
        let mut write_options = WriteOptions::default();
        write_options.set_sync(options.sync_writes);
        write_options.disable_wal(false);
        Ok(Db { db, write_options, cache, full: AtomicBool::new(false) })
    }

    /// A database with small caches and no syncing, for the store's unit tests.
    #[cfg(test)]
    pub(crate) fn open_for_test(path: &Path) -> Db {
        let small = DbOptions {
            sync_writes: false,
            block_cache_bytes: 8 << 20,
            write_buffer_bytes: 8 << 20,
        };
        Db::open(path, &small).expect("a test database opens")
    }

    /// Open an existing database for reading only: no lock is taken, so the node may be
    /// running on it; it sees what was written up to the moment of opening.
    pub fn open_read_only(path: &Path) -> Result<Db> {
        let cache = Cache::new_lru_cache(8 << 20);
        let mut opts = column_options(&cache, 1 << 20);
        bound_bookkeeping_files(&mut opts);
        let existing = DB::list_cf(&opts, path).map_err(|e| {
            storage_error(format!("cannot read RocksDB in {}: {e}", path.display()))
        })?;
        let descriptors = || {
            existing
                .iter()
                .map(|name| ColumnFamilyDescriptor::new(name, column_options(&cache, 1 << 20)))
        };
        // A running node may finish a compaction while this open reads the manifest: the
        // manifest read so far still lists a table file the node has just deleted. Read
        // again: the manifest on disk already says the file is gone.
        let mut attempt = 1;
        let db = loop {
            match DB::open_cf_descriptors_read_only(&opts, path, descriptors(), false) {
                Ok(db) => break db,
                Err(e) if attempt < READ_ONLY_ATTEMPTS && is_missing_file(&e) => {
                    attempt += 1;
                    std::thread::sleep(READ_ONLY_RETRY_PAUSE);
                }
                Err(e) => {
                    return Err(storage_error(format!(
                        "cannot open RocksDB in {} for reading: {e}",
                        path.display()
                    )))
                }
            }
        };
        Ok(Db { db, write_options: WriteOptions::default(), cache, full: AtomicBool::new(false) })
    }

    pub fn cf(&self, name: &str) -> &ColumnFamily {
        // `open` opens every family of `columns::ALL` (or fails), and callers name only those.
        self.db.cf_handle(name).expect("every column family is opened")
    }

    pub fn get(&self, cf: &str, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.db.get_cf(self.cf(cf), key).map_err(storage_error)
    }

    pub fn exists(&self, cf: &str, key: &[u8]) -> Result<bool> {
        Ok(self.db.get_pinned_cf(self.cf(cf), key).map_err(storage_error)?.is_some())
    }

    /// A consistent view of the whole database as of now (one per indexer request).
    pub fn snapshot(&self) -> Snapshot<'_> {
        Snapshot { db: self, snapshot: self.db.snapshot() }
    }

    pub fn batch(&self) -> Batch<'_> {
        Batch { db: self, batch: WriteBatch::default() }
    }

    /// Every key/value of a column family in key order, from `start` on while keys begin
    /// with `prefix` (empty: all). In total order, also across the prefixes of a family
    /// with a prefix extractor.
    pub fn scan(
        &self,
        cf: &str,
        prefix: &[u8],
        mut each: impl FnMut(&[u8], &[u8]) -> Result<bool>,
    ) -> Result<()> {
        let mode = if prefix.is_empty() {
            IteratorMode::Start
        } else {
            IteratorMode::From(prefix, Direction::Forward)
        };
        let mut options = ReadOptions::default();
        options.set_total_order_seek(true);
        for item in self.db.iterator_cf_opt(self.cf(cf), options, mode) {
            let (k, v) = item.map_err(storage_error)?;
            if !k.starts_with(prefix) || !each(&k, &v)? {
                break;
            }
        }
        Ok(())
    }

    /// `scan` from `from` on (inclusive), while keys begin with `prefix`: to go on with a
    /// range where an earlier pass stopped, without walking back over what it deleted.
    pub fn scan_from(
        &self,
        cf: &str,
        from: &[u8],
        prefix: &[u8],
        mut each: impl FnMut(&[u8], &[u8]) -> Result<bool>,
    ) -> Result<()> {
        let mut options = ReadOptions::default();
        options.set_total_order_seek(true);
        let mode = IteratorMode::From(from, Direction::Forward);
        for item in self.db.iterator_cf_opt(self.cf(cf), options, mode) {
            let (k, v) = item.map_err(storage_error)?;
            if !k.starts_with(prefix) || !each(&k, &v)? {
                break;
            }
        }
        Ok(())
    }

    /// Compact the keys of `cf` from `start` to `end` (exclusive; None: unbounded) down to
    /// the last level, so that what was deleted there leaves the files on disk. Blocks the
    /// calling thread until done; holds no lock of the store.
    pub fn compact_range(&self, cf: &str, start: Option<&[u8]>, end: Option<&[u8]>) {
        let mut options = rocksdb::CompactOptions::default();
        options.set_bottommost_level_compaction(rocksdb::BottommostLevelCompaction::ForceOptimized);
        self.db.compact_range_cf_opt(self.cf(cf), start, end, &options);
    }

    /// Write every column family's memtable to disk, so that no write-ahead log file is
    /// needed any more and RocksDB deletes them all (each flush or manual compaction starts
    /// a new one, preallocated at about the write buffer's size, which stays until every
    /// family with data in it has flushed).
    pub fn flush_all(&self) -> Result<()> {
        for name in crate::columns::ALL {
            self.db.flush_cf(self.cf(name)).map_err(storage_error)?;
        }
        Ok(())
    }

    /// RocksDB's estimate of the number of keys in a column family.
    pub fn estimated_keys(&self, cf: &str) -> u64 {
        self.db
            .property_int_value_cf(self.cf(cf), "rocksdb.estimate-num-keys")
            .ok()
            .flatten()
            .unwrap_or(0)
    }

    /// Live data on disk (SST files) plus the memtables, in bytes.
    pub fn approximate_size(&self) -> u64 {
        self.approximate_sizes().iter().map(|(_, bytes)| bytes).sum()
    }

    /// `approximate_size` per column family, in the order of `columns::ALL`.
    pub fn approximate_sizes(&self) -> Vec<(&'static str, u64)> {
        columns::ALL
            .iter()
            .map(|name| {
                let cf = self.cf(name);
                let bytes = ["rocksdb.total-sst-files-size", "rocksdb.cur-size-all-mem-tables"]
                    .iter()
                    .map(|property| {
                        self.db.property_int_value_cf(cf, *property).ok().flatten().unwrap_or(0)
                    })
                    .sum();
                (*name, bytes)
            })
            .collect()
    }

    /// Whether the last write failed because the file system is full.
    pub fn storage_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// Memory RocksDB holds now: the block cache's contents plus every memtable, in bytes.
    pub fn memory_bytes(&self) -> u64 {
        let memtables: u64 = columns::ALL
            .iter()
            .map(|name| {
                self.db
                    .property_int_value_cf(self.cf(name), "rocksdb.cur-size-all-mem-tables")
                    .ok()
                    .flatten()
                    .unwrap_or(0)
            })
            .sum();
        self.cache.get_usage() as u64 + memtables
    }
}

/// A set of changes written all at once, or not at all.
pub struct Batch<'a> {
    db: &'a Db,
    batch: WriteBatch,
}

impl Batch<'_> {
    pub fn put(&mut self, cf: &str, key: &[u8], value: &[u8]) {
        self.batch.put_cf(self.db.cf(cf), key, value);
    }

    pub fn delete(&mut self, cf: &str, key: &[u8]) {
        self.batch.delete_cf(self.db.cf(cf), key);
    }

    pub fn put_typed<C: TypedColumn>(&mut self, key: &C::Key, value: &C::Value) {
        self.batch.put_cf(self.db.cf(C::NAME), C::encode_key(key), C::encode_value(value));
    }

    pub fn delete_typed<C: TypedColumn>(&mut self, key: &C::Key) {
        self.batch.delete_cf(self.db.cf(C::NAME), C::encode_key(key));
    }

    /// Every key of `cf` from `from` (inclusive) to `to` (exclusive), as one range tombstone.
    pub fn delete_range(&mut self, cf: &str, from: &[u8], to: &[u8]) {
        self.batch.delete_range_cf(self.db.cf(cf), from, to);
    }

    /// Changes in the batch so far.
    pub fn len(&self) -> usize {
        self.batch.len()
    }

    pub fn is_empty(&self) -> bool {
        self.batch.is_empty()
    }

    /// Every key of the family (all keys are shorter than 256 bytes of 0xff).
    pub fn clear(&mut self, cf: &str) {
        self.batch.delete_range_cf(self.db.cf(cf), &[][..], &[0xff; 256][..]);
    }

    pub fn commit(self) -> Result<()> {
        let written =
            self.db.db.write_opt(self.batch, &self.db.write_options).map_err(storage_error);
        let full = matches!(&written, Err(e) if e.code == Code::StorageFull);
        self.db.full.store(full, Ordering::Relaxed);
        written
    }
}

/// Reads that all see the database as it was when the snapshot was taken.
pub struct Snapshot<'a> {
    db: &'a Db,
    snapshot: SnapshotWithThreadMode<'a, DB>,
}

pub type RawIter<'a> = DBRawIteratorWithThreadMode<'a, DB>;

impl Snapshot<'_> {
    pub fn get(&self, cf: &str, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.snapshot.get_cf(self.db.cf(cf), key).map_err(storage_error)
    }

    pub fn get_typed<C: TypedColumn>(&self, key: &C::Key) -> Result<Option<C::Value>> {
        self.get(C::NAME, &C::encode_key(key))?.map(|v| C::decode_value(&v)).transpose()
    }

    /// The values of several keys of one family at once (RocksDB batches the block
    /// lookups); `sorted` when the keys are in ascending order.
    pub fn multi_get(
        &self,
        cf: &str,
        keys: &[Vec<u8>],
        sorted: bool,
    ) -> Result<Vec<Option<Vec<u8>>>> {
        let mut options = ReadOptions::default();
        options.set_snapshot(&self.snapshot);
        self.db
            .db
            .batched_multi_get_cf_opt(self.db.cf(cf), keys, sorted, &options)
            .into_iter()
            .map(|found| found.map(|value| value.map(|v| v.to_vec())).map_err(storage_error))
            .collect()
    }

    /// An unpositioned iterator over the keys of `cf` below `upper` (exclusive). In the
    /// indexer's field family it stays within the prefix of the key it is sought to.
    pub fn iter(&self, cf: &str, upper: Vec<u8>) -> RawIter<'_> {
        let mut options = ReadOptions::default();
        options.set_iterate_upper_bound(upper);
        options.set_prefix_same_as_start(cf == columns::INDEXER_FIELDS);
        self.snapshot.raw_iterator_cf_opt(self.db.cf(cf), options)
    }
}
