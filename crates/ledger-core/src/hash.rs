//! BLAKE2b-256: BLAKE2b with a 32-byte digest (not the first half of BLAKE2b-512).

use blake2::digest::consts::U32;
use blake2::{Blake2b, Digest};

pub type Blake2b256 = Blake2b<U32>;

pub fn blake2b256(bytes: &[u8]) -> [u8; 32] {
    Blake2b256::digest(bytes).into()
}

/// Hash of several slices back to back, without concatenating them first.
pub fn blake2b256_parts(parts: &[&[u8]]) -> [u8; 32] {
    let mut hasher = Blake2b256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_matches_tip4_empty_tree_hash() {
        assert_eq!(
            hex::encode(blake2b256(b"")),
            "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        );
    }

    #[test]
    fn network_name_digest_matches_spec() {
        assert_eq!(&hex::encode(blake2b256(b"ledger-devnet-v2"))[..16], "8a8858e8d2765647");
    }
}
