//! White flag for a milestone not issued yet: INX ComputeWhiteFlag and its REST twin
//! `POST /api/core/v2/whiteflag` (TIP-25; inx-coordinator's quorum asks other nodes), one
//! computation for both (`Store::white_flag_roots`, nothing written). Parents this node does
//! not have yet are waited for up to `timeout` (Hornet's `whiteFlagParentsSolidTimeout`);
//! gossip brings them meanwhile.

use ledger_core::model::Id32;
use ledger_core::Code;
use ledger_store::Store;
use std::fmt;
use std::time::{Duration, Instant};

/// How often a missing parent is looked for again while waiting.
const POLL: Duration = Duration::from_millis(25);

/// Why the roots could not be computed, in Hornet's kinds (each has its gRPC and HTTP code:
/// Unavailable/503, InvalidArgument/400, Unavailable/503, Internal/500).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhiteFlagFailure {
    /// The index is not the next milestone's.
    NotSynced(String),
    NoParents(String),
    /// A parent did not arrive within the timeout.
    ParentsNotSolid(String),
    /// The request's milestone chain, or storage.
    Other(String),
}

impl fmt::Display for WhiteFlagFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhiteFlagFailure::NotSynced(m)
            | WhiteFlagFailure::NoParents(m)
            | WhiteFlagFailure::ParentsNotSolid(m)
            | WhiteFlagFailure::Other(m) => f.write_str(m),
        }
    }
}

/// The inclusion and applied merkle roots milestone `index` would carry (blocking: run it
/// off any event loop or async worker).
pub fn compute_white_flag(
    store: &Store,
    index: u32,
    timestamp: u32,
    parents: &[Id32],
    previous_milestone_id: &Id32,
    timeout: Duration,
) -> Result<(Id32, Id32), WhiteFlagFailure> {
    let started = Instant::now();
    loop {
        let error = match store.white_flag_roots(index, timestamp, parents, previous_milestone_id) {
            Ok(roots) => return Ok(roots),
            Err(e) => e,
        };
        let message = error.to_string();
        return Err(match error.code {
            Code::NotSynced => WhiteFlagFailure::NotSynced(message),
            Code::WhiteFlagParentsMissing => WhiteFlagFailure::NoParents(message),
            Code::WhiteFlagParentUnknown if started.elapsed() < timeout => {
                std::thread::sleep(POLL);
                continue;
            }
            Code::WhiteFlagParentUnknown => WhiteFlagFailure::ParentsNotSolid(message),
            _ => WhiteFlagFailure::Other(message),
        });
    }
}
