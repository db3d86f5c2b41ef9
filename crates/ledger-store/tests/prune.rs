//! Pruning (Hornet 2.0.1's rules, `prune/`): by index, by depth and by size, with blocks
//! and confirmed transfers before, during and after a run. Below the pruning index blocks,
//! their metadata, children links and transaction entries, milestones, diffs and the
//! outputs they spent are gone; the unspent ledger, the indexer and the solid entry points
//! of the target stay, so that new blocks still solidify and milestones still confirm; the
//! data directory really shrinks (measured with `du`); a run stopped between any two of its
//! batches leaves a database that opens, serves what is above the pruning index and is
//! finished by the next run.

mod common;

use common::*;
use ledger_core::hash::blake2b256;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::{PruneTarget, PruningConfig, Store, StoreOptions};
use std::cell::Cell;
use std::path::Path;
use std::sync::Arc;

fn seed(n: u32) -> [u8; 32] {
    if n == 0 {
        genesis_seed()
    } else {
        blake2b256(&n.to_le_bytes())
    }
}

fn address(n: u32) -> [u8; 32] {
    ledger_core::crypto::ed25519_address(&ledger_core::crypto::public_key(&seed(n)))
}

/// Bytes that do not compress, so that the directory's size follows the history's.
fn filler(n: u32, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 32);
    let mut h = blake2b256(&n.to_le_bytes());
    while out.len() < len {
        out.extend_from_slice(&h);
        h = blake2b256(&h);
    }
    out.truncate(len);
    out
}

/// What one milestone took with it.
#[derive(Default, Clone)]
struct Settled {
    index: u32,
    milestone_block: Id32,
    blocks: Vec<Id32>,
    transaction: Option<Id32>,
    consumed: Vec<OutputId>,
}

/// The history under test: a chain of transfers (each milestone spends the last output and
/// splits it in two) and data blocks.
struct Chain {
    input: (OutputId, Output),
    owner: u32,
    n: u32,
    history: Vec<Settled>,
    /// Milestone blocks not referenced yet (a later milestone settles each).
    unsettled: Vec<Id32>,
}

impl Chain {
    fn new() -> Chain {
        Chain {
            input: ([0u8; 34], genesis_output()),
            owner: 0,
            n: 0,
            history: Vec::new(),
            unsettled: Vec::new(),
        }
    }

    /// One milestone: `blocks` data blocks of `bytes` bytes each and one transfer, then the
    /// milestone; checks that the transfer was included.
    fn milestone(&mut self, store: &Store, blocks: usize, bytes: usize) -> Settled {
        let mut settled = Settled::default();
        for _ in 0..blocks {
            self.n += 1;
            let payload = Payload::TaggedData(TaggedData {
                tag: b"prune".to_vec(),
                data: filler(self.n, bytes),
            });
            settled
                .blocks
                .push(store.submit_block(&block_bytes(store, Some(payload))).unwrap().block_id);
        }
        self.n += 1;
        let next = self.n;
        let amount = self.input.1.amount();
        let outputs = vec![
            basic_output(amount - 1_000_000, address(next)),
            basic_output(1_000_000, address(next)),
        ];
        let tx = transfer(&seed(self.owner), std::slice::from_ref(&self.input), outputs.clone());
        let tx_id = ids::transaction_id(&tx);
        settled.blocks.push(store.submit_block(&tx_block(store, &tx)).unwrap().block_id);
        let m = store.issue_milestone(None).unwrap();
        assert_eq!(m.included_transactions, 1, "the transfer of milestone {}", m.index);
        settled.index = m.index;
        settled.milestone_block = m.block_id;
        // A milestone's own block belongs to the milestone that references it.
        self.unsettled.retain(|b| {
            let meta = json(&store.block_metadata_json(b).unwrap().unwrap());
            match meta["referencedByMilestoneIndex"].as_u64() {
                Some(at) if at as u32 == m.index => {
                    settled.blocks.push(*b);
                    false
                }
                Some(at) => panic!("milestone block referenced at {at}, not {}", m.index),
                None => true,
            }
        });
        self.unsettled.push(m.block_id);
        settled.transaction = Some(tx_id);
        settled.consumed.push(self.input.0);
        self.input = (ids::output_id(&tx_id, 0), outputs[0].clone());
        self.owner = next;
        self.history.push(settled.clone());
        settled
    }

    fn grow(&mut self, store: &Store, milestones: u32, blocks: usize, bytes: usize) {
        for _ in 0..milestones {
            self.milestone(store, blocks, bytes);
        }
    }
}

