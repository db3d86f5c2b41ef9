//! `ledger-node tool db-health`: the integrity check of a data directory
//! (ledger-store `integrity`). Synchronous: it is a command-line call, not a request.

use crate::errors::{to_napi, Result};
use ledger_store::integrity;
use napi_derive::napi;
use std::path::Path;

#[napi(object)]
pub struct HealthReportJs {
    pub unspent_outputs: f64,
    pub blocks: f64,
    pub milestones: f64,
    pub indexer_checked: bool,
    /// One line each; empty when the database is healthy.
    pub problems: Vec<String>,
}

impl From<integrity::HealthReport> for HealthReportJs {
    fn from(r: integrity::HealthReport) -> Self {
        HealthReportJs {
            unspent_outputs: r.unspent_outputs as f64,
            blocks: r.blocks as f64,
            milestones: r.milestones as f64,
            indexer_checked: r.indexer_checked,
            problems: r.problems,
        }
    }
}

/// Check the ledger in `dataDir` (opened read-only, so a node may run on it).
#[napi]
pub fn check_database_health(data_dir: String) -> Result<HealthReportJs> {
    integrity::check_directory(&Path::new(&data_dir).join("ledger"))
        .map(Into::into)
        .map_err(to_napi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_become_numbers_and_problems_stay_lines() {
        let report = integrity::HealthReport {
            unspent_outputs: 3,
            blocks: 40,
            milestones: 7,
            indexer_checked: true,
            problems: vec!["milestones 2 to 2 are missing".into()],
        };
        let js = HealthReportJs::from(report);
        assert_eq!((js.unspent_outputs, js.blocks, js.milestones), (3.0, 40.0, 7.0));
        assert!(js.indexer_checked);
        assert_eq!(js.problems, ["milestones 2 to 2 are missing"]);
    }
}
