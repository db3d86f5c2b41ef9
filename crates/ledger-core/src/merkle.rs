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
    use crate::worked_examples::{hex32, hex_str};

    fn id(s: &str) -> Id32 {
        hex::decode(s).unwrap().try_into().unwrap()
    }

    /// Example D of ledger.md §7.4: milestone 2's white-flag order (Examples A, B, C) and roots.
    #[test]
    fn example_d_roots() {
        let order: Vec<Id32> =
            (0..3).map(|i| hex32(&format!("/D/extra/whiteFlagOrder/{i}"))).collect();
        assert_eq!(order, [hex32("/A/id"), hex32("/B/id"), hex32("/C/id")]);
        assert_eq!(hex::encode(merkle_root(&order)), hex_str("/D/extra/inclusionMerkleRoot"));
        assert_eq!(hex::encode(merkle_root(&order[2..])), hex_str("/D/extra/appliedMerkleRoot"));
        assert_eq!(
            hex::encode(merkle_root(&[])),
            "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        );
    }

    /// The seven-leaf example of TIP-4 itself (root and both subtrees).
    #[test]
    fn tip4_seven_leaves() {
        let d: Vec<Id32> = [
            "52fdfc072182654f163f5f0f9a621d729566c74d10037c4d7bbb0407d1e2c649",
            "81855ad8681d0d86d1e91e00167939cb6694d2c422acd208a0072939487f6999",
            "eb9d18a44784045d87f3c67cf22746e995af5a25367951baa2ff6cd471c483f1",
            "5fb90badb37c5821b6d95526a41a9504680b4e7c8b763a1b1d49d4955c848621",
            "6325253fec738dd7a9e28bf921119c160f0702448615bbda08313f6a8eb668d2",
            "0bf5059875921e668a5bdf2c7fc4844592d2572bcd0668d2d6c52f5054e2d083",
            "6bf84c7174cb7476364cc3dbd968b0f7172ed85794bb358b0c3b525da1786f9f",
        ]
        .iter()
        .map(|s| id(s))
        .collect();
        assert_eq!(
            hex::encode(merkle_root(&d)),
            "bf67ce7ba23e8c0951b5abaec4f5524360d2c26d971ff226d3359fa70cdb0beb"
        );
        assert_eq!(
            hex::encode(merkle_root(&d[..4])),
            "03bcbb3cf4314eab2f5ae68c767ff0a5fec4573c865728231f71d596fd867b56"
        );
        assert_eq!(
            hex::encode(merkle_root(&d[4..])),
            "ce22d5bc728023e7ab6a9eb8f58baf62b9565fc8baeef4b377daa6709dbe598c"
        );
        assert_eq!(
            hex::encode(merkle_root(&d[..1])),
            "3d1399c64ff0ae6a074afa4cd2ce4eab8d5c499c1da6afdd1d84b7447cc00544"
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