/// The dev network with a 1 MiB write buffer: the write-ahead log, which RocksDB
/// preallocates at about the buffer's size, stays small beside the history that `du`
/// measures.
fn open(dir: &Path) -> Store {
    Store::open(dir, StoreOptions { write_buffer_bytes: 1 << 20, ..dev_options(0) }).unwrap()
}

fn started(dir: &Path) -> Store {
    let store = open(dir);
    store.issue_milestone(None).unwrap();
    store
}

/// The data directory's space on disk, as `du` counts it.
/// RocksDB may delete a file while `du` walks the directory (a compaction finishing), which
/// `du` reports as a failure: it is asked again until one walk sees a settled directory.
fn du(path: &Path) -> u64 {
    for _ in 0..100 {
        let out = std::process::Command::new("du")
            .arg("-s")
            .arg("--block-size=1")
            .arg(path)
            .output()
            .unwrap();
        if out.status.success() {
            let text = String::from_utf8(out.stdout).unwrap();
            return text.split_whitespace().next().unwrap().parse().unwrap();
        }
    }
    panic!("du failed 100 times on {}", path.display());
}

/// Everything at or below `pruning` is gone, everything above it is there.
fn check_history(store: &Store, chain: &Chain, pruning: u32) {
    assert_eq!(store.status().pruning_index, pruning);
    assert_eq!(store.history_indexes().pruning_index, pruning);
    for s in &chain.history {
        let tx = s.transaction.unwrap();
        if s.index <= pruning {
            assert!(store.milestone_by_index(s.index).unwrap().is_none(), "milestone {}", s.index);
            assert!(store.utxo_changes(s.index).unwrap().is_none());
            for b in &s.blocks {
                assert!(store.block(b).unwrap().is_none(), "a block of milestone {}", s.index);
                assert!(store.block_metadata_json(b).unwrap().is_none());
                assert!(store.children(b, 10).unwrap().is_none());
            }
            assert!(store.blocks_with_transaction(&tx).unwrap().is_empty());
            for o in &s.consumed {
                assert!(
                    store.output(o).unwrap().is_none(),
                    "an output milestone {} spent",
                    s.index
                );
            }
        } else {
            let m = store.milestone_by_index(s.index).unwrap().unwrap();
            assert!(store.milestone_by_id(&m.milestone_id).unwrap().is_some());
            assert!(store.utxo_changes(s.index).unwrap().is_some());
            for b in &s.blocks {
                assert!(store.block(b).unwrap().is_some(), "a block of milestone {}", s.index);
                assert!(store.block_metadata_json(b).unwrap().is_some());
            }
            assert_eq!(store.blocks_with_transaction(&tx).unwrap().len(), 1);
            for o in &s.consumed {
                let (_, meta) = store.output(o).unwrap().unwrap();
                assert_eq!(json(&meta)["isSpent"], true);
            }
        }
    }
    // The unspent ledger is whole, and so is the index over it.
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
    store.verify_index().unwrap();
    let (_, meta) = store.output(&chain.input.0).unwrap().unwrap();
    assert_eq!(json(&meta)["isSpent"], false);
}

/// After pruning: new blocks (on tips and on the newest kept blocks) solidify, transfers
/// confirm.
fn still_works(store: &Store, chain: &mut Chain) {
    for _ in 0..3 {
        let s = chain.milestone(store, 3, 200);
        for b in &s.blocks {
            let meta = json(&store.block_metadata_json(b).unwrap().unwrap());
            assert_eq!(meta["isSolid"], true);
            assert_eq!(meta["referencedByMilestoneIndex"], s.index);
        }
    }
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
}

