//! Where the ledger began, fixed when the data directory is created (D41, D44): the
//! built-in genesis in the `ledger` or `hornet` style, or a Hornet full snapshot with its
//! genesis and target milestones. Persisted under `state_key::ORIGIN`.

use crate::storage_error;
use ledger_core::model::Id32;
use ledger_core::{Code, Error, Result};

/// The built-in genesis styles of snapshot.md §5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenesisStyle {
    /// D11/D12: entry points `0x00…00` and `0x00…01`; milestone 1 has both as parents and
    /// all-zero merkle roots (TIP-29).
    Ledger,
    /// D41: entry point `0x00…00` only; milestone 1 has it as its single parent and both
    /// roots MTH(∅), as Hornet's own networks — the only style Hornet can follow.
    Hornet,
}

impl GenesisStyle {
    pub fn parse(text: &str) -> Result<GenesisStyle> {
        match text {
            "ledger" => Ok(GenesisStyle::Ledger),
            "hornet" => Ok(GenesisStyle::Hornet),
            other => Err(Error::new(
                Code::InvalidGenesisStyle,
                "genesis.style",
                format!("'{other}' is neither 'ledger' nor 'hornet'"),
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GenesisStyle::Ledger => "ledger",
            GenesisStyle::Hornet => "hornet",
        }
    }

    /// The solid entry points of the built-in genesis in this style, ascending.
    pub fn entry_points(self) -> Vec<Id32> {
        let mut one = [0u8; 32];
        one[31] = 1;
        match self {
            GenesisStyle::Ledger => vec![[0; 32], one],
            GenesisStyle::Hornet => vec![[0; 32]],
        }
    }
}

/// How the ledger began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The rules of the first milestone; a snapshot follows the `hornet` rules (§5).
    pub style: GenesisStyle,
    /// The ledger was built from a snapshot (its protocol parameters came from the file).
    pub from_snapshot: bool,
    /// The first milestone with a zero previous id is this + 1 (D42).
    pub genesis_milestone_index: u32,
    /// The snapshot's target: the entry points' index, and where the ledger started. 0 for
    /// a genesis. Nothing below it can be served (the pruning index).
    pub target_milestone_index: u32,
    pub target_milestone_timestamp: u32,
    pub target_milestone_id: Id32,
}

const ORIGIN_LEN: usize = 1 + 1 + 4 + 4 + 4 + 32;

impl Origin {
    pub fn built_in(style: GenesisStyle) -> Origin {
        Origin {
            style,
            from_snapshot: false,
            genesis_milestone_index: 0,
            target_milestone_index: 0,
            target_milestone_timestamp: 0,
            target_milestone_id: [0; 32],
        }
    }

    /// The index of the network's first milestone (the first with a zero previous id).
    pub fn first_milestone_index(&self) -> u32 {
        self.genesis_milestone_index + 1
    }

    pub fn to_bytes(&self) -> [u8; ORIGIN_LEN] {
        let mut b = [0u8; ORIGIN_LEN];
        b[0] = match self.style {
            GenesisStyle::Ledger => 0,
            GenesisStyle::Hornet => 1,
        };
        b[1] = self.from_snapshot as u8;
        b[2..6].copy_from_slice(&self.genesis_milestone_index.to_le_bytes());
        b[6..10].copy_from_slice(&self.target_milestone_index.to_le_bytes());
        b[10..14].copy_from_slice(&self.target_milestone_timestamp.to_le_bytes());
        b[14..46].copy_from_slice(&self.target_milestone_id);
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Origin> {
        if b.len() != ORIGIN_LEN || b[0] > 1 || b[1] > 1 {
            return Err(storage_error(format!(
                "origin record of {} bytes ({})",
                b.len(),
                hex::encode(b)
            )));
        }
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        Ok(Origin {
            style: if b[0] == 0 { GenesisStyle::Ledger } else { GenesisStyle::Hornet },
            from_snapshot: b[1] == 1,
            genesis_milestone_index: u32_at(2),
            target_milestone_index: u32_at(6),
            target_milestone_timestamp: u32_at(10),
            target_milestone_id: b[14..46].try_into().expect("32 bytes"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_round_trip_and_bad_records_are_errors() {
        let o = Origin {
            style: GenesisStyle::Hornet,
            from_snapshot: true,
            genesis_milestone_index: 3,
            target_milestone_index: 70,
            target_milestone_timestamp: 1_700_000_000,
            target_milestone_id: [7; 32],
        };
        assert_eq!(Origin::from_bytes(&o.to_bytes()).unwrap(), o);
        assert_eq!(
            Origin::from_bytes(&Origin::built_in(GenesisStyle::Ledger).to_bytes()).unwrap().style,
            GenesisStyle::Ledger
        );
        assert!(Origin::from_bytes(&[0; 45]).is_err());
        let mut bad = o.to_bytes();
        bad[0] = 2;
        assert!(Origin::from_bytes(&bad).is_err());
        assert_eq!(GenesisStyle::parse("hornet").unwrap(), GenesisStyle::Hornet);
        assert_eq!(GenesisStyle::parse("Hornet").unwrap_err().code, Code::InvalidGenesisStyle);
        assert_eq!(GenesisStyle::Ledger.entry_points().len(), 2);
    }
}
