//! Addresses (wire-format §7.2): kind byte ‖ 32-byte id, the building block of unlock
//! conditions, features and migrated funds.

use super::reader::{field, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::Address;

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
        other => {
            return Err(Error::new(
                Code::UnknownAddressType,
                field(path, "type"),
                format!("unknown address type {other}"),
            ))
        }
    };
    let key = match kind {
        0 => "pubKeyHash",
        8 => "aliasId",
        _ => "nftId",
    };
    Ok(make(r.array(&field(path, key))?))
}
