//! `indexer_chains`: kind ‖ alias id / NFT id (32) or foundry id (38) → the output id of
//! the chain's unspent output (indexer.md §2.3, §3.4).

use super::entry::{ChainId, OutputKind};
use crate::columns::{TypedColumn, INDEXER_CHAINS};
use crate::storage_error;
use ledger_core::model::OutputId;
use ledger_core::Result;

pub struct IndexerChains;

impl TypedColumn for IndexerChains {
    const NAME: &'static str = INDEXER_CHAINS;
    type Key = ChainId;
    type Value = OutputId;

    fn encode_key(chain: &ChainId) -> Vec<u8> {
        let mut key = Vec::with_capacity(39);
        key.push(chain.kind().code());
        match chain {
            ChainId::Alias(id) | ChainId::Nft(id) => key.extend_from_slice(id),
            ChainId::Foundry(id) => key.extend_from_slice(id),
        }
        key
    }

    fn decode_key(bytes: &[u8]) -> Result<ChainId> {
        let corrupt =
            || storage_error(format!("indexer chain key of {} bytes does not decode", bytes.len()));
        match (bytes.first().copied().and_then(OutputKind::from_code), bytes.len()) {
            (Some(OutputKind::Alias), 33) => {
                Ok(ChainId::Alias(bytes[1..].try_into().expect("32 bytes")))
            }
            (Some(OutputKind::Nft), 33) => {
                Ok(ChainId::Nft(bytes[1..].try_into().expect("32 bytes")))
            }
            (Some(OutputKind::Foundry), 39) => {
                Ok(ChainId::Foundry(bytes[1..].try_into().expect("38 bytes")))
            }
            _ => Err(corrupt()),
        }
    }

    fn encode_value(id: &OutputId) -> Vec<u8> {
        id.to_vec()
    }

    fn decode_value(bytes: &[u8]) -> Result<OutputId> {
        bytes
            .try_into()
            .map_err(|_| storage_error(format!("indexer chain value of {} bytes", bytes.len())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexer_chains_round_trip() {
        for chain in [ChainId::Alias([1; 32]), ChainId::Nft([2; 32]), ChainId::Foundry([3; 38])] {
            assert_eq!(
                IndexerChains::decode_key(&IndexerChains::encode_key(&chain)).unwrap(),
                chain
            );
        }
        assert!(IndexerChains::decode_key(&[3; 33]).is_err());
        assert!(IndexerChains::decode_key(&[5; 33]).is_err());
        assert_eq!(
            IndexerChains::decode_value(&IndexerChains::encode_value(&[9; 34])).unwrap(),
            [9; 34]
        );
        assert!(IndexerChains::decode_value(&[9; 33]).is_err());
    }
}
