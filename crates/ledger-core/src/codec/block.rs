//! Block (wire-format §5): protocol version, parents, the optional payload slot, nonce.

use super::payload::{read_payload_slot, write_payload_slot};
use super::reader::{at, Reader};
use super::writer::Write;
use super::BlockHeader;
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

/// The start of a block, up to its payload's type code: see `decode_block_header`.
pub fn read_block_header(bytes: &[u8]) -> Result<BlockHeader> {
    let mut r = Reader::new(bytes);
    let protocol_version = r.u8("protocolVersion")?;
    let count = r.u8("parents")? as usize;
    r.check_len(count, 32, "parents")?;
    let mut parents = Vec::with_capacity(count);
    for i in 0..count {
        parents.push(r.array(&at("parents", i))?);
    }
    // Past the parents nothing is an error: the payload slot's length (0 = none), then
    // the payload's type code, if the bytes go that far.
    let payload_type = match r.u32("payload") {
        Ok(0) | Err(_) => None,
        Ok(_) => r.u32("payload.type").ok(),
    };
    Ok(BlockHeader { protocol_version, parents, payload_type })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn block(parents: Vec<Id32>, payload: Option<Payload>) -> Vec<u8> {
        let mut out = Vec::new();
        write_block(&mut out, &Block { protocol_version: 2, parents, payload, nonce: 7 });
        out
    }

    #[test]
    fn the_header_names_parents_and_payload_type_and_nothing_more() {
        let tagged = Payload::TaggedData(TaggedData { tag: b"t".to_vec(), data: vec![] });
        let bytes = block(vec![[1; 32], [2; 32]], Some(tagged));
        let header = read_block_header(&bytes).unwrap();
        assert_eq!(header.protocol_version, 2);
        assert_eq!(header.parents, vec![[1; 32], [2; 32]]);
        assert_eq!(header.payload_type, Some(Payload::TAGGED_DATA));
        assert!(!header.carries_milestone());

        // No payload; a nonce whose first bytes read as 7 does not make it a milestone.
        let mut bytes = block(vec![[1; 32]], None);
        let nonce_at = bytes.len() - 8;
        bytes[nonce_at..nonce_at + 4].copy_from_slice(&Payload::MILESTONE.to_le_bytes());
        assert_eq!(read_block_header(&bytes).unwrap().payload_type, None);

        // Whatever follows the parents may be cut short: the header is still read.
        let bytes = block(vec![[1; 32], [2; 32]], None);
        let header = read_block_header(&bytes[..2 + 64 + 2]).unwrap();
        assert_eq!((header.parents.len(), header.payload_type), (2, None));
        let mut slot_only = bytes[..2 + 64].to_vec();
        slot_only.extend(12u32.to_le_bytes());
        slot_only.extend(&Payload::MILESTONE.to_le_bytes()[..2]);
        assert_eq!(read_block_header(&slot_only).unwrap().payload_type, None);
        slot_only.extend(&Payload::MILESTONE.to_le_bytes()[2..]);
        assert!(read_block_header(&slot_only).unwrap().carries_milestone());

        // Bytes that end inside the parents have no header.
        assert!(read_block_header(&bytes[..40]).is_err());
        assert!(read_block_header(&[2]).is_err());
        assert!(read_block_header(&[]).is_err());
    }
}
