//! The plain objects `LedgerStore` hands to JavaScript (`#[napi(object)]`, typed in the
//! generated `native/index.d.ts`) and their conversion from the store's Rust values: ids as
//! 0x-hex strings, bytes as Buffers, large counters as numbers, and the `failure` by which a
//! submitted batch reports each block the store refused (errors.rs).

use ledger_core::json::hex;
use ledger_store::{IssuedMilestone, MilestoneRecord, Status, Submitted, UtxoChanges};
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;

/// Why one block of a batch was not stored: data of the answer (`errors.rs`).
#[napi(object)]
#[derive(Debug, PartialEq)]
pub struct NativeFailure {
    /// A reason code (`ErrorCode`).
    pub code: String,
    pub path: String,
    pub detail: String,
}

impl From<ledger_core::Error> for NativeFailure {
    fn from(e: ledger_core::Error) -> Self {
        NativeFailure { code: e.code.to_string(), path: e.path, detail: e.detail }
    }
}

#[napi(object)]
pub struct SubmitOutcome {
    pub block_id: Option<String>,
    pub stored: bool,
    pub failure: Option<NativeFailure>,
}

impl From<ledger_core::Result<Submitted>> for SubmitOutcome {
    fn from(result: ledger_core::Result<Submitted>) -> Self {
        match result {
            Ok(s) => {
                SubmitOutcome { block_id: Some(hex(&s.block_id)), stored: s.stored, failure: None }
            }
            Err(e) => SubmitOutcome { block_id: None, stored: false, failure: Some(e.into()) },
        }
    }
}

#[napi(object)]
pub struct MilestoneOutcome {
    pub index: u32,
    pub milestone_id: String,
    pub block_id: String,
    pub timestamp: u32,
    pub referenced_blocks: u32,
    pub included_transactions: u32,
    /// Microseconds in white flag and in the atomic commit.
    pub confirm_micros: f64,
    pub commit_micros: f64,
}

impl From<IssuedMilestone> for MilestoneOutcome {
    fn from(m: IssuedMilestone) -> Self {
        MilestoneOutcome {
            index: m.index,
            milestone_id: hex(&m.milestone_id),
            block_id: hex(&m.block_id),
            timestamp: m.timestamp,
            referenced_blocks: m.referenced_blocks as u32,
            included_transactions: m.included_transactions as u32,
            confirm_micros: m.confirm_micros as f64,
            commit_micros: m.commit_micros as f64,
        }
    }
}

#[napi(object)]
pub struct ColumnSize {
    /// The column family's name (ledger-store `columns.rs`).
    pub name: String,
    pub bytes: f64,
}

#[napi(object)]
pub struct FoundOutput {
    pub output: Buffer,
    pub metadata_json: String,
}

#[napi(object)]
pub struct FoundMilestone {
    pub index: u32,
    pub timestamp: u32,
    pub milestone_id: String,
    pub block_id: String,
    pub payload: Buffer,
}

impl From<MilestoneRecord> for FoundMilestone {
    fn from(r: MilestoneRecord) -> Self {
        FoundMilestone {
            index: r.index,
            timestamp: r.timestamp,
            milestone_id: hex(&r.milestone_id),
            block_id: hex(&r.block_id),
            payload: r.payload.into(),
        }
    }
}

#[napi(object)]
pub struct UtxoChangesJs {
    pub index: u32,
    pub created_outputs: Vec<String>,
    pub consumed_outputs: Vec<String>,
}

impl From<UtxoChanges> for UtxoChangesJs {
    fn from(c: UtxoChanges) -> Self {
        UtxoChangesJs {
            index: c.index,
            created_outputs: c.created.iter().map(|id| hex(id)).collect(),
            consumed_outputs: c.consumed.iter().map(|id| hex(id)).collect(),
        }
    }
}

#[napi(object)]
pub struct LatestMilestoneJs {
    pub index: u32,
    pub timestamp: Option<u32>,
    pub milestone_id: Option<String>,
}

/// The blocks of the last milestone interval (`ledger_store::MilestoneInterval`).
#[napi(object)]
pub struct MilestoneIntervalJs {
    pub index: u32,
    pub new_blocks: f64,
    pub referenced_blocks: f64,
    pub seconds: u32,
}

/// `Store::start_check`: what the check after an unclean shutdown looked at.
#[napi(object)]
pub struct StartCheckJs {
    pub unspent_outputs: f64,
    pub milestones: f64,
    pub micros: f64,
}

impl From<ledger_store::StartCheck> for StartCheckJs {
    fn from(c: ledger_store::StartCheck) -> Self {
        StartCheckJs {
            unspent_outputs: c.unspent_outputs as f64,
            milestones: c.milestones as f64,
            micros: c.micros as f64,
        }
    }
}

#[napi(object)]
pub struct StoreStatusJs {
    pub latest_milestone: LatestMilestoneJs,
    pub ledger_index: u32,
    /// The snapshot's target index (0 for a ledger that began at genesis).
    pub pruning_index: u32,
    pub blocks_stored: f64,
    pub pending_blocks: f64,
    pub blocks_below_max_depth: f64,
    pub last_interval: Option<MilestoneIntervalJs>,
    /// The last write failed because the data directory's file system is full.
    pub storage_full: bool,
}

