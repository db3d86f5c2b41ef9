//! Canonical JSON forms of byte strings and numbers (wire-format §2).

/// The two lower-case hex digits of every byte value: one table read a byte, no branch
/// and no capacity check a digit (hex is most of an indexer page and of block JSON).
const PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut pairs = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        pairs[b] = [DIGITS[b >> 4], DIGITS[b & 15]];
        b += 1;
    }
    pairs
};

/// `0x` and lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    let mut text = Vec::new();
    extend_hex(&mut text, bytes);
    String::from_utf8(text).expect("hex digits are ASCII")
}

/// Append `0x` and the lower-case hex of `bytes` to a JSON text being written as bytes.
pub fn extend_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    out.resize(start + 2 + 2 * bytes.len(), 0);
    let (prefix, digits) = out[start..].split_at_mut(2);
    prefix.copy_from_slice(b"0x");
    for (pair, &b) in digits.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&PAIRS[b as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_prefixed_lower_case_and_appends_after_what_is_there() {
        assert_eq!(hex(&[]), "0x");
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff, 0x3c]), "0x000fa0ff3c");
        let all: Vec<u8> = (0..=255).collect();
        let expected: String = std::iter::once("0x".to_string())
            .chain(all.iter().map(|b| format!("{b:02x}")))
            .collect();
        assert_eq!(hex(&all), expected);
        let mut out = b"[\"".to_vec();
        extend_hex(&mut out, &[1, 2]);
        assert_eq!(out, b"[\"0x0102");
    }
}
