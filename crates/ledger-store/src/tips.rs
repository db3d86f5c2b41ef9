//! Tip scores (ledger.md §5): how far behind the confirmed milestone a block's past cone
//! is anchored decides whether it may still be approved.

use crate::graph::ConeRoots;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TipScore {
    Healthy,
    SemiLazy,
    Lazy,
    BelowMaxDepth,
}

impl TipScore {
    /// Hornet's tip pools' advice (promote, reattach) for a block they add or remove, as
    /// its `NewINXBlockMetadata` gives it with a tip: semi-lazy is promoted, lazy and below
    /// max depth reattached. (Metadata reads judge by the thresholds: `metadata::block_json`.)
    pub fn pool_advice(self) -> (bool, bool) {
        match self {
            TipScore::SemiLazy => (true, false),
            TipScore::Lazy | TipScore::BelowMaxDepth => (false, true),
            TipScore::Healthy => (false, false),
        }
    }
}

/// The laziness thresholds (`tips.maxDeltaYcri` / `tips.maxDeltaOcri`) and the protocol's
/// `belowMaxDepth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TipThresholds {
    pub max_delta_ycri: u32,
    pub max_delta_ocri: u32,
    pub below_max_depth: u32,
}

impl Default for TipThresholds {
    fn default() -> Self {
        TipThresholds { max_delta_ycri: 8, max_delta_ocri: 13, below_max_depth: 15 }
    }
}

/// First match wins, as in the table of ledger.md §5.
pub fn score(roots: ConeRoots, confirmed_index: u32, t: &TipThresholds) -> TipScore {
    let behind_oldest = confirmed_index.saturating_sub(roots.oldest);
    let behind_youngest = confirmed_index.saturating_sub(roots.youngest);
    if behind_oldest > t.below_max_depth {
        TipScore::BelowMaxDepth
    } else if behind_youngest > t.max_delta_ycri {
        TipScore::Lazy
    } else if behind_oldest > t.max_delta_ocri {
        TipScore::SemiLazy
    } else {
        TipScore::Healthy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_matching_row_decides() {
        let t = TipThresholds::default();
        let at = |youngest, oldest| ConeRoots { youngest, oldest };
        assert_eq!(score(at(20, 20), 20, &t), TipScore::Healthy);
        assert_eq!(score(at(20, 4), 20, &t), TipScore::BelowMaxDepth);
        assert_eq!(score(at(11, 11), 20, &t), TipScore::Lazy);
        assert_eq!(score(at(12, 6), 20, &t), TipScore::SemiLazy);
        assert_eq!(score(at(12, 7), 20, &t), TipScore::Healthy);
        assert_eq!(score(at(0, 0), 1, &t), TipScore::Healthy);
    }
}
