//! The health of a data directory (Hornet's `tool db-health`): everything the node relies on
//! without checking it on every read. The unspent outputs and the treasury add up to the
//! token supply; every unspent or spent output has its record; the indexer equals the ledger
//! it claims to reflect; the milestones run without gaps from the first one kept to the
//! ledger index, each found again by its id; every block has its bytes and metadata, and a
//! block a milestone kept referenced approves only blocks the node stores or its solid entry
//! points; every transaction-inclusion entry names a stored block.
//!
//! Reads the whole database once; meant for an offline check (the directory opened
//! read-only, so a running node may keep it) and for tests.

use crate::columns::{
    state_key, BLOCKS, BLOCK_META, MILESTONES, MILESTONE_IDS, OUTPUTS, SPENTS, STATE, TX_BLOCKS,
    UNSPENT,
};
use crate::db::Db;
use crate::entry_points::SolidEntryPoints;
use crate::history::HistoryIndexes;
use crate::origin::{GenesisStyle, Origin};
use crate::records::{BlockMeta, MilestoneRecord};
use crate::{genesis, index, ledger};
use ledger_core::model::Id32;
use ledger_core::Result;
use std::path::Path;

/// At most this many problems are listed: the first ones tell what to do.
const MAX_PROBLEMS: usize = 20;

/// What a health check found.
#[derive(Debug, Default)]
pub struct HealthReport {
    pub unspent_outputs: u64,
    pub blocks: u64,
    pub milestones: u64,
    /// The indexer was checked (it is only when the directory has one).
    pub indexer_checked: bool,
    /// One line each, at most [`MAX_PROBLEMS`]; empty when the database is healthy.
    pub problems: Vec<String>,
}

impl HealthReport {
    fn problem(&mut self, text: String) -> bool {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(text);
        }
        self.problems.len() < MAX_PROBLEMS
    }
}

/// Check the ledger directory `ledger_dir` (a node's `<dataDir>/ledger`), opened read-only.
pub fn check_directory(ledger_dir: &Path) -> Result<HealthReport> {
    check(&Db::open_ledger_read_only(ledger_dir)?)
}

/// Check an open database.
pub fn check(db: &Db) -> Result<HealthReport> {
    check_parts(db, true)
}

/// The check at start after a run that did not end cleanly: the ledger (supply, output
/// records, indexer, milestones), not the walk over every block and inclusion, whose time
/// grows with the history rather than with the ledger (`tool db-health` does it).
pub fn check_ledger(db: &Db) -> Result<HealthReport> {
    check_parts(db, false)
}

fn check_parts(db: &Db, with_blocks: bool) -> Result<HealthReport> {
    let mut report = HealthReport::default();
    let protocol = match db.get(STATE, state_key::PROTOCOL)? {
        Some(text) => genesis::protocol_from_json(&String::from_utf8_lossy(&text))?,
        None => {
            report.problem("no protocol parameters: the directory holds no ledger".into());
            return Ok(report);
        }
    };
    // A directory older than genesis styles has no origin record: the built-in one.
    let origin = match db.get(STATE, state_key::ORIGIN)? {
        Some(b) => Origin::from_bytes(&b)?,
        None => Origin::built_in(GenesisStyle::Ledger),
    };
    let history = HistoryIndexes::load(db, &origin)?;
    supply(db, protocol.token_supply, &mut report)?;
    outputs(db, &mut report)?;
    indexer(db, &mut report)?;
    let ledger_index = ledger_index(db)?;
    milestones(db, &history, ledger_index, &mut report)?;
    if with_blocks {
        blocks(db, &history, &mut report)?;
        inclusions(db, &mut report)?;
    }
    Ok(report)
}

fn supply(db: &Db, token_supply: u64, report: &mut HealthReport) -> Result<()> {
    let unspent = ledger::unspent_total(db);
    let treasury = ledger::treasury(db)?.amount as u128;
    match unspent {
        Ok(total) if total + treasury == token_supply as u128 => {}
        Ok(total) => {
            report.problem(format!(
                "the unspent outputs ({total}) and the treasury ({treasury}) do not add up to the token supply ({token_supply})"
            ));
        }
        Err(e) => {
            report.problem(format!("the unspent outputs cannot be added up: {}", e.detail));
        }
    }
    Ok(())
}

fn outputs(db: &Db, report: &mut HealthReport) -> Result<()> {
    let mut count = 0u64;
    db.scan(UNSPENT, &[], |key, _| {
        count += 1;
        if !db.exists(OUTPUTS, key)? {
            return Ok(
                report.problem(format!("unspent output 0x{} has no record", hex::encode(key)))
            );
        }
        Ok(true)
    })?;
    report.unspent_outputs = count;
    db.scan(SPENTS, &[], |key, _| {
        if !db.exists(OUTPUTS, key)? {
            return Ok(report.problem(format!("spent output 0x{} has no record", hex::encode(key))));
        }
        Ok(true)
    })
}

