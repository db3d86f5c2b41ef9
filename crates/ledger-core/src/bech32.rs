//! Bech32 addresses (BIP-173, not bech32m) as wallets and the configuration write them:
//! HRP ‖ "1" ‖ the 33 address bytes (kind ‖ 32-byte id) in 5-bit groups ‖ 6-char checksum.

use crate::error::{Code, Error, Result};
use crate::model::Address;

const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATORS: [u32; 5] = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

fn polymod(values: impl Iterator<Item = u8>) -> u32 {
    let mut chk: u32 = 1;
    for v in values {
        let top = chk >> 25;
        chk = (chk & 0x1ff_ffff) << 5 ^ v as u32;
        for (i, g) in GENERATORS.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

fn hrp_expand(hrp: &str) -> Vec<u8> {
    let bytes = hrp.as_bytes();
    bytes.iter().map(|b| b >> 5).chain([0]).chain(bytes.iter().map(|b| b & 31)).collect()
}

/// Regroup bits (8 → 5 with padding, or 5 → 8 without).
fn convert_bits(data: &[u8], from: u32, to: u32, pad: bool) -> Option<Vec<u8>> {
    let (mut acc, mut bits) = (0u32, 0u32);
    let max = (1u32 << to) - 1;
    let mut out = Vec::with_capacity(data.len() * from as usize / to as usize + 1);
    for &v in data {
        if (v as u32) >> from != 0 {
            return None;
        }
        acc = (acc << from) | v as u32;
        bits += from;
        while bits >= to {
            bits -= to;
            out.push(((acc >> bits) & max) as u8);
        }
    }
    if pad {
        if bits > 0 {
            out.push(((acc << (to - bits)) & max) as u8);
        }
    } else if bits >= from || ((acc << (to - bits)) & max) != 0 {
        return None;
    }
    Some(out)
}

pub fn encode_address(hrp: &str, address: &Address) -> String {
    let data = convert_bits(&address.to_bytes(), 8, 5, true).expect("bytes are 8-bit");
    let checksum_input = hrp_expand(hrp).into_iter().chain(data.iter().copied()).chain([0; 6]);
    let checksum = polymod(checksum_input) ^ 1;
    let mut out = String::with_capacity(hrp.len() + 1 + data.len() + 6);
    out.push_str(hrp);
    out.push('1');
    for d in data.iter().copied().chain((0..6).map(|i| ((checksum >> (5 * (5 - i))) & 31) as u8)) {
        out.push(CHARSET[d as usize] as char);
    }
    out
}

/// Parse a bech32 address; returns its HRP and the address.
pub fn decode_address(text: &str) -> Result<(String, Address)> {
    let bad = |detail: &str| Error::new(Code::InvalidBech32, "", detail.to_string());
    if text.len() > 90 || (text.to_lowercase() != text && text.to_uppercase() != text) {
        return Err(bad("not a bech32 string (too long or mixed case)"));
    }
    let lower = text.to_lowercase();
    let sep = lower.rfind('1').ok_or_else(|| bad("no separator '1'"))?;
    let (hrp, rest) = (&lower[..sep], &lower[sep + 1..]);
    if hrp.is_empty() || rest.len() < 6 || !hrp.bytes().all(|b| (33..=126).contains(&b)) {
        return Err(bad("malformed human-readable part or data"));
    }
    let values = rest
        .bytes()
        .map(|c| CHARSET.iter().position(|&x| x == c).map(|p| p as u8))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| bad("character outside the bech32 alphabet"))?;
    if polymod(hrp_expand(hrp).into_iter().chain(values.iter().copied())) != 1 {
        return Err(bad("checksum mismatch"));
    }
    let bytes = convert_bits(&values[..values.len() - 6], 5, 8, false)
        .ok_or_else(|| bad("invalid padding"))?;
    if bytes.len() != 33 {
        return Err(bad("an address is 33 bytes"));
    }
    let id: [u8; 32] = bytes[1..].try_into().expect("33 bytes");
    let address = match bytes[0] {
        0 => Address::Ed25519(id),
        8 => Address::Alias(id),
        16 => Address::Nft(id),
        k => {
            return Err(Error::new(
                Code::UnknownAddressType,
                "",
                format!("unknown address type {k}"),
            ))
        }
    };
    Ok((hrp.to_string(), address))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENESIS: &str = "tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc";

    #[test]
    fn dev_genesis_address_both_ways() {
        let id: [u8; 32] =
            hex::decode("10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d")
                .unwrap()
                .try_into()
                .unwrap();
        assert_eq!(encode_address("tst", &Address::Ed25519(id)), GENESIS);
        assert_eq!(decode_address(GENESIS).unwrap(), ("tst".to_string(), Address::Ed25519(id)));
        assert_eq!(decode_address(&GENESIS.to_uppercase()).unwrap().1, Address::Ed25519(id));
    }

    #[test]
    fn rejects_corruption() {
        let mut bad = GENESIS.to_string();
        bad.replace_range(10..11, "x");
        assert!(decode_address(&bad).is_err());
        assert!(decode_address("tst1").is_err());
        assert!(decode_address("Tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc")
            .is_err());
    }
}
