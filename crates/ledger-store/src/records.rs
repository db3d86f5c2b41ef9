//! The binary records of the column families. Fixed little-endian layouts, each with a
//! reader that refuses a record of the wrong size instead of reading garbage.

use crate::storage_error;
use ledger_core::model::Id32;
use ledger_core::snapshot::TreasuryOutput;
use ledger_core::Result;

/// How white flag judged a referenced block (ledger.md §7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InclusionState {
    NoTransaction = 1,
    Included = 2,
    Conflicting = 3,
}

impl InclusionState {
    pub fn as_str(self) -> &'static str {
        match self {
            InclusionState::NoTransaction => "noTransaction",
            InclusionState::Included => "included",
            InclusionState::Conflicting => "conflicting",
        }
    }

    fn from_u8(v: u8) -> Option<Self> {
        match v {
            1 => Some(InclusionState::NoTransaction),
            2 => Some(InclusionState::Included),
            3 => Some(InclusionState::Conflicting),
            _ => None,
        }
    }
}

/// What the node knows about a stored block besides its bytes (ledger.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BlockMeta {
    /// Unix milliseconds when the block was stored.
    pub arrival_ms: u64,
    /// Arrival order among all stored blocks.
    pub seq: u64,
    /// The milestone whose white flag referenced it; 0 while unreferenced.
    pub referenced_by: u32,
    pub white_flag_index: u32,
    pub inclusion: Option<InclusionState>,
    /// Conflict reason code, 0 unless conflicting.
    pub conflict: u8,
    /// The index of the milestone this block carries; 0 for other blocks.
    pub milestone_index: u32,
    /// Unreferenced and below max depth (ledger.md §5): no milestone can reference it any
    /// more, so it has left the pending graph and the `unreferenced` family for good.
    pub below_max_depth: bool,
}

const BLOCK_META_LEN: usize = 31;
/// Records written before the flags byte existed (schema version 0) have 30 bytes.
const BLOCK_META_LEN_V0: usize = 30;
const FLAG_BELOW_MAX_DEPTH: u8 = 1;

impl BlockMeta {
    pub fn to_bytes(self) -> [u8; BLOCK_META_LEN] {
        let mut b = [0u8; BLOCK_META_LEN];
        b[0..8].copy_from_slice(&self.arrival_ms.to_le_bytes());
        b[8..16].copy_from_slice(&self.seq.to_le_bytes());
        b[16..20].copy_from_slice(&self.referenced_by.to_le_bytes());
        b[20..24].copy_from_slice(&self.white_flag_index.to_le_bytes());
        b[24] = self.inclusion.map_or(0, |s| s as u8);
        b[25] = self.conflict;
        b[26..30].copy_from_slice(&self.milestone_index.to_le_bytes());
        b[30] = if self.below_max_depth { FLAG_BELOW_MAX_DEPTH } else { 0 };
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() != BLOCK_META_LEN && b.len() != BLOCK_META_LEN_V0 {
            return Err(storage_error(format!("block metadata record of {} bytes", b.len())));
        }
        Ok(BlockMeta {
            arrival_ms: u64_at(b, 0),
            seq: u64_at(b, 8),
            referenced_by: u32_at(b, 16),
            white_flag_index: u32_at(b, 20),
            inclusion: InclusionState::from_u8(b[24]),
            conflict: b[25],
            milestone_index: u32_at(b, 26),
            below_max_depth: b.get(30).is_some_and(|flags| flags & FLAG_BELOW_MAX_DEPTH != 0),
        })
    }
}

/// A created output: where and when it was booked, and its serialized bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputRecord {
    pub block_id: Id32,
    pub milestone_index: u32,
    pub milestone_timestamp: u32,
    pub output: Vec<u8>,
}

impl OutputRecord {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(40 + self.output.len());
        b.extend_from_slice(&self.block_id);
        b.extend_from_slice(&self.milestone_index.to_le_bytes());
        b.extend_from_slice(&self.milestone_timestamp.to_le_bytes());
        b.extend_from_slice(&self.output);
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() < 41 {
            return Err(storage_error(format!("output record of {} bytes", b.len())));
        }
        Ok(OutputRecord {
            block_id: array_at(b, 0),
            milestone_index: u32_at(b, 32),
            milestone_timestamp: u32_at(b, 36),
            output: b[40..].to_vec(),
        })
    }
}

/// Every output type starts with its type byte and its u64 amount.
pub fn output_amount(output: &[u8]) -> u64 {
    u64_at(output, 1)
}

/// How an output was spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpentRecord {
    pub transaction_id: Id32,
    pub milestone_index: u32,
    pub milestone_timestamp: u32,
}

impl SpentRecord {
    pub fn to_bytes(self) -> [u8; 40] {
        let mut b = [0u8; 40];
        b[..32].copy_from_slice(&self.transaction_id);
        b[32..36].copy_from_slice(&self.milestone_index.to_le_bytes());
        b[36..40].copy_from_slice(&self.milestone_timestamp.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() != 40 {
            return Err(storage_error(format!("spent record of {} bytes", b.len())));
        }
        Ok(SpentRecord {
            transaction_id: array_at(b, 0),
            milestone_index: u32_at(b, 32),
            milestone_timestamp: u32_at(b, 36),
        })
    }
}

/// An applied milestone: its ids, time and payload bytes (type code first, as the API
/// serves them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MilestoneRecord {
    pub index: u32,
    pub milestone_id: Id32,
    pub block_id: Id32,
    pub timestamp: u32,
    pub payload: Vec<u8>,
}

