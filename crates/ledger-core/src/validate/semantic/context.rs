//! What every step needs to know about one transaction: its consumed outputs and where
//! each alias, NFT and foundry sits on either side.

use super::ConflictReason;
use crate::ids;
use crate::model::*;
use std::collections::HashMap;

pub(super) struct Context<'a> {
    pub tx: &'a TransactionPayload,
    pub consumed: &'a [(OutputId, Output)],
    /// T, the confirming milestone's timestamp.
    pub time: u32,
    /// Chain id → input index. A consumed alias or NFT with an all-zero id is known by its
    /// implicit id, the hash of its output id (wire-format §4).
    pub input_aliases: HashMap<Id32, usize>,
    pub input_nfts: HashMap<Id32, usize>,
    pub input_foundries: HashMap<TokenId, usize>,
    /// Chain id → output index, for outputs that continue a chain (non-zero alias and NFT
    /// ids) and for every foundry.
    pub output_aliases: HashMap<Id32, usize>,
    pub output_nfts: HashMap<Id32, usize>,
    pub output_foundries: HashMap<TokenId, usize>,
    /// Two created outputs claim one chain, or a foundry is not controlled by an alias:
    /// impossible after syntactic validation, a chain error (12) if it happens anyway.
    pub malformed_output_chains: bool,
}

/// How a consumed alias moves (validation.md §8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AliasTransition {
    /// The output side holds the alias with State Index + 1.
    State,
    /// The output side holds the alias with the same State Index.
    Governance,
    /// The alias is not on the output side.
    Destruction,
    /// Any other State Index on the output side.
    Invalid,
}

/// The alias that controls a foundry (its Immutable Alias Address), if it is one.
pub(super) fn foundry_alias(f: &FoundryOutput) -> Option<Id32> {
    f.unlock_conditions.iter().find_map(|uc| match uc {
        UnlockCondition::ImmutableAliasAddress(Address::Alias(id)) => Some(*id),
        _ => None,
    })
}

/// Foundry id = token id; the simple token scheme (type 0) is the only one.
pub(super) fn foundry_id_of(f: &FoundryOutput) -> Option<TokenId> {
    foundry_alias(f).map(|alias| ids::foundry_id(&alias, f.serial_number, 0))
}

impl<'a> Context<'a> {
    pub fn new(
        tx: &'a TransactionPayload,
        consumed: &'a [(OutputId, Output)],
        time: u32,
    ) -> Result<Self, ConflictReason> {
        let inputs = &tx.essence.inputs;
        if consumed.len() != inputs.len() || tx.unlocks.len() != inputs.len() {
            return Err(ConflictReason::SemanticValidationFailed);
        }
        let mut ctx = Context {
            tx,
            consumed,
            time,
            input_aliases: HashMap::new(),
            input_nfts: HashMap::new(),
            input_foundries: HashMap::new(),
            output_aliases: HashMap::new(),
            output_nfts: HashMap::new(),
            output_foundries: HashMap::new(),
            malformed_output_chains: false,
        };
        for (i, (input, (output_id, output))) in inputs.iter().zip(consumed).enumerate() {
            // The caller looked the outputs up by these inputs; anything else is a bug
            // upstream, never something to judge the transaction by.
            match input {
                Input::Utxo { transaction_id, output_index }
                    if ids::output_id(transaction_id, *output_index) == *output_id => {}
                _ => return Err(ConflictReason::SemanticValidationFailed),
            }
            match output {
                Output::Alias(a) => {
                    ctx.input_aliases.insert(chain_id(&a.alias_id, output_id), i);
                }
                Output::Nft(n) => {
                    ctx.input_nfts.insert(chain_id(&n.nft_id, output_id), i);
                }
                Output::Foundry(f) => {
                    if let Some(id) = foundry_id_of(f) {
                        ctx.input_foundries.insert(id, i);
                    }
                }
                Output::Basic(_) => {}
                Output::Treasury { .. } => return Err(ConflictReason::SemanticValidationFailed),
            }
        }
        for (j, output) in tx.essence.outputs.iter().enumerate() {
            let fresh = match output {
                Output::Alias(a) if a.alias_id != [0; 32] => {
                    ctx.output_aliases.insert(a.alias_id, j).is_none()
                }
                Output::Nft(n) if n.nft_id != [0; 32] => {
                    ctx.output_nfts.insert(n.nft_id, j).is_none()
                }
                Output::Foundry(f) => match foundry_id_of(f) {
                    Some(id) => ctx.output_foundries.insert(id, j).is_none(),
                    None => false,
                },
                _ => true,
            };
            ctx.malformed_output_chains |= !fresh;
        }
        Ok(ctx)
    }

    /// The transition of the alias consumed at input `index` (which must hold an alias).
    pub fn alias_transition(&self, index: usize) -> AliasTransition {
        let (output_id, Output::Alias(current)) = &self.consumed[index] else {
            return AliasTransition::Invalid;
        };
        let id = chain_id(&current.alias_id, output_id);
        let Some(&j) = self.output_aliases.get(&id) else {
            return AliasTransition::Destruction;
        };
        let Output::Alias(next) = &self.tx.essence.outputs[j] else {
            return AliasTransition::Invalid;
        };
        if next.state_index == current.state_index {
            AliasTransition::Governance
        } else if current.state_index.checked_add(1) == Some(next.state_index) {
            AliasTransition::State
        } else {
            AliasTransition::Invalid
        }
    }

    /// True if the alias with this id is consumed and state-transitioned: only then does
    /// it unlock its alias address (validation.md §8.1, §8.2).
    pub fn alias_state_transitioned(&self, alias_id: &Id32) -> bool {
        self.input_aliases
            .get(alias_id)
            .is_some_and(|&i| self.alias_transition(i) == AliasTransition::State)
    }
}

/// A chain's id: the stored one, or for an output that created the chain (all-zero id)
/// the hash of its output id.
pub(super) fn chain_id(stored: &Id32, output_id: &OutputId) -> Id32 {
    if *stored == [0; 32] {
        ids::alias_id_from_output_id(output_id)
    } else {
        *stored
    }
}
