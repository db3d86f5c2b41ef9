//! Balanced-ternary helpers: b1t6 (TIP-5) and the debugging tryte alphabet (pow.md §2, §4).

pub type Trit = i8;

/// Each byte becomes 6 trits, least significant first, reading the byte as a signed i8.
pub fn b1t6(bytes: &[u8]) -> Vec<Trit> {
    let mut out = Vec::with_capacity(bytes.len() * 6);
    for &byte in bytes {
        out.extend_from_slice(&byte_trits(byte));
    }
    out
}

pub fn byte_trits(byte: u8) -> [Trit; 6] {
    let mut v = byte as i8 as i32;
    let mut trits = [0i8; 6];
    for t in trits.iter_mut() {
        let r = (v + 1).rem_euclid(3) - 1;
        *t = r as i8;
        v = (v - r) / 3;
    }
    trits
}

/// For each byte value: bit k of the first mask is set when trit k of its b1t6 form is
/// +1, of the second when it is −1 (the bit planes of `byte_trits`).
pub const BYTE_PLANES: [(u8, u8); 256] = {
    let mut table = [(0u8, 0u8); 256];
    let mut byte = 0;
    while byte < 256 {
        let mut v = byte as u8 as i8 as i32;
        let mut k = 0;
        while k < 6 {
            let r = (v + 1).rem_euclid(3) - 1;
            if r == 1 {
                table[byte].0 |= 1 << k;
            } else if r == -1 {
                table[byte].1 |= 1 << k;
            }
            v = (v - r) / 3;
            k += 1;
        }
        byte += 1;
    }
    table
};

const TRYTE_ALPHABET: &[u8; 27] = b"9ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Trits as trytes, three trits a character (debugging and test vectors only).
pub fn trytes(trits: &[Trit]) -> String {
    trits
        .chunks(3)
        .map(|c| {
            let v = c.iter().rev().fold(0i32, |acc, &t| acc * 3 + t as i32);
            TRYTE_ALPHABET[v.rem_euclid(27) as usize] as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tip5_vector() {
        let bytes = hex::decode("0001027e7f8081fdfeff").unwrap();
        assert_eq!(trytes(&b1t6(&bytes)), "99A9B9RESEGVHVX9Y9Z9");
    }

    #[test]
    fn byte_table_of_pow_md() {
        assert_eq!(byte_trits(0x7f), [1, 0, -1, -1, -1, 1]);
        assert_eq!(byte_trits(0x80), [1, -1, 1, 1, 1, -1]);
        assert_eq!(byte_trits(0xc0), [-1, 0, -1, 1, -1, 0]);
        assert_eq!(byte_trits(0xff), [-1, 0, 0, 0, 0, 0]);
    }
}
