//! The protocol parameters blob of the Protocol Parameters milestone option (wire-format §8.1)
//! — also how the store persists the parameters.

use super::reader::Reader;
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::protocol::{ProtocolParameters, RentStructure};

pub fn encode_protocol_parameters(p: &ProtocolParameters) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    out.u8(p.version);
    out.u8(p.network_name.len() as u8);
    out.bytes(p.network_name.as_bytes());
    out.u8(p.bech32_hrp.len() as u8);
    out.bytes(p.bech32_hrp.as_bytes());
    out.u32(p.min_pow_score);
    out.u8(p.below_max_depth);
    out.u32(p.rent_structure.v_byte_cost);
    out.u8(p.rent_structure.v_byte_factor_data);
    out.u8(p.rent_structure.v_byte_factor_key);
    out.u64(p.token_supply);
    out
}

pub fn decode_protocol_parameters(bytes: &[u8]) -> Result<ProtocolParameters> {
    let mut r = Reader::new(bytes);
    let text = |raw: Vec<u8>, path: &str| {
        String::from_utf8(raw).map_err(|_| Error::new(Code::InvalidUtf8, path, "not valid UTF-8"))
    };
    let version = r.u8("version")?;
    let network_name = text(r.u8_prefixed("networkName")?, "networkName")?;
    let bech32_hrp = text(r.u8_prefixed("bech32Hrp")?, "bech32Hrp")?;
    let params = ProtocolParameters {
        version,
        network_name,
        bech32_hrp,
        min_pow_score: r.u32("minPowScore")?,
        below_max_depth: r.u8("belowMaxDepth")?,
        rent_structure: RentStructure {
            v_byte_cost: r.u32("rentStructure.vByteCost")?,
            v_byte_factor_data: r.u8("rentStructure.vByteFactorData")?,
            v_byte_factor_key: r.u8("rentStructure.vByteFactorKey")?,
        },
        token_supply: r.u64("tokenSupply")?,
    };
    r.finish("")?;
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_defaults_blob_of_the_spec() {
        let blob = encode_protocol_parameters(&ProtocolParameters::dev_default());
        assert_eq!(
            hex::encode(&blob),
            "02106c65646765722d6465766e65742d763203747374dc0500000f64000000010a0080f7f5ac571000"
        );
        assert_eq!(decode_protocol_parameters(&blob).unwrap(), ProtocolParameters::dev_default());
    }
}