impl MilestoneRecord {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(72 + self.payload.len());
        b.extend_from_slice(&self.index.to_le_bytes());
        b.extend_from_slice(&self.milestone_id);
        b.extend_from_slice(&self.block_id);
        b.extend_from_slice(&self.timestamp.to_le_bytes());
        b.extend_from_slice(&self.payload);
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        if b.len() < 72 {
            return Err(storage_error(format!("milestone record of {} bytes", b.len())));
        }
        Ok(MilestoneRecord {
            index: u32_at(b, 0),
            milestone_id: array_at(b, 4),
            block_id: array_at(b, 36),
            timestamp: u32_at(b, 68),
            payload: b[72..].to_vec(),
        })
    }
}

/// The ledger changes of one milestone (its UTXO diff): the outputs it created (migrated
/// funds of a receipt last) and consumed, and, for a milestone with a receipt, the treasury
/// output the receipt spent (a snapshot's diff carries it; the new one follows from the
/// receipt). Records of milestones without a receipt end after the two lists, as they did
/// before receipts were kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    pub created: Vec<[u8; 34]>,
    pub consumed: Vec<[u8; 34]>,
    pub spent_treasury: Option<TreasuryOutput>,
}

impl Diff {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(48 + 34 * (self.created.len() + self.consumed.len()));
        for list in [&self.created, &self.consumed] {
            b.extend_from_slice(&(list.len() as u32).to_le_bytes());
            for id in list {
                b.extend_from_slice(id);
            }
        }
        if let Some(t) = &self.spent_treasury {
            b.extend_from_slice(&t.milestone_id);
            b.extend_from_slice(&t.amount.to_le_bytes());
        }
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Self> {
        let mut at = 0;
        let mut read_list = || -> Result<Vec<[u8; 34]>> {
            if b.len() < at + 4 {
                return Err(storage_error("truncated diff record"));
            }
            let n = u32_at(b, at) as usize;
            at += 4;
            if b.len() < at + 34 * n {
                return Err(storage_error("truncated diff record"));
            }
            let list = (0..n).map(|i| array_at(b, at + 34 * i)).collect();
            at += 34 * n;
            Ok(list)
        };
        let created = read_list()?;
        let consumed = read_list()?;
        let spent_treasury = match b.len() - at {
            0 => None,
            40 => {
                Some(TreasuryOutput { milestone_id: array_at(b, at), amount: u64_at(b, at + 32) })
            }
            n => return Err(storage_error(format!("diff record with {n} bytes after its lists"))),
        };
        Ok(Diff { created, consumed, spent_treasury })
    }
}

/// `N` bytes of `b` from `at`. Every reader checks a record's length before reading its
/// fields, so the range is always inside `b` (a shorter record panics here, never reads
/// garbage).
pub fn array_at<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&b[at..at + N]);
    out
}

pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(array_at(b, at))
}

pub fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(array_at(b, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let meta = BlockMeta {
            arrival_ms: 1_700_000_000_123,
            seq: 42,
            referenced_by: 7,
            white_flag_index: 3,
            inclusion: Some(InclusionState::Conflicting),
            conflict: 2,
            milestone_index: 0,
            below_max_depth: false,
        };
        assert_eq!(BlockMeta::from_bytes(&meta.to_bytes()).unwrap(), meta);
        let pruned = BlockMeta { below_max_depth: true, ..Default::default() };
        assert_eq!(BlockMeta::from_bytes(&pruned.to_bytes()).unwrap(), pruned);
        // A record of schema version 0 (no flags byte) still reads.
        assert_eq!(BlockMeta::from_bytes(&meta.to_bytes()[..30]).unwrap(), meta);
        let out = OutputRecord {
            block_id: [9; 32],
            milestone_index: 5,
            milestone_timestamp: 77,
            output: vec![3, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        };
        let back = OutputRecord::from_bytes(&out.to_bytes()).unwrap();
        assert_eq!(back, out);
        assert_eq!(output_amount(&back.output), 1);
        let spent =
            SpentRecord { transaction_id: [1; 32], milestone_index: 2, milestone_timestamp: 3 };
        assert_eq!(SpentRecord::from_bytes(&spent.to_bytes()).unwrap(), spent);
        let diff =
            Diff { created: vec![[1; 34], [2; 34]], consumed: vec![[3; 34]], spent_treasury: None };
        assert_eq!(Diff::from_bytes(&diff.to_bytes()).unwrap(), diff);
        let receipt = Diff {
            spent_treasury: Some(TreasuryOutput { milestone_id: [8; 32], amount: 77 }),
            ..diff
        };
        assert_eq!(Diff::from_bytes(&receipt.to_bytes()).unwrap(), receipt);
        let ms = MilestoneRecord {
            index: 4,
            milestone_id: [4; 32],
            block_id: [5; 32],
            timestamp: 6,
            payload: vec![7, 0, 0, 0],
        };
        assert_eq!(MilestoneRecord::from_bytes(&ms.to_bytes()).unwrap(), ms);
    }

    #[test]
    fn short_records_are_errors_not_panics() {
        assert!(BlockMeta::from_bytes(&[0; 5]).is_err());
        assert!(OutputRecord::from_bytes(&[0; 40]).is_err());
        assert!(SpentRecord::from_bytes(&[0; 39]).is_err());
        assert!(Diff::from_bytes(&[5, 0, 0, 0]).is_err());
        assert!(Diff::from_bytes(&[0, 0, 0, 0, 0, 0, 0, 0, 1]).is_err());
        assert!(MilestoneRecord::from_bytes(&[0; 71]).is_err());
    }
}
