//! `POST /api/core/v2/whiteflag` (TIP-25), the REST twin of INX ComputeWhiteFlag: the same
//! computation (`ledger_inx::compute_white_flag`), off the event loop. Converts only: the
//! request's ids in, the two roots out, Hornet's kinds of failure as reason codes.

use crate::codec::hex_array;
use crate::errors::{rejection, to_napi, Result};
use crate::store::LedgerStore;
use ledger_core::json::hex;
use ledger_core::{Code, Error};
use ledger_inx::{compute_white_flag, WhiteFlagFailure};
use ledger_store::Store;
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Task};
use napi_derive::napi;
use std::sync::Arc;
use std::time::Duration;

/// Hornet's `whiteFlagParentsSolidTimeout`: how long parents this node lacks are waited for.
const PARENTS_TIMEOUT: Duration = Duration::from_secs(2);

#[napi(object)]
pub struct WhiteFlagRequestJs {
    pub index: u32,
    pub timestamp: u32,
    /// 0x-prefixed block ids.
    pub parents: Vec<String>,
    /// 0x-prefixed milestone id; empty for none (all zero).
    pub previous_milestone_id: String,
}

#[napi(object)]
pub struct WhiteFlagRootsJs {
    pub inclusion_merkle_root: String,
    pub applied_merkle_root: String,
}

pub struct WhiteFlagTask {
    store: Arc<Store>,
    index: u32,
    timestamp: u32,
    parents: Vec<[u8; 32]>,
    previous: [u8; 32],
}

impl Task for WhiteFlagTask {
    type Output = std::result::Result<([u8; 32], [u8; 32]), WhiteFlagFailure>;
    type JsValue = WhiteFlagRootsJs;
    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(compute_white_flag(
            &self.store,
            self.index,
            self.timestamp,
            &self.parents,
            &self.previous,
            PARENTS_TIMEOUT,
        ))
    }
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<WhiteFlagRootsJs> {
        match output {
            Ok((inclusion, applied)) => Ok(WhiteFlagRootsJs {
                inclusion_merkle_root: hex(&inclusion),
                applied_merkle_root: hex(&applied),
            }),
            Err(failure) => {
                let code = match &failure {
                    WhiteFlagFailure::NotSynced(_) => Code::NotSynced,
                    WhiteFlagFailure::NoParents(_) => Code::WhiteFlagParentsMissing,
                    WhiteFlagFailure::ParentsNotSolid(_) => Code::WhiteFlagParentUnknown,
                    WhiteFlagFailure::Other(_) => Code::WhiteFlagPreviousMilestone,
                };
                Err(rejection(&env, to_napi(Error::new(code, "", failure.to_string()))))
            }
        }
    }
}

#[napi]
impl LedgerStore {
    /// The merkle roots a milestone with these fields would carry (nothing is written);
    /// rejects with `not-synced`, `white-flag-parents-missing`, `white-flag-parent-unknown`
    /// (parents not here within 2 s) or `white-flag-previous-milestone` (anything else).
    #[napi(ts_return_type = "Promise<WhiteFlagRootsJs>")]
    pub fn white_flag(&self, request: WhiteFlagRequestJs) -> Result<AsyncTask<WhiteFlagTask>> {
        let parents = request
            .parents
            .iter()
            .map(|p| hex_array::<32>(p, "parents"))
            .collect::<Result<Vec<_>>>()?;
        let previous = match request.previous_milestone_id.as_str() {
            "" => [0; 32],
            id => hex_array::<32>(id, "previousMilestoneId")?,
        };
        Ok(AsyncTask::new(WhiteFlagTask {
            store: self.get()?,
            index: request.index,
            timestamp: request.timestamp,
            parents,
            previous,
        }))
    }
}
