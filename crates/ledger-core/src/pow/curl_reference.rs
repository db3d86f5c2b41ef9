//! Curl-P-81, one trit per byte, straight from pow.md §3. Slow (about 80 µs a hash), kept as
//! the reference that the bit-sliced miner is checked against.

use super::ternary::Trit;

pub const STATE_LEN: usize = 729;
pub const HASH_LEN: usize = 243;
pub const ROUNDS: usize = 81;

/// F(a, b) indexed by a + 4b + 5 (entries 3 and 7 unused).
const TRUTH_TABLE: [Trit; 11] = [1, 0, -1, 2, 1, -1, 0, 2, -1, 1, 0];

/// Hash of exactly 243 input trits: absorb into a zero state, one transform, squeeze 243.
pub fn curl_p81(input: &[Trit]) -> [Trit; HASH_LEN] {
    assert_eq!(input.len(), HASH_LEN, "Curl-P-81 here absorbs exactly one 243-trit block");
    let mut state = [0 as Trit; STATE_LEN];
    state[..HASH_LEN].copy_from_slice(input);
    transform(&mut state);
    let mut out = [0 as Trit; HASH_LEN];
    out.copy_from_slice(&state[..HASH_LEN]);
    out
}

pub fn transform(state: &mut [Trit; STATE_LEN]) {
    let mut scratch = [0 as Trit; STATE_LEN];
    for _ in 0..ROUNDS {
        scratch.copy_from_slice(state);
        let mut p = 0usize;
        for slot in state.iter_mut() {
            let a = scratch[p];
            p = if p < 365 { p + 364 } else { p - 365 };
            let b = scratch[p];
            *slot = TRUTH_TABLE[(a as i32 + 4 * b as i32 + 5) as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::ternary::{b1t6, trytes};

    #[test]
    fn truth_table_matches_pow_md() {
        let f = |a: i32, b: i32| TRUTH_TABLE[(a + 4 * b + 5) as usize];
        assert_eq!([f(-1, -1), f(-1, 0), f(-1, 1)], [1, 1, -1]);
        assert_eq!([f(0, -1), f(0, 0), f(0, 1)], [0, -1, 1]);
        assert_eq!([f(1, -1), f(1, 0), f(1, 1)], [-1, 0, 0]);
    }

    #[test]
    fn tip12_vector() {
        let message = hex::decode("48656c6c6f2c20576f726c64215ee6aaaaaaaaaaaa").unwrap();
        let digest = crate::hash::blake2b256(&message[..13]);
        let mut input = b1t6(&digest);
        input.extend(b1t6(&message[13..]));
        input.extend([0, 0, 0]);
        assert_eq!(
            trytes(&input),
            "9C9AYYBATZQAXAH9BBVYQDYYPBDXNDWBHAO9ODPDFZTZTCAWKCLADXO9PWEYCAC9MCAZVXVXVXVXVXVX9"
        );
        assert_eq!(
            trytes(&curl_p81(&input)),
            "DJCAGKILZPLXNXWFTNXFLCHRFVUHHMTPFIOFKQXMGIKITSEVWECMQOKCFXDIIHK9YVHGQICAIVEVDJ999"
        );
    }
}
