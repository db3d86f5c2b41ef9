//! Milestone payload (wire-format §8): essence, options (receipt, protocol parameters),
//! signatures. The milestone id hashes the essence alone.

use super::milestone_option::{read_option, write_option};
use super::reader::{at, field, Reader};
use super::signature::{read_signature, write_signature};
use super::writer::Write;
use crate::error::Result;
use crate::model::*;

/// Fields 2–10: index through options.
pub fn write_milestone_essence(out: &mut Vec<u8>, m: &MilestonePayload) {
    out.u32(m.index);
    out.u32(m.timestamp);
    out.u8(m.protocol_version);
    out.bytes(&m.previous_milestone_id);
    out.u8(m.parents.len() as u8);
    for p in &m.parents {
        out.bytes(p);
    }
    out.bytes(&m.inclusion_merkle_root);
    out.bytes(&m.applied_merkle_root);
    out.u16(m.metadata.len() as u16);
    out.bytes(&m.metadata);
    out.u8(m.options.len() as u8);
    for option in &m.options {
        write_option(out, option);
    }
}

/// Milestone body after its u32 type code: essence then signatures.
pub fn write_milestone(out: &mut Vec<u8>, m: &MilestonePayload) {
    write_milestone_essence(out, m);
    out.u8(m.signatures.len() as u8);
    for s in &m.signatures {
        write_signature(out, s);
    }
}

pub fn read_milestone(r: &mut Reader, path: &str) -> Result<MilestonePayload> {
    let index = r.u32(&field(path, "index"))?;
    let timestamp = r.u32(&field(path, "timestamp"))?;
    let protocol_version = r.u8(&field(path, "protocolVersion"))?;
    let previous_milestone_id = r.array(&field(path, "previousMilestoneId"))?;
    let parents_path = field(path, "parents");
    let count = r.u8(&parents_path)? as usize;
    r.check_len(count, 32, &parents_path)?;
    let mut parents = Vec::with_capacity(count);
    for i in 0..count {
        parents.push(r.array(&at(&parents_path, i))?);
    }
    let inclusion_merkle_root = r.array(&field(path, "inclusionMerkleRoot"))?;
    let applied_merkle_root = r.array(&field(path, "appliedMerkleRoot"))?;
    let metadata = r.u16_prefixed(&field(path, "metadata"))?;
    let options_path = field(path, "options");
    let count = r.u8(&options_path)? as usize;
    r.check_len(count, 1, &options_path)?;
    let mut options = Vec::with_capacity(count);
    for i in 0..count {
        options.push(read_option(r, &at(&options_path, i))?);
    }
    let signatures_path = field(path, "signatures");
    let count = r.u8(&signatures_path)? as usize;
    r.check_len(count, 97, &signatures_path)?;
    let mut signatures = Vec::with_capacity(count);
    for i in 0..count {
        signatures.push(read_signature(r, &at(&signatures_path, i))?);
    }
    Ok(MilestonePayload {
        index,
        timestamp,
        protocol_version,
        previous_milestone_id,
        parents,
        inclusion_merkle_root,
        applied_merkle_root,
        metadata,
        options,
        signatures,
    })
}
