//! Block (wire-format §5): protocol version, parents, the optional payload slot, nonce.

use super::payload::{read_payload_slot, write_payload_slot};
use super::reader::{at, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

pub fn write_block(out: &mut Vec<u8>, block: &Block) {
    out.u8(block.protocol_version);
    out.u8(block.parents.len() as u8);
    for p in &block.parents {
        out.bytes(p);
    }
    write_payload_slot(out, block.payload.as_ref());
    out.u64(block.nonce);
}

/// The whole input is one block: the size limit is checked before a byte is read, and
/// nothing may follow the nonce.
pub fn read_block(bytes: &[u8]) -> Result<Block> {
    check_size(bytes, "a block")?;
    let mut r = Reader::new(bytes);
    let protocol_version = r.u8("protocolVersion")?;
    let count = r.u8("parents")? as usize;
    r.check_len(count, 32, "parents")?;
    let mut parents = Vec::with_capacity(count);
    for i in 0..count {
        parents.push(r.array(&at("parents", i))?);
    }
    let payload = read_payload_slot(&mut r, "payload")?;
    let nonce = r.u64("nonce")?;
    r.finish("")?;
    Ok(Block { protocol_version, parents, payload, nonce })
}

/// Nothing that travels inside a block can be larger than a block.
pub fn check_size(bytes: &[u8], what: &str) -> Result<()> {
    if bytes.len() > MAX_BLOCK_LENGTH {
        return Err(Error::new(
            Code::BlockTooLarge,
            "",
            format!("{what} has at most {MAX_BLOCK_LENGTH} bytes, got {}", bytes.len()),
        ));
    }
    Ok(())
}
