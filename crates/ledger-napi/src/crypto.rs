//! Ed25519 for JavaScript: keys from 32-byte seeds, signing, single and batch verification.

use crate::errors::{invalid_argument, Result};
use ledger_core::{crypto, json};
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;

fn fixed<const N: usize>(bytes: &[u8], name: &str) -> Result<[u8; N]> {
    bytes
        .try_into()
        .map_err(|_| invalid_argument(name, format!("expected {N} bytes, got {}", bytes.len())))
}

#[napi]
pub fn ed25519_public_key(seed: Buffer) -> Result<Buffer> {
    Ok(crypto::public_key(&fixed(&seed, "seed")?).to_vec().into())
}

#[napi]
pub fn ed25519_sign(seed: Buffer, message: Buffer) -> Result<Buffer> {
    Ok(crypto::sign(&fixed(&seed, "seed")?, &message).to_vec().into())
}

#[napi]
pub fn ed25519_verify(public_key: Buffer, message: Buffer, signature: Buffer) -> Result<bool> {
    Ok(crypto::verify(
        &fixed(&public_key, "publicKey")?,
        &message,
        &fixed(&signature, "signature")?,
    ))
}

#[napi]
pub fn ed25519_verify_batch(
    public_keys: Vec<Buffer>,
    messages: Vec<Buffer>,
    signatures: Vec<Buffer>,
) -> Result<bool> {
    if public_keys.len() != messages.len() || messages.len() != signatures.len() {
        return Err(invalid_argument(
            "",
            "publicKeys, messages and signatures must have equal lengths",
        ));
    }
    let mut items = Vec::with_capacity(public_keys.len());
    for i in 0..public_keys.len() {
        items.push((
            fixed(&public_keys[i], "publicKeys")?,
            &messages[i][..],
            fixed(&signatures[i], "signatures")?,
        ));
    }
    Ok(crypto::verify_batch(&items))
}

/// The Ed25519 address (BLAKE2b-256 of the public key) as 0x-hex.
#[napi]
pub fn ed25519_address(public_key: Buffer) -> Result<String> {
    Ok(json::hex(&crypto::ed25519_address(&fixed(&public_key, "publicKey")?)))
}
