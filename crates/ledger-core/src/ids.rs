//! Identifiers and derived hashes (wire-format §4).

use crate::codec;
use crate::hash::{blake2b256, blake2b256_parts, Blake2b256};
use crate::model::*;
use blake2::Digest;

/// BLAKE2b-256 of the complete serialized block, nonce included.
pub fn block_id(block_bytes: &[u8]) -> Id32 {
    blake2b256(block_bytes)
}

/// BLAKE2b-256 of the transaction payload bytes (type code, essence, unlocks).
pub fn transaction_id(tx: &TransactionPayload) -> Id32 {
    // Serializing through Payload keeps one writer for the layout.
    let payload = Payload::Transaction(Box::new(tx.clone()));
    blake2b256(&codec::encode_payload(&payload))
}

/// Transaction id from the payload bytes exactly as they sit in a block's payload slot.
pub fn transaction_id_of_payload_bytes(payload_bytes: &[u8]) -> Id32 {
    blake2b256(payload_bytes)
}

/// Transaction id of the transaction payload of a block that decoded (with `parent_count`
/// parents), hashed where it sits: after version, parents and the slot's length, before the
/// nonce. Spares encoding the payload again.
pub fn transaction_id_in_block(block_bytes: &[u8], parent_count: usize) -> Id32 {
    transaction_id_of_payload_bytes(&block_bytes[2 + 32 * parent_count + 4..block_bytes.len() - 8])
}

pub fn output_id(transaction_id: &Id32, index: u16) -> OutputId {
    let mut id = [0u8; 34];
    id[..32].copy_from_slice(transaction_id);
    id[32..].copy_from_slice(&index.to_le_bytes());
    id
}

/// The message every signature unlock signs.
pub fn essence_hash(essence: &RegularEssence) -> Id32 {
    blake2b256(&codec::encode_essence(essence))
}

/// BLAKE2b-256 over the BLAKE2b-256 hashes of the consumed outputs, in input order.
pub fn inputs_commitment(outputs: &[&Output]) -> Id32 {
    let mut outer = Blake2b256::new();
    for o in outputs {
        outer.update(blake2b256(&codec::encode_output(o)));
    }
    outer.finalize().into()
}

/// The same over outputs that are already serialized.
pub fn inputs_commitment_of_bytes<'a>(outputs: impl IntoIterator<Item = &'a [u8]>) -> Id32 {
    let mut outer = Blake2b256::new();
    for bytes in outputs {
        outer.update(blake2b256(bytes));
    }
    outer.finalize().into()
}

/// BLAKE2b-256 of the milestone essence; the coordinator signs these 32 bytes.
pub fn milestone_id(m: &MilestonePayload) -> Id32 {
    blake2b256(&codec::encode_milestone_essence(m))
}

pub fn alias_id_from_output_id(output_id: &OutputId) -> Id32 {
    blake2b256(output_id)
}

pub fn nft_id_from_output_id(output_id: &OutputId) -> Id32 {
    blake2b256(output_id)
}

/// Foundry id = token id: alias address ‖ serial u32 LE ‖ token scheme type.
pub fn foundry_id(alias_id: &Id32, serial_number: u32, token_scheme_type: u8) -> TokenId {
    let mut id = [0u8; 38];
    id[0] = 8;
    id[1..33].copy_from_slice(alias_id);
    id[33..37].copy_from_slice(&serial_number.to_le_bytes());
    id[37] = token_scheme_type;
    id
}

/// Hash of several parts, exposed for callers that build ids from pieces.
pub fn hash_parts(parts: &[&[u8]]) -> Id32 {
    blake2b256_parts(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// wire-format §4: output 0 of Example C and the alias/NFT id it gives.
    #[test]
    fn derived_id_vectors_of_the_spec() {
        let oid: OutputId =
            crate::worked_examples::hex_bytes("/C/extra/outputIds/0").try_into().unwrap();
        assert_eq!(
            hex::encode(alias_id_from_output_id(&oid)),
            crate::worked_examples::hex_str("/C/extra/chainIdOfOutput0")
        );
        let fid = foundry_id(&[0x11; 32], 1, 0);
        assert_eq!(hex::encode(fid), format!("08{}0100000000", "11".repeat(32)));
    }
}
