//! Features and immutable features (wire-format §7.5): a u8 count, then each feature as its
//! type byte and fields.

use super::address::{read_address, write_address};
use super::reader::{at, field, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

pub fn write_features(out: &mut Vec<u8>, features: &[Feature]) {
    out.u8(features.len() as u8);
    for f in features {
        out.u8(f.type_code());
        match f {
            Feature::Sender(a) | Feature::Issuer(a) => write_address(out, a),
            Feature::Metadata(d) => {
                out.u16(d.len() as u16);
                out.bytes(d);
            }
            Feature::Tag(t) => {
                out.u8(t.len() as u8);
                out.bytes(t);
            }
        }
    }
}

pub fn read_features(r: &mut Reader, path: &str) -> Result<Vec<Feature>> {
    let count = r.u8(path)? as usize;
    r.check_len(count, 2, path)?;
    let mut list = Vec::with_capacity(count);
    for i in 0..count {
        let p = at(path, i);
        let kind = r.u8(&field(&p, "type"))?;
        list.push(match kind {
            0 => Feature::Sender(read_address(r, &field(&p, "address"))?),
            1 => Feature::Issuer(read_address(r, &field(&p, "address"))?),
            2 => Feature::Metadata(r.u16_prefixed(&field(&p, "data"))?),
            3 => Feature::Tag(r.u8_prefixed(&field(&p, "tag"))?),
            other => {
                return Err(Error::new(
                    Code::UnknownFeatureType,
                    field(&p, "type"),
                    format!("unknown feature type {other}"),
                ))
            }
        });
    }
    Ok(list)
}