fn indexer(db: &Db, report: &mut HealthReport) -> Result<()> {
    // A directory whose indexer is off (or was never on) has nothing to compare, nor has one
    // whose indexer fell behind while the node ran without it: that index is never served,
    // and it is rebuilt when the indexer is switched on again.
    if !index::is_current(db)? {
        return Ok(());
    }
    report.indexer_checked = true;
    if let Err(e) = index::verify(db) {
        report.problem(format!("the indexer differs from the ledger: {}", e.detail));
    }
    Ok(())
}

fn ledger_index(db: &Db) -> Result<u32> {
    Ok(match db.get(STATE, state_key::LEDGER_INDEX)? {
        Some(b) if b.len() == 4 => u32::from_le_bytes(b[..].try_into().expect("4 bytes")),
        _ => 0,
    })
}

fn milestones(
    db: &Db,
    history: &HistoryIndexes,
    ledger_index: u32,
    report: &mut HealthReport,
) -> Result<()> {
    let mut expected = None;
    let mut count = 0u64;
    let mut last = 0;
    db.scan(MILESTONES, &[], |_, value| {
        count += 1;
        let record = match MilestoneRecord::from_bytes(value) {
            Ok(record) => record,
            Err(e) => {
                return Ok(report.problem(format!("a milestone record is damaged: {}", e.detail)))
            }
        };
        if let Some(next) = expected {
            if record.index != next {
                return Ok(report.problem(format!(
                    "milestones {next} to {} are missing",
                    record.index.saturating_sub(1)
                )));
            }
        }
        expected = Some(record.index + 1);
        last = record.index;
        match db.get(MILESTONE_IDS, &record.milestone_id)? {
            Some(b) if b[..] == crate::columns::index_key(record.index) => Ok(true),
            _ => Ok(report.problem(format!(
                "milestone {} is not found by its id 0x{}",
                record.index,
                hex::encode(record.milestone_id)
            ))),
        }
    })?;
    report.milestones = count;
    // The snapshot a ledger started from holds its target milestone without a block; the
    // milestones after it come from the network.
    if last != ledger_index && ledger_index > history.snapshot_index {
        report.problem(format!(
            "the ledger index is {ledger_index} but the last milestone stored is {last}"
        ));
    }
    Ok(())
}

fn blocks(db: &Db, history: &HistoryIndexes, report: &mut HealthReport) -> Result<()> {
    let entry_points = SolidEntryPoints::load(db)?;
    let stored =
        |id: &Id32| -> Result<bool> { Ok(entry_points.contains(id) || db.exists(BLOCK_META, id)?) };
    let mut count = 0u64;
    db.scan(BLOCK_META, &[], |key, value| {
        count += 1;
        let id: Id32 = match key.try_into() {
            Ok(id) => id,
            Err(_) => return Ok(report.problem(format!("a block metadata key of {} bytes", key.len()))),
        };
        let meta = match BlockMeta::from_bytes(value) {
            Ok(meta) => meta,
            Err(e) => {
                return Ok(report.problem(format!(
                    "block 0x{}'s metadata is damaged: {}",
                    hex::encode(id),
                    e.detail
                )))
            }
        };
        let Some(bytes) = db.get(BLOCKS, &id)? else {
            return Ok(report.problem(format!("block 0x{} has metadata but no bytes", hex::encode(id))));
        };
        // What a milestone above the pruning index referenced must stand on stored blocks
        // or on the entry points the pruned range left.
        if meta.referenced_by > history.pruning_index {
            let header = match ledger_core::codec::decode_block_header(&bytes) {
                Ok(header) => header,
                Err(e) => {
                    return Ok(report.problem(format!(
                        "block 0x{} cannot be read: {}",
                        hex::encode(id),
                        e.detail
                    )))
                }
            };
            for parent in &header.parents {
                if !stored(parent)? {
                    return Ok(report.problem(format!(
                        "block 0x{}, referenced by milestone {}, approves 0x{}, which is neither stored nor a solid entry point",
                        hex::encode(id),
                        meta.referenced_by,
                        hex::encode(parent)
                    )));
                }
            }
        }
        Ok(true)
    })?;
    report.blocks = count;
    Ok(())
}

fn inclusions(db: &Db, report: &mut HealthReport) -> Result<()> {
    db.scan(TX_BLOCKS, &[], |key, _| {
        let Some(block) = key.len().checked_sub(32).map(|at| &key[at..]) else {
            return Ok(
                report.problem(format!("a transaction-inclusion key of {} bytes", key.len()))
            );
        };
        if !db.exists(BLOCKS, block)? {
            return Ok(report.problem(format!(
                "transaction 0x{} is recorded in block 0x{}, which is not stored",
                hex::encode(&key[..key.len() - 32]),
                hex::encode(block)
            )));
        }
        Ok(true)
    })
}
