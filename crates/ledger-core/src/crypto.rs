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

    fn h32(s: &str) -> [u8; 32] {
        hex::decode(s).unwrap().try_into().unwrap()
    }

    #[test]
    fn genesis_key_signs_example_c_as_in_the_spec() {
        let seed = h32("ffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71");
        let pk = public_key(&seed);
        assert_eq!(
            hex::encode(pk),
            "b39a6d3b7bb5d56babc92e704c570eb3abd60eb92ea78922182180e69a2bb9e1"
        );
        assert_eq!(
            hex::encode(ed25519_address(&pk)),
            "10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d"
        );
        let essence_hash = h32("9fd9e0464f6c8f401508a65af3b273913a32459c402c3e5bedc37b10b4002ff2");
        let sig = sign(&seed, &essence_hash);
        assert_eq!(hex::encode(sig), "8cc2a8ddde1619d47cada7fcf5b10b4251c0fab142c2866a77eb1aa78b5ecb653171d703f38cc86a89c97f783965004cdc57060f3d0d7cf61619117780a22b09");
        assert!(verify(&pk, &essence_hash, &sig));
        let mut bad = sig;
        bad[0] ^= 1;
        assert!(!verify(&pk, &essence_hash, &bad));
    }

    #[test]
    fn coordinator_key_signs_milestone_one() {
        let seed = blake2b256(b"ledger-devnet-coordinator");
        let pk = public_key(&seed);
        assert_eq!(
            hex::encode(pk),
            "fc3033a22726d4e0f213eb9820b998c824274e929d8a015968d294e02c531882"
        );
        let ms_id = h32("26e97b04f2c7df179c5818c4e172c7f3e6424aa86c0b547d2962812430d8fec2");
        assert_eq!(hex::encode(sign(&seed, &ms_id)), "cd6e416746152a97c00d10a34b48a4f63510f115967030956549e2268df88f46a19b46d7997de93ad115b92aa0d037fe9361dfe504bc7d0527a9f2bb8422da0a");
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
