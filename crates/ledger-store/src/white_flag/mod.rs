//! White-flag confirmation (ledger.md §7, TIP-2): the past cone a milestone newly
//! references, in a deterministic order, and the ledger changes of applying every
//! transaction in that order. Nothing here writes: the caller commits the result in one
//! batch together with the milestone.

mod prepare;

use crate::db::Db;
use crate::graph::Graph;
use crate::records::{InclusionState, OutputRecord, SpentRecord};
use crate::signatures_ahead::{SignaturesAhead, Use};
use ledger_core::codec::encode_output;
use ledger_core::ids;
use ledger_core::merkle::merkle_root;
use ledger_core::model::*;
use ledger_core::validate::{check_prechecked_transaction, ConflictReason};
use ledger_core::Result;
use prepare::{PreparedBlock, PreparedTransaction, StoredInput};
use std::collections::{HashMap, HashSet};

/// The post-order depth-first walk of §7.1 over the pending blocks: every block after its
/// not-yet-referenced parents, parents visited in their listed order. Blocks that are not
/// pending (referenced earlier, or entry points) end the walk.
pub fn traversal_order(parents: &[Id32], graph: &Graph) -> Vec<Id32> {
    let mut visited: HashSet<Id32> = HashSet::new();
    let mut order = Vec::new();
    let mut stack: Vec<(Id32, usize)> = Vec::new();
    for root in parents {
        if graph.get(root).is_none() || visited.contains(root) {
            continue;
        }
        stack.push((*root, 0));
        while let Some((current, next_parent)) = stack.last_mut() {
            // Only pending blocks are pushed, and nothing leaves the graph during the walk.
            let block_parents =
                &graph.get(current).expect("only pending blocks are pushed").parents;
            let open = block_parents[*next_parent..]
                .iter()
                .position(|q| graph.get(q).is_some() && !visited.contains(q));
            match open {
                Some(offset) => {
                    let q = block_parents[*next_parent + offset];
                    *next_parent += offset + 1;
                    stack.push((q, 0));
                }
                None => {
                    let done = *current;
                    stack.pop();
                    if visited.insert(done) {
                        order.push(done);
                    }
                }
            }
        }
    }
    order
}

/// What a milestone confirms.
#[derive(Debug, Default)]
pub struct Confirmation {
    pub order: Vec<Id32>,
    /// Per block of `order`: its state and conflict reason code (0 unless conflicting).
    pub states: Vec<(InclusionState, u8)>,
    /// Outputs booked, in order of creation.
    pub created: Vec<(OutputId, OutputRecord)>,
    /// Outputs spent, in order of spending.
    pub consumed: Vec<(OutputId, SpentRecord)>,
    pub inclusion_root: Id32,
    pub applied_root: Id32,
    pub included_transactions: usize,
    /// Base tokens created minus base tokens consumed: 0, or the ledger would break the
    /// supply invariant (checked again before committing).
    pub supply_change: i128,
    /// The milestone's receipt, applied after the cone (its migrated funds are at the end
    /// of `created`): Hornet's order (`pkg/whiteflag/confirmation.go`).
    pub receipt: Option<crate::receipts::AppliedReceipt>,
}

/// Apply every block of `order` to a working copy of the ledger, as milestone `index`
/// with timestamp `timestamp` (ledger.md §7.2). What does not depend on the order is done
/// first for all blocks, in parallel (`prepare`); the pass in order only decides.
pub fn confirm(
    db: &Db,
    ahead: (&SignaturesAhead, Use),
    order: Vec<Id32>,
    index: u32,
    timestamp: u32,
) -> Result<Confirmation> {
    let prepared = prepare::prepare(db, ahead, &order)?;
    let mut walk = Walk {
        index,
        timestamp,
        created: HashMap::new(),
        spent_here: HashSet::new(),
        c: Confirmation::default(),
    };
    let mut applied = Vec::new();
    for (block_id, block) in order.iter().zip(prepared) {
        let state = match block {
            PreparedBlock::Transaction(tx) => match walk.apply(block_id, tx)? {
                Ok(()) => {
                    applied.push(*block_id);
                    (InclusionState::Included, 0)
                }
                Err(reason) => (InclusionState::Conflicting, reason.code()),
            },
            PreparedBlock::NoTransaction => (InclusionState::NoTransaction, 0),
        };
        walk.c.states.push(state);
    }
    let mut c = walk.c;
    c.inclusion_root = merkle_root(&order);
    c.applied_root = merkle_root(&applied);
    c.included_transactions = applied.len();
    c.order = order;
    Ok(c)
}

struct Walk {
    index: u32,
    timestamp: u32,
    /// Outputs created earlier in this walk (spendable by later blocks of it).
    created: HashMap<OutputId, Output>,
    /// Outputs spent earlier in this walk.
    spent_here: HashSet<OutputId>,
    c: Confirmation,
}

impl Walk {
    /// Ok(Ok) when the transaction was applied, Ok(Err(reason)) when it conflicts.
    fn apply(
        &mut self,
        block_id: &Id32,
        prepared: PreparedTransaction,
    ) -> Result<std::result::Result<(), ConflictReason>> {
        let PreparedTransaction { tx, transaction_id, pre, stored } = prepared;
        let mut consumed = Vec::with_capacity(tx.essence.inputs.len());
        for (input, stored) in tx.essence.inputs.iter().zip(stored) {
            let Input::Utxo { transaction_id, output_index } = input else {
                return Ok(Err(ConflictReason::SemanticValidationFailed));
            };
            let id = ids::output_id(transaction_id, *output_index);
            if self.spent_here.contains(&id) {
                return Ok(Err(ConflictReason::InputSpentInThisMilestone));
            }
            if let Some(output) = self.created.get(&id) {
                consumed.push((id, output.clone()));
                continue;
            }
            match stored {
                StoredInput::NotUtxo | StoredInput::Missing => {
                    return Ok(Err(ConflictReason::InputNotFound))
                }
                StoredInput::Found { unspent: false, .. } => {
                    return Ok(Err(ConflictReason::InputAlreadySpent))
                }
                StoredInput::Found { output, unspent: true } => consumed.push((id, output?)),
            }
        }
        if let Err(reason) = check_prechecked_transaction(&tx, &consumed, self.timestamp, &pre) {
            return Ok(Err(reason));
        }
        for (_, output) in &consumed {
            self.c.supply_change -= output.amount() as i128;
        }
        for output in &tx.essence.outputs {
            self.c.supply_change += output.amount() as i128;
        }
        for (id, _) in consumed {
            self.created.remove(&id);
            self.spent_here.insert(id);
            self.c.consumed.push((
                id,
                SpentRecord {
                    transaction_id,
                    milestone_index: self.index,
                    milestone_timestamp: self.timestamp,
                },
            ));
        }
        for (i, output) in tx.essence.outputs.iter().enumerate() {
            let id = ids::output_id(&transaction_id, i as u16);
            let record = OutputRecord {
                block_id: *block_id,
                milestone_index: self.index,
                milestone_timestamp: self.timestamp,
                output: encode_output(output),
            };
            self.c.created.push((id, record));
            self.created.insert(id, output.clone());
        }
        Ok(Ok(()))
    }
}
