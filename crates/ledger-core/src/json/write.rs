//! Canonical JSON forms of byte strings and numbers (wire-format §2).

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// `0x` and lower-case hex, two digits a byte from a table.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = Vec::with_capacity(2 + bytes.len() * 2);
    s.extend_from_slice(b"0x");
    for &b in bytes {
        s.push(DIGITS[(b >> 4) as usize]);
        s.push(DIGITS[(b & 15) as usize]);
    }
    String::from_utf8(s).expect("hex digits are ASCII")
}
