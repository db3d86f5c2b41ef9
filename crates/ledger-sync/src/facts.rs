//! What a peer's block says about itself before it is validated (D46): the parents to look
//! for, and the index of the milestone it carries. Read from the header with ledger-core's
//! codec (`decode_block_header`, wire-format §5); only a block whose payload type says
//! "milestone" is decoded whole here, since the store decodes and validates every block
//! anyway and the others need not be decoded twice.

use ledger_core::codec::{decode_block, decode_block_header};
use ledger_core::model::Payload;
use ledger_gossip::BlockId;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    pub parents: Vec<BlockId>,
    /// The index of a well-formed milestone payload (its signatures not checked yet).
    pub milestone: Option<u32>,
}

/// None when the bytes end before their last parent: the store says what is wrong with them.
pub(crate) fn facts(bytes: &[u8]) -> Option<Facts> {
    let header = decode_block_header(bytes).ok()?;
    let milestone = match header.carries_milestone() {
        true => match decode_block(bytes).map(|block| block.payload) {
            Ok(Some(Payload::Milestone(m))) => Some(m.index),
            _ => None,
        },
        false => None,
    };
    Some(Facts { parents: header.parents.into_iter().map(BlockId).collect(), milestone })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_core::codec::encode_block;
    use ledger_core::model::{Block, Ed25519Signature, MilestonePayload, TaggedData};

    fn block(payload: Payload) -> Vec<u8> {
        encode_block(&Block {
            protocol_version: 2,
            parents: vec![[1; 32], [2; 32]],
            payload: Some(payload),
            nonce: 0,
        })
    }

    #[test]
    fn parents_and_the_milestone_index_from_the_bytes() {
        let tagged = block(Payload::TaggedData(TaggedData { tag: b"t".to_vec(), data: vec![] }));
        assert_eq!(
            facts(&tagged),
            Some(Facts { parents: vec![BlockId([1; 32]), BlockId([2; 32])], milestone: None })
        );
        let milestone = block(Payload::Milestone(Box::new(MilestonePayload {
            index: 9,
            timestamp: 1,
            protocol_version: 2,
            previous_milestone_id: [0; 32],
            parents: vec![[1; 32], [2; 32]],
            inclusion_merkle_root: [0; 32],
            applied_merkle_root: [0; 32],
            metadata: vec![],
            options: vec![],
            signatures: vec![Ed25519Signature { public_key: [1; 32], signature: [2; 64] }],
        })));
        assert_eq!(facts(&milestone).and_then(|f| f.milestone), Some(9));
        // A milestone type code with a payload that does not decode: no index.
        let mut broken = milestone.clone();
        broken.truncate(milestone.len() - 20);
        assert_eq!(facts(&broken).map(|f| (f.parents.len(), f.milestone)), Some((2, None)));
        assert_eq!(facts(&tagged[..40]), None);
    }
}
