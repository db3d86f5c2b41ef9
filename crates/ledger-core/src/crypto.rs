//! Ed25519 (RFC 8032) with ed25519-dalek: key derivation from a 32-byte seed, signing,
//! verification of one signature or of many at once.

use crate::hash::blake2b256;
use crate::model::Id32;
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};

pub fn public_key(seed: &[u8; 32]) -> [u8; 32] {
    SigningKey::from_bytes(seed).verifying_key().to_bytes()
}

pub fn sign(seed: &[u8; 32], message: &[u8]) -> [u8; 64] {
    SigningKey::from_bytes(seed).sign(message).to_bytes()
}

/// False for a bad signature and for bytes that are not a valid public key; never panics.
pub fn verify(public_key: &[u8; 32], message: &[u8], signature: &[u8; 64]) -> bool {
    match VerifyingKey::from_bytes(public_key) {
        Ok(key) => key.verify(message, &Signature::from_bytes(signature)).is_ok(),
        Err(_) => false,
    }
}

/// True only if every signature verifies. Batch verification is faster from a handful of
/// signatures on; for one or two it is not worth its setup, so those are checked singly.
pub fn verify_batch(items: &[([u8; 32], &[u8], [u8; 64])]) -> bool {
    if items.len() < 3 {
        return items.iter().all(|(pk, msg, sig)| verify(pk, msg, sig));
    }
    let mut keys = Vec::with_capacity(items.len());
    for (pk, _, _) in items {
        match VerifyingKey::from_bytes(pk) {
            Ok(k) => keys.push(k),
            Err(_) => return false,
        }
    }
    let messages: Vec<&[u8]> = items.iter().map(|(_, m, _)| *m).collect();
    let signatures: Vec<Signature> =
        items.iter().map(|(_, _, s)| Signature::from_bytes(s)).collect();
    ed25519_dalek::verify_batch(&messages, &signatures, &keys).is_ok()
}

/// Ed25519 address = BLAKE2b-256 of the public key.
pub fn ed25519_address(public_key: &[u8; 32]) -> Id32 {
    blake2b256(public_key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worked_examples::{hex32, hex_str};

    /// The keys and signatures of wire-format §9 (Examples A and C).
    #[test]
    fn genesis_key_signs_example_c_as_in_the_spec() {
        let seed = hex32("/keys/genesis/seed");
        let pk = public_key(&seed);
        assert_eq!(hex::encode(pk), hex_str("/keys/genesis/publicKey"));
        assert_eq!(hex::encode(ed25519_address(&pk)), hex_str("/keys/genesis/address"));
        let essence_hash = hex32("/C/extra/essenceHash");
        let sig = sign(&seed, &essence_hash);
        assert_eq!(hex::encode(sig), hex_str("/C/json/payload/unlocks/0/signature/signature"));
        assert!(verify(&pk, &essence_hash, &sig));
        let mut bad = sig;
        bad[0] ^= 1;
        assert!(!verify(&pk, &essence_hash, &bad));
    }

    #[test]
    fn coordinator_key_signs_milestone_one() {
        let seed = blake2b256(b"ledger-devnet-coordinator");
        assert_eq!(seed, hex32("/keys/coordinator/seed"));
        let pk = public_key(&seed);
        assert_eq!(hex::encode(pk), hex_str("/keys/coordinator/publicKey"));
        let ms_id = hex32("/A/extra/milestoneId");
        assert_eq!(
            hex::encode(sign(&seed, &ms_id)),
            hex_str("/A/json/payload/signatures/0/signature")
        );
    }

    #[test]
    fn batch_rejects_one_bad_signature_among_many() {
        let seeds: Vec<[u8; 32]> = (0..5u8).map(|i| [i + 1; 32]).collect();
        let msg = b"message";
        let mut items: Vec<([u8; 32], &[u8], [u8; 64])> =
            seeds.iter().map(|s| (public_key(s), &msg[..], sign(s, msg))).collect();
        assert!(verify_batch(&items));
        items[3].2[10] ^= 0x40;
        assert!(!verify_batch(&items));
        assert!(!verify(&[0xff; 32], msg, &[0; 64]));
    }
}
