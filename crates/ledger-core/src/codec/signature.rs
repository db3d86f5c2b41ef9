//! Ed25519 signatures (wire-format §7.7): type byte 0, public key, signature; in signature
//! unlocks and milestones.

use super::reader::{field, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::Ed25519Signature;

pub fn write_signature(out: &mut Vec<u8>, signature: &Ed25519Signature) {
    out.u8(0);
    out.bytes(&signature.public_key);
    out.bytes(&signature.signature);
}

pub fn read_signature(r: &mut Reader, path: &str) -> Result<Ed25519Signature> {
    let kind = r.u8(&field(path, "type"))?;
    if kind != 0 {
        return Err(Error::new(
            Code::UnknownSignatureType,
            field(path, "type"),
            format!("unknown signature type {kind}"),
        ));
    }
    Ok(Ed25519Signature {
        public_key: r.array(&field(path, "publicKey"))?,
        signature: r.array(&field(path, "signature"))?,
    })
}
