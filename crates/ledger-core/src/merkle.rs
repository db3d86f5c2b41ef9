//! TIP-4 merkle tree hash over block ids (ledger.md §7.3): leaves are hashed with a 0x00
//! prefix and inner nodes with 0x01, the left subtree taking the largest power of two
//! strictly below the number of ids.

use crate::hash::{blake2b256, blake2b256_parts};
use crate::model::Id32;

pub fn merkle_root(ids: &[Id32]) -> Id32 {
    match ids.len() {
        0 => blake2b256(&[]),
        1 => blake2b256_parts(&[&[0x00], &ids[0]]),
        n => {
            let k = largest_power_of_two_below(n);
            blake2b256_parts(&[&[0x01], &merkle_root(&ids[..k]), &merkle_root(&ids[k..])])
        }
    }
}

fn largest_power_of_two_below(n: usize) -> usize {
    debug_assert!(n > 1);
    let mut k = 1;
    while k * 2 < n {
        k *= 2;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> Id32 {
        hex::decode(s).unwrap().try_into().unwrap()
    }

    #[test]
    fn example_d_roots() {
        let order = [
            id("c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e19"),
            id("344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56"),
            id("04d316e4a2edb85e074a9ba99191c562a9e8bbc90f994fd7261c1c87946bcea8"),
        ];
        assert_eq!(
            hex::encode(merkle_root(&order)),
            "8db96a1982d2ea4049100176b9cff70bb72ae9c050cb8ff5a3ac43a224a4b6b7"
        );
        assert_eq!(
            hex::encode(merkle_root(&order[2..])),
            "8351e69a1eb3d3d2a3acf2c22f695f5bdef2028fe1be120e383c6b79bb71ad47"
        );
        assert_eq!(
            hex::encode(merkle_root(&[])),
            "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        );
    }

    #[test]
    fn split_sizes() {
        assert_eq!(largest_power_of_two_below(2), 1);
        assert_eq!(largest_power_of_two_below(3), 2);
        assert_eq!(largest_power_of_two_below(7), 4);
        assert_eq!(largest_power_of_two_below(8), 4);
        assert_eq!(largest_power_of_two_below(9), 8);
    }
}