impl From<Status> for StoreStatusJs {
    fn from(s: Status) -> Self {
        let latest_milestone = match s.latest_milestone {
            Some((index, timestamp, id)) => LatestMilestoneJs {
                index,
                timestamp: Some(timestamp),
                milestone_id: Some(hex(&id)),
            },
            None => LatestMilestoneJs { index: 0, timestamp: None, milestone_id: None },
        };
        StoreStatusJs {
            latest_milestone,
            ledger_index: s.ledger_index,
            pruning_index: s.pruning_index,
            blocks_stored: s.blocks_stored as f64,
            pending_blocks: s.pending_blocks as f64,
            blocks_below_max_depth: s.blocks_below_max_depth as f64,
            last_interval: s.last_interval.map(|i| MilestoneIntervalJs {
                index: i.index,
                new_blocks: i.new_blocks as f64,
                referenced_blocks: i.referenced_blocks as f64,
                seconds: i.seconds,
            }),
            storage_full: s.storage_full,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_store::MilestoneInterval;

    fn failure() -> ledger_core::Error {
        ledger_core::Error::new(ledger_core::Code::UnknownParent, "parents[1]", "not stored")
    }

    fn native_failure() -> NativeFailure {
        NativeFailure {
            code: "unknown-parent".into(),
            path: "parents[1]".into(),
            detail: "not stored".into(),
        }
    }

    #[test]
    fn a_submitted_block_is_its_id_or_its_failure() {
        let stored = SubmitOutcome::from(Ok(Submitted { block_id: [0xab; 32], stored: false }));
        assert_eq!(stored.block_id, Some(format!("0x{}", "ab".repeat(32))));
        assert!(!stored.stored && stored.failure.is_none());
        let failed = SubmitOutcome::from(Err(failure()));
        assert_eq!((failed.block_id, failed.stored), (None, false));
        assert_eq!(failed.failure, Some(native_failure()));
    }

    #[test]
    fn an_issued_milestone_and_its_counters() {
        let issued = MilestoneOutcome::from(IssuedMilestone {
            index: 4,
            milestone_id: [1; 32],
            block_id: [2; 32],
            timestamp: 1_700_000_000,
            referenced_blocks: 5,
            included_transactions: 6,
            confirm_micros: 70,
            commit_micros: 80,
        });
        assert_eq!((issued.index, issued.timestamp), (4, 1_700_000_000));
        assert_eq!(issued.milestone_id, format!("0x{}", "01".repeat(32)));
        assert_eq!(issued.block_id, format!("0x{}", "02".repeat(32)));
        assert_eq!((issued.referenced_blocks, issued.included_transactions), (5, 6));
        assert_eq!((issued.confirm_micros, issued.commit_micros), (70.0, 80.0));
    }

    #[test]
    fn milestones_and_utxo_changes_carry_hex_ids() {
        let found = FoundMilestone::from(MilestoneRecord {
            index: 9,
            milestone_id: [3; 32],
            block_id: [4; 32],
            timestamp: 12,
            payload: vec![7, 8],
        });
        assert_eq!((found.index, found.timestamp), (9, 12));
        assert_eq!(found.milestone_id, format!("0x{}", "03".repeat(32)));
        assert_eq!(found.block_id, format!("0x{}", "04".repeat(32)));
        assert_eq!(found.payload.to_vec(), vec![7, 8]);
        let changes =
            UtxoChangesJs::from(UtxoChanges { index: 2, created: vec![[5; 34]], consumed: vec![] });
        assert_eq!(changes.index, 2);
        assert_eq!(changes.created_outputs, vec![format!("0x{}", "05".repeat(34))]);
        assert!(changes.consumed_outputs.is_empty());
    }

    #[test]
    fn status_before_and_after_the_first_milestone() {
        let status = |latest_milestone, last_interval| Status {
            latest_milestone,
            pruning_index: 1,
            ledger_index: 2,
            blocks_stored: 3,
            pending_blocks: 4,
            blocks_below_max_depth: 5,
            last_interval,
            storage_full: last_interval.is_some(),
        };
        let fresh = StoreStatusJs::from(status(None, None));
        let latest = fresh.latest_milestone;
        assert_eq!((latest.index, latest.timestamp, latest.milestone_id), (0, None, None));
        assert_eq!((fresh.pruning_index, fresh.ledger_index), (1, 2));
        assert_eq!((fresh.blocks_stored, fresh.pending_blocks), (3.0, 4.0));
        assert_eq!(fresh.blocks_below_max_depth, 5.0);
        assert!(fresh.last_interval.is_none());
        assert!(!fresh.storage_full);
        let interval =
            MilestoneInterval { index: 7, new_blocks: 10, referenced_blocks: 9, seconds: 5 };
        let running = StoreStatusJs::from(status(Some((7, 99, [6; 32])), Some(interval)));
        let latest = running.latest_milestone;
        assert_eq!((latest.index, latest.timestamp), (7, Some(99)));
        assert_eq!(latest.milestone_id, Some(format!("0x{}", "06".repeat(32))));
        let i = running.last_interval.expect("an interval");
        assert_eq!((i.index, i.new_blocks, i.referenced_blocks, i.seconds), (7, 10.0, 9.0, 5));
        assert!(running.storage_full);
    }
}
