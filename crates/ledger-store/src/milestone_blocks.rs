//! `milestone_blocks`: milestone index (u32 BE) ‖ block id → how the block left the pending
//! graph at that milestone: referenced by it, or found below max depth at it (ledger.md §8).
//!
//! Every stored block but the pending ones has exactly one entry, written in the batch that
//! settles it: a milestone's commit for the blocks it references and the blocks it leaves
//! below max depth, the intake for a block below max depth on arrival (filed under the
//! confirmed index it arrived at). It plays the part of Hornet's two ways of finding what a
//! milestone takes with it — the walk of its past cone and the unreferenced-blocks store
//! keyed by the latest milestone at arrival — in one ordered range: pruning milestone m
//! deletes exactly the blocks under prefix m, and Hornet's solid entry point rule reads the
//! blocks a milestone confirmed without walking (`entry_point_rule.rs`).

use crate::columns::{state_key, TypedColumn, BLOCK_META, MILESTONE_BLOCKS, STATE};
use crate::db::Db;
use crate::records::{u32_at, BlockMeta};
use crate::storage_error;
use ledger_core::model::Id32;
use ledger_core::Result;

/// How a block left the pending graph at its milestone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    Referenced = 1,
    BelowMaxDepth = 2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MilestoneBlock {
    pub index: u32,
    pub block_id: Id32,
}

pub struct MilestoneBlocks;

impl TypedColumn for MilestoneBlocks {
    const NAME: &'static str = MILESTONE_BLOCKS;
    type Key = MilestoneBlock;
    type Value = Settled;

    fn encode_key(k: &MilestoneBlock) -> Vec<u8> {
        let mut key = Vec::with_capacity(36);
        key.extend_from_slice(&k.index.to_be_bytes());
        key.extend_from_slice(&k.block_id);
        key
    }

    fn decode_key(bytes: &[u8]) -> Result<MilestoneBlock> {
        if bytes.len() != 36 {
            return Err(storage_error(format!("milestone block key of {} bytes", bytes.len())));
        }
        Ok(MilestoneBlock {
            index: u32::from_be_bytes(bytes[..4].try_into().expect("4 bytes")),
            block_id: bytes[4..].try_into().expect("32 bytes"),
        })
    }

    fn encode_value(v: &Settled) -> Vec<u8> {
        vec![*v as u8]
    }

    fn decode_value(bytes: &[u8]) -> Result<Settled> {
        match bytes {
            [1] => Ok(Settled::Referenced),
            [2] => Ok(Settled::BelowMaxDepth),
            _ => Err(storage_error(format!("milestone block value {}", hex::encode(bytes)))),
        }
    }
}

/// The key prefix of a milestone's blocks (and the start of its range).
pub fn prefix(index: u32) -> [u8; 4] {
    index.to_be_bytes()
}

/// Every block settled at milestone `index`, in id order, until `each` says stop.
pub fn for_each(
    db: &Db,
    index: u32,
    mut each: impl FnMut(Id32, Settled) -> Result<bool>,
) -> Result<()> {
    db.scan(MILESTONE_BLOCKS, &prefix(index), |key, value| {
        let k = MilestoneBlocks::decode_key(key)?;
        each(k.block_id, MilestoneBlocks::decode_value(value)?)
    })
}

/// Fill the family from the block metadata of a data directory written before it existed
/// (schema version 4): referenced blocks under their milestone; blocks found below max depth
/// earlier, whose milestone was not recorded, under the current ledger index (pruning takes
/// them when it passes it). Idempotent, in batches of bounded size: an interrupted rebuild
/// is done again at the next open (the schema version is written after it).
pub fn rebuild(db: &Db) -> Result<()> {
    let ledger_index = match db.get(STATE, state_key::LEDGER_INDEX)? {
        Some(v) if v.len() == 4 => u32_at(&v, 0),
        Some(v) => return Err(storage_error(format!("ledger index of {} bytes", v.len()))),
        None => 0,
    };
    let mut batch = db.batch();
    let mut in_batch = 0;
    let mut failure = None;
    db.scan(BLOCK_META, &[], |key, value| {
        let Ok(block_id) = <Id32>::try_from(key) else {
            failure = Some(storage_error(format!("block metadata key of {} bytes", key.len())));
            return Ok(false);
        };
        let meta = BlockMeta::from_bytes(value)?;
        let entry = match (meta.referenced_by, meta.below_max_depth) {
            (0, false) => None,
            (0, true) => Some((ledger_index, Settled::BelowMaxDepth)),
            (index, _) => Some((index, Settled::Referenced)),
        };
        if let Some((index, how)) = entry {
            batch.put_typed::<MilestoneBlocks>(&MilestoneBlock { index, block_id }, &how);
            in_batch += 1;
        }
        if in_batch == REBUILD_BATCH {
            std::mem::replace(&mut batch, db.batch()).commit()?;
            in_batch = 0;
        }
        Ok(true)
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    batch.commit()
}

/// Entries per batch of `rebuild`.
const REBUILD_BATCH: usize = 10_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milestone_blocks_round_trip_in_index_order() {
        let k = MilestoneBlock { index: 0x0102_0304, block_id: [9; 32] };
        let key = MilestoneBlocks::encode_key(&k);
        assert_eq!(&key[..4], &[1, 2, 3, 4]);
        assert_eq!(MilestoneBlocks::decode_key(&key).unwrap(), k);
        assert!(MilestoneBlocks::decode_key(&key[..35]).is_err());
        // Big-endian: index 256 sorts after index 255.
        let low = MilestoneBlocks::encode_key(&MilestoneBlock { index: 255, block_id: [0xff; 32] });
        let high = MilestoneBlocks::encode_key(&MilestoneBlock { index: 256, block_id: [0; 32] });
        assert!(low < high);
        for v in [Settled::Referenced, Settled::BelowMaxDepth] {
            assert_eq!(
                MilestoneBlocks::decode_value(&MilestoneBlocks::encode_value(&v)).unwrap(),
                v
            );
        }
        assert!(MilestoneBlocks::decode_value(&[3]).is_err());
        assert!(MilestoneBlocks::decode_value(&[]).is_err());
    }
}