#[test]
fn pruning_by_index_drops_the_history_below_it_and_keeps_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let mut chain = Chain::new();
    chain.grow(&store, 60, 12, 16_000);
    let confirmed = store.status().ledger_index;
    assert_eq!(confirmed, 61);
    store.flush().unwrap();
    let before = du(dir.path());
    let blocks_before = store.status().blocks_stored;

    // Hornet's checks: below the pruning index, not enough history, the silent cap.
    let never = || false;
    let report = store.prune(PruneTarget::Index(30), &never).unwrap();
    assert_eq!((report.from, report.to), (0, 30));
    let err = store.prune(PruneTarget::Index(30), &never).unwrap_err();
    assert_eq!(err.code, Code::NoPruningNeeded);
    assert_eq!(err.detail, "pruning index: 30, target index: 30: no pruning needed");
    let err = store.prune(PruneTarget::Index(35), &never).unwrap_err();
    assert_eq!(err.code, Code::NotEnoughHistory);
    assert_eq!(err.detail, "minimum index: 36, target index: 35: not enough history");
    let err = store.prune(PruneTarget::Index(40), &never).unwrap_err();
    assert_eq!(err.code, Code::HistoryMissing);
    assert_eq!(err.detail, "milestone (25) not found: critical error");
    assert_eq!(store.history_indexes().entry_point_index, 30, "refused before any change");

    let pruned: u64 =
        chain.history.iter().filter(|s| s.index <= 30).map(|s| s.blocks.len() as u64).sum();
    assert!(report.blocks >= pruned, "{} blocks pruned, {pruned} of the chain", report.blocks);
    assert_eq!(store.status().blocks_stored, blocks_before - report.blocks);
    assert_eq!(report.outputs, 29, "one spent output per milestone 2 ..= 30");
    check_history(&store, &chain, 30);
    // Hornet's entry points of 30 replace the genesis ones.
    let entry_points = store.history_indexes().entry_point_index;
    assert_eq!(entry_points, 30);
    assert!(!store.is_solid_entry_point(&[0; 32]));
    // Milestone 30's block, referenced by a later milestone, is kept; its parents, which
    // milestone 30 confirmed, are entry points now.
    let m30 = chain.history.iter().find(|s| s.index == 30).unwrap().milestone_block;
    let parents =
        ledger_core::codec::decode_block(&store.block(&m30).unwrap().unwrap()).unwrap().parents;
    assert!(
        parents.iter().all(|p| store.is_solid_entry_point(p)),
        "milestone 30 stands on entry points"
    );

    still_works(&store, &mut chain);
    store.flush().unwrap();
    let after = du(dir.path());
    eprintln!(
        "prune by index 0→30 of 61: du {before} → {after} bytes; {} blocks, {} outputs, {} steps, longest step {} µs, compaction {} µs, run {} µs",
        report.blocks, report.outputs, report.steps, report.longest_step_micros, report.compaction_micros, report.micros
    );
    assert!(after < before * 3 / 4, "du {before} → {after}");

    // The same after a restart, and the whole directory passes tool db-health's check; a
    // target above the cap is lowered to it.
    drop(store);
    let health = ledger_store::integrity::check_directory(dir.path()).unwrap();
    assert_eq!(health.problems, Vec::<String>::new());
    assert_eq!(health.milestones, u64::from(confirmed + 3 - 30));
    let store = open(dir.path());
    check_history(&store, &chain, 30);
    still_works(&store, &mut chain);
    let confirmed = store.status().ledger_index;
    let report = store.prune(PruneTarget::Index(confirmed), &never).unwrap();
    assert_eq!(report.to, confirmed - 20, "capped at the confirmed index less belowMaxDepth + 5");
    check_history(&store, &chain, confirmed - 20);
    still_works(&store, &mut chain);
    drop(store);
    let health = ledger_store::integrity::check_directory(dir.path()).unwrap();
    assert_eq!(health.problems, Vec::<String>::new());
}

#[test]
fn pruning_by_depth_keeps_that_many_milestones() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let mut chain = Chain::new();
    chain.grow(&store, 45, 3, 500);
    let never = || false;
    let err = store.prune(PruneTarget::Depth(46), &never).unwrap_err();
    assert_eq!((err.code, err.detail.as_str()), (Code::NotEnoughHistory, "not enough history"));
    let err = store.prune(PruneTarget::Depth(41), &never).unwrap_err();
    assert_eq!(err.code, Code::NotEnoughHistory);
    assert_eq!(err.detail, "minimum index: 6, target index: 5: not enough history");
    let report = store.prune(PruneTarget::Depth(25), &never).unwrap();
    assert_eq!(report.to, 46 - 25);
    check_history(&store, &chain, 21);
    still_works(&store, &mut chain);
}

#[test]
fn pruning_by_size_shrinks_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let mut chain = Chain::new();
    chain.grow(&store, 80, 10, 16_000);
    let never = || false;
    store.flush().unwrap();
    let size = ledger_store::directory_size(dir.path()).unwrap();
    let err = store
        .prune(PruneTarget::Size { bytes: size * 2, threshold_percentage: 10.0 }, &never)
        .unwrap_err();
    assert_eq!((err.code, err.detail.as_str()), (Code::NoPruningNeeded, "no pruning needed"));

    let before = du(dir.path());
    let target = size / 2;
    let report = store
        .prune(PruneTarget::Size { bytes: target, threshold_percentage: 10.0 }, &never)
        .unwrap();
    // Hornet's arithmetic: keep ⌈81 × 0.45⌉ = 37 of the 81 milestones (the directory's size
    // moves a little between the test's reading and the run's: a few either way).
    assert!((41..=46).contains(&report.to), "pruned to {}", report.to);
    // The size follows the milestones kept, apart from RocksDB's fixed files (log, options).
    let left = ledger_store::directory_size(dir.path()).unwrap();
    assert!(left < size * 2 / 3, "{size} → {left} bytes");
    check_history(&store, &chain, report.to);
    store.flush().unwrap();
    let after = du(dir.path());
    eprintln!(
        "prune by size to {target} bytes: index {}, du {before} → {after} bytes, longest step {} µs, compaction {} µs",
        report.to, report.longest_step_micros, report.compaction_micros
    );
    assert!(after < before * 2 / 3, "du {before} → {after}");
    still_works(&store, &mut chain);
}

