//! Addresses (wire-format §7.2), signatures (§7.7): the small typed objects every other
//! object is built from.

use super::reader::{field, Reader};
use super::writer::Write;
use crate::error::{Error, Result};
use crate::model::{Address, Ed25519Signature};

pub fn write_address(out: &mut Vec<u8>, address: &Address) {
    out.u8(address.kind());
    out.bytes(address.id());
}

pub fn read_address(r: &mut Reader, path: &str) -> Result<Address> {
    let kind = r.u8(&field(path, "type"))?;
    let make: fn([u8; 32]) -> Address = match kind {
        0 => Address::Ed25519,
        8 => Address::Alias,
        16 => Address::Nft,
        other => return Err(Error::new("unknown-address-type", field(path, "type"), format!("unknown address type {other}"))),
    };
    let key = match kind {
        0 => "pubKeyHash",
        8 => "aliasId",
        _ => "nftId",
    };
    Ok(make(r.array(&field(path, key))?))
}

pub fn write_signature(out: &mut Vec<u8>, signature: &Ed25519Signature) {
    out.u8(0);
    out.bytes(&signature.public_key);
    out.bytes(&signature.signature);
}

pub fn read_signature(r: &mut Reader, path: &str) -> Result<Ed25519Signature> {
    let kind = r.u8(&field(path, "type"))?;
    if kind != 0 {
        return Err(Error::new("unknown-signature-type", field(path, "type"), format!("unknown signature type {kind}")));
    }
    Ok(Ed25519Signature { public_key: r.array(&field(path, "publicKey"))?, signature: r.array(&field(path, "signature"))? })
}
