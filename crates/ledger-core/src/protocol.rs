//! Protocol parameters (ledger.md §2, api.md §2.3 `protocol`).

use crate::hash::blake2b256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RentStructure {
    pub v_byte_cost: u32,
    pub v_byte_factor_data: u8,
    pub v_byte_factor_key: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolParameters {
    pub version: u8,
    /// Exactly the string whose hash is the network id (D4).
    pub network_name: String,
    pub bech32_hrp: String,
    pub min_pow_score: u32,
    pub below_max_depth: u8,
    pub rent_structure: RentStructure,
    pub token_supply: u64,
}

impl ProtocolParameters {
    /// The development network of ledger.md §2 (D10).
    pub fn dev_default() -> Self {
        ProtocolParameters {
            version: 2,
            network_name: "ledger-devnet-v2".to_string(),
            bech32_hrp: "tst".to_string(),
            min_pow_score: 1500,
            below_max_depth: 15,
            rent_structure: RentStructure {
                v_byte_cost: 100,
                v_byte_factor_data: 1,
                v_byte_factor_key: 10,
            },
            token_supply: 4_600_000_000_000_000,
        }
    }

    pub fn network_id(&self) -> u64 {
        network_id(&self.network_name)
    }
}

impl Default for ProtocolParameters {
    fn default() -> Self {
        Self::dev_default()
    }
}

/// Network id: the first 8 bytes of BLAKE2b-256(name), little-endian (wire-format §4, D4).
pub fn network_id(name: &str) -> u64 {
    let digest = blake2b256(name.as_bytes());
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_ids_of_the_spec() {
        assert_eq!(network_id("ledger-devnet-v2"), 5140426672903325834);
        assert_eq!(network_id("ledger-testnet-v2"), 13724681302240225244);
        assert_eq!(network_id("iota-mainnet"), 9374574019616453254);
        assert_eq!(ProtocolParameters::dev_default().network_id(), 5140426672903325834);
    }
}
