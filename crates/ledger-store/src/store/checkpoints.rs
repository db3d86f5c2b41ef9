//! Checkpoints: how the embedded coordinator approves more tips than one milestone can.
//!
//! A milestone block has at most 8 parents: the previous milestone and 7 tips (ledger.md
//! §6, D21). When more healthy tips wait, for instance many clients that each extend
//! their own chain of blocks, the rest would wait a milestone each, and under steady load
//! fall further behind until they go lazy. So before a milestone the coordinator first
//! issues checkpoint blocks, as Hornet's coordinator does: ordinary blocks without
//! payload, the first approving the 8 oldest healthy tips, each further one the previous
//! checkpoint and the next 7. The milestone then approves the last checkpoint (right
//! after the previous milestone, `coordinator_parents`) and confirms everything behind it. Checkpoints carry a proof of work like any block
//! (peers check it), go through the regular intake and reach peers like any block.

use super::Store;
use crate::graph::Pending;
use ledger_core::codec::encode_block;
use ledger_core::ids;
use ledger_core::model::{Block, Id32};
use ledger_core::pow::miner::{default_threads, mine};
use ledger_core::validate::MAX_PARENTS;
use ledger_core::{Code, Error, Result};
use std::sync::atomic::AtomicBool;

/// At most this many checkpoints before one milestone: 8 + 7 × 7 = 57 tips, plus the 7 the
/// milestone takes itself. Bounds the proof of work a milestone can cost; tips beyond it
/// wait for the next milestone, oldest first.
pub const MAX_CHECKPOINTS: usize = 8;

/// A milestone approves up to this many tips besides the previous milestone.
const MILESTONE_TIPS: usize = MAX_PARENTS - 1;

/// A checkpoint the coordinator stored: its id and bytes, for peers.
pub struct Checkpoint {
    pub block_id: Id32,
    pub bytes: Vec<u8>,
}

impl Store {
    /// Issue the checkpoints the next milestone needs (none while at most 7 healthy tips
    /// wait) and store them. `cancel` stops the proof of work (the node is shutting down).
    pub fn issue_checkpoints(&self, cancel: &AtomicBool) -> Result<Vec<Checkpoint>> {
        if !self.coordinator_enabled {
            return Ok(Vec::new());
        }
        let tips = self.checkpoint_tips()?;
        if tips.len() <= MILESTONE_TIPS {
            return Ok(Vec::new());
        }
        let mut checkpoints: Vec<Checkpoint> = Vec::new();
        let mut rest = tips.as_slice();
        // The last checkpoint is a tip too: stop once it and the rest fit into the milestone.
        while rest.len() + usize::from(!checkpoints.is_empty()) > MILESTONE_TIPS
            && checkpoints.len() < MAX_CHECKPOINTS
        {
            let mut parents: Vec<Id32> =
                checkpoints.last().map(|c| c.block_id).into_iter().collect();
            let take = (MAX_PARENTS - parents.len()).min(rest.len());
            parents.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            parents.sort();
            let block =
                Block { protocol_version: self.protocol.version, parents, payload: None, nonce: 0 };
            let mut bytes = encode_block(&block);
            let Some(found) = mine(&bytes, self.protocol.min_pow_score, default_threads(), cancel)
            else {
                return Err(Error::new(
                    Code::CheckpointCancelled,
                    "",
                    "the coordinator stopped while mining a checkpoint",
                ));
            };
            let at = bytes.len() - 8;
            bytes[at..].copy_from_slice(&found.nonce.to_le_bytes());
            checkpoints.push(Checkpoint { block_id: ids::block_id(&bytes), bytes });
        }
        // One intake call: each checkpoint's parent may be the one before it in the call.
        let blocks: Vec<&[u8]> = checkpoints.iter().map(|c| c.bytes.as_slice()).collect();
        for result in self.submit_blocks(&blocks) {
            result.map_err(|e| {
                Error::new(
                    Code::CheckpointRefused,
                    e.path.clone(),
                    format!("the store refused the coordinator's checkpoint: {}", e.detail),
                )
            })?;
        }
        // Under load, blocks keep arriving until the milestone is built, and the last
        // checkpoint is then neither the newest tip nor among the oldest: it is named.
        super::lock(&self.state).checkpoint = checkpoints.last().map(|c| c.block_id);
        Ok(checkpoints)
    }

    /// The healthy tips, oldest first, without the latest milestone's block (every
    /// milestone approves it anyway).
    fn checkpoint_tips(&self) -> Result<Vec<Id32>> {
        let state = super::lock(&self.state);
        let Some(latest) = state.latest else { return Ok(Vec::new()) };
        let healthy = |(id, p): &(&Id32, &Pending)| {
            **id != latest.block_id && self.is_healthy(p, latest.index)
        };
        Ok(state
            .graph
            .oldest_tips()
            .filter(healthy)
            .map(|(id, _)| *id)
            .take(MAX_PARENTS + MAX_CHECKPOINTS * MILESTONE_TIPS + MILESTONE_TIPS)
            .collect())
    }
}