/// A run stopped after its k-th batch (an abort here; a crash stops it at the same
/// boundaries, since every batch is atomic) leaves a database that opens, serves everything
/// above the pruning index, keeps the ledger whole, and is finished at the next start.
#[test]
fn a_run_stopped_between_any_two_batches_is_finished_later() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let mut chain = Chain::new();
    chain.grow(&store, 35, 4, 300);
    drop(store);
    let mut k = 0;
    loop {
        let copy = tempfile::tempdir().unwrap();
        copy_dir(dir.path(), copy.path());
        let store = open(copy.path());
        let calls = Cell::new(0);
        let abort = || {
            calls.set(calls.get() + 1);
            calls.get() > k
        };
        match store.prune(PruneTarget::Index(16), &abort) {
            Ok(report) => {
                assert_eq!(report.to, 16);
                break;
            }
            Err(e) => assert_eq!(e.code, Code::PruningAborted),
        }
        let history = store.history_indexes();
        drop(store);
        let store = open(copy.path());
        assert_eq!(store.history_indexes(), history);
        let pruning = history.pruning_index;
        // Whatever is above the pruning index is still served.
        for s in chain.history.iter().filter(|s| s.index > pruning) {
            assert!(store.milestone_by_index(s.index).unwrap().is_some());
            for b in &s.blocks {
                assert!(store.block(b).unwrap().is_some(), "stop {k}: a block of {}", s.index);
            }
        }
        assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
        let mut more = clone_chain(&chain);
        more.milestone(&store, 2, 100);
        let finished = store.finish_unfinished_pruning(&|| false).unwrap();
        if history.entry_point_index == 16 {
            assert_eq!(finished.unwrap().to, 16, "stop {k}");
            check_history(&store, &more, 16);
        } else {
            assert!(finished.is_none());
        }
        // Every other boundary: with three batches a milestone (blocks, spent outputs, the
        // rest), each kind is still stopped after.
        k += 2;
    }
    assert!(k > 30, "the run had {k} batches");
}

fn clone_chain(chain: &Chain) -> Chain {
    Chain {
        input: chain.input.clone(),
        owner: chain.owner,
        n: chain.n,
        history: chain.history.clone(),
        unsettled: chain.unsettled.clone(),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A run in the background while blocks arrive and milestones confirm on this thread:
/// neither waits for the other (each batch of the run holds the store's lock only for its
/// write), and nothing above the pruning index is lost.
#[test]
fn blocks_and_milestones_go_on_while_a_run_works() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(started(dir.path()));
    let mut chain = Chain::new();
    chain.grow(&store, 50, 10, 1000);
    let runner = {
        let store = store.clone();
        std::thread::spawn(move || store.prune(PruneTarget::Index(30), &|| false).unwrap())
    };
    let mut longest_submit = std::time::Duration::ZERO;
    while !runner.is_finished() {
        let started = std::time::Instant::now();
        chain.milestone(&store, 2, 100);
        longest_submit = longest_submit.max(started.elapsed());
    }
    let report = runner.join().unwrap();
    eprintln!(
        "concurrent run: {} steps, longest step under the lock {} µs; longest milestone with its blocks meanwhile {:?}",
        report.steps, report.longest_step_micros, longest_submit
    );
    check_history(&store, &chain, 30);
    still_works(&store, &mut chain);
}

/// Hornet's background rule by milestones: after each confirmed milestone, prune to the
/// confirmed index less `maxMilestonesToKeep` (capped, in runs of at least 16 milestones).
#[test]
fn the_background_worker_keeps_max_milestones_to_keep() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(started(dir.path()));
    let mut chain = Chain::new();
    store.start_pruning(PruningConfig {
        max_milestones_to_keep: Some(30),
        ..PruningConfig::default()
    });
    chain.grow(&store, 60, 2, 100);
    // The worker runs on its own thread: wait (for what it does, not for a time) until it
    // has reached what the rule allows, with a generous limit against a hang.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while store.status().pruning_index < 16 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    store.stop_pruning();
    let status = store.pruning_status();
    assert!(status.last_error.is_none(), "{:?}", status.last_error);
    let pruning = store.status().pruning_index;
    assert!((16..=31).contains(&pruning), "pruning index {pruning}");
    check_history(&store, &chain, pruning);
}
