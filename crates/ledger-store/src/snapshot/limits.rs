//! Which targets a snapshot may have (snapshot.md §8; Hornet `checkSnapshotLimits`,
//! `pkg/snapshot/snapshot.go`), with Hornet's words for each refusal.
//!
//! The solid entry points of target N come from the milestones N − (BMD + 5) ..= N and from
//! their children referenced up to N + (BMD + 5) (the thresholds "past" and "future", both
//! BMD + 5): so N − 20 must be above the pruning index (those milestones must still be
//! stored) and N + 20 at most the confirmed index. A periodic snapshot must also be newer
//! than the last one (`increasing`). The diffs a full snapshot carries above N are always
//! stored within these limits; those below N (only read for protocol parameter changes)
//! are written as far down as they reach.

use ledger_core::{Code, Error, Result};

/// What to check a target against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The confirmed milestone index (the ledger index the snapshot is taken at).
    pub confirmed_index: u32,
    pub pruning_index: u32,
    /// The last snapshot written to the snapshot paths (for `increasing`).
    pub snapshot_index: u32,
    /// BMD + 5, in both directions.
    pub threshold_past: u32,
    pub threshold_future: u32,
    /// Periodic snapshots only move forward.
    pub increasing: bool,
}

/// SEPs look back and forward BMD + 5 milestones (Hornet's `SolidEntryPointCheckAdditionalThreshold*`).
pub fn thresholds(below_max_depth: u32) -> u32 {
    below_max_depth + 5
}

impl Limits {
    /// The lowest and highest target allowed, or why there is none.
    pub fn range(&self) -> Result<(u32, u32)> {
        if self.confirmed_index < self.threshold_future {
            return Err(not_enough_history(format!(
                "minimum confirmed index: {}, actual confirmed index: {}: not enough history",
                self.threshold_future + 1,
                self.confirmed_index
            )));
        }
        let mut min = self.threshold_past + 1;
        let max = self.confirmed_index - self.threshold_future;
        if self.increasing {
            min = min.max(self.snapshot_index + 1);
        }
        min = min.max(self.pruning_index + 1 + self.threshold_past);
        if min > max {
            return Err(not_enough_history(format!(
                "minimum index ({min}) exceeds maximum index ({max}): not enough history"
            )));
        }
        Ok((min, max))
    }

    pub fn check(&self, target: u32) -> Result<()> {
        let (min, max) = self.range()?;
        if target > max {
            return Err(Error::new(
                Code::SnapshotTargetTooNew,
                "index",
                format!("maximum: {max}, actual: {target}: snapshot target is too new"),
            ));
        }
        if target < min {
            return Err(Error::new(
                Code::SnapshotTargetTooOld,
                "index",
                format!("minimum: {min}, actual: {target}: snapshot target is too old"),
            ));
        }
        Ok(())
    }
}

fn not_enough_history(detail: String) -> Error {
    Error::new(Code::SnapshotNotEnoughHistory, "index", detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(confirmed: u32, pruning: u32, snapshot: u32, increasing: bool) -> Limits {
        Limits {
            confirmed_index: confirmed,
            pruning_index: pruning,
            snapshot_index: snapshot,
            threshold_past: 20,
            threshold_future: 20,
            increasing,
        }
    }

    #[test]
    fn hornets_window_and_words() {
        assert_eq!(limits(250, 0, 0, false).range().unwrap(), (21, 230));
        assert_eq!(limits(250, 100, 0, false).range().unwrap(), (121, 230));
        assert_eq!(limits(250, 0, 200, true).range().unwrap(), (201, 230));
        let new = limits(250, 0, 0, false).check(231).unwrap_err();
        assert_eq!(new.detail, "maximum: 230, actual: 231: snapshot target is too new");
        let old = limits(250, 100, 0, false).check(120).unwrap_err();
        assert_eq!(old.detail, "minimum: 121, actual: 120: snapshot target is too old");
        let early = limits(19, 0, 0, false).check(5).unwrap_err();
        assert_eq!(
            early.detail,
            "minimum confirmed index: 21, actual confirmed index: 19: not enough history"
        );
        let none = limits(40, 0, 0, false).check(20).unwrap_err();
        assert_eq!(
            none.detail,
            "minimum index (21) exceeds maximum index (20): not enough history"
        );
        limits(41, 0, 0, false).check(21).unwrap();
    }
}
