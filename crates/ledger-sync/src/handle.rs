//! `GossipSync`, the handle the node holds: it starts gossip (`ledger_gossip::Gossip`, on
//! its own Tokio runtime) over a store through `SyncStore`, runs the thread that applies
//! milestones and the one that asks again for missing parents, attaches the store's
//! `LocalBlocks` hook, reports status, and stops all of it. Peers, metrics and events are gossip's own (`gossip()`).

use crate::applier::Applier;
use crate::local::LocalBlocks;
use crate::maintenance::Maintenance;
use crate::options::SyncOptions;
use crate::sync_store::{lock, Limits, SyncStore};
use ledger_gossip::{Config, Gossip, GossipStore, SyncState, WarpSyncStatus};
use ledger_store::Store;
use std::sync::{Arc, Mutex};

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// No listen address works, or the runtime or Noise could not be set up.
    #[error(transparent)]
    Gossip(#[from] ledger_gossip::StartError),
    /// The thread of `maintenance.rs` or of `applier.rs` could not be started.
    #[error("{0}")]
    Thread(std::io::Error),
}

/// What `/info`, `/health` and `/metrics` show of gossip's side of the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncStatus {
    /// Confirmed, latest and pruning index as heartbeats report them.
    pub sync: SyncState,
    /// Blocks held for their parents, and milestones held for their predecessor.
    pub held_blocks: usize,
    pub held_milestones: usize,
    /// Warp sync (gossip.md §7): while it runs the node is behind its peers and not synced.
    pub warp_sync: WarpSyncStatus,
    /// Set when a received milestone's roots differ from this node's white flag (a fork):
    /// the node no longer follows the network.
    pub halted: Option<String>,
}

pub struct GossipSync {
    gossip: Arc<Gossip>,
    intake: Arc<SyncStore>,
    local: Arc<LocalBlocks>,
    /// None once stopped.
    maintenance: Mutex<Option<Maintenance>>,
    applier: Mutex<Option<Applier>>,
}

impl GossipSync {
    /// Start gossip for `store` over TCP with the options' identity: listen (fails only if
    /// no address works), dial the static peers; the blocks stored through `local` are
    /// broadcast from now on. Warp sync runs only on a follower (the store's coordinator
    /// is disabled).
    pub fn start(
        store: Arc<Store>,
        local: Arc<LocalBlocks>,
        options: SyncOptions,
    ) -> Result<GossipSync, StartError> {
        let config = options.gossip_config(store.follows_milestones());
        GossipSync::start_with(store, local, config, Limits::default(), |config, intake| {
            Gossip::start(config, &options.identity, intake)
        })
    }

    /// `start` with the gossip configuration and the limits given, and gossip started by
    /// `launch` over the store it is handed: another transport (libp2p's in-memory one)
    /// or a store wrapped to observe it, in tests. `config.warp_sync` is set here, from
    /// the store's role, as in `start`.
    pub fn start_with(
        store: Arc<Store>,
        local: Arc<LocalBlocks>,
        mut config: Config,
        limits: Limits,
        launch: impl FnOnce(Config, Arc<SyncStore>) -> Result<Gossip, ledger_gossip::StartError>,
    ) -> Result<GossipSync, StartError> {
        config.warp_sync = store.follows_milestones();
        let intake = Arc::new(SyncStore::new(store, limits));
        // Each part already started stops when it is dropped on an error below.
        let applier = Applier::start(intake.clone()).map_err(StartError::Thread)?;
        let gossip = Arc::new(launch(config, intake.clone())?);
        let maintenance = Maintenance::start(gossip.clone(), intake.clone(), limits.retry_interval)
            .map_err(StartError::Thread)?;
        local.attach(intake.clone());
        Ok(GossipSync {
            gossip,
            intake,
            local,
            maintenance: Mutex::new(Some(maintenance)),
            applier: Mutex::new(Some(applier)),
        })
    }

    /// Peers, requests, metrics, events: the gossip service itself.
    pub fn gossip(&self) -> &Gossip {
        &self.gossip
    }

    /// Gossip's view of the store (held blocks, the fork halt).
    pub fn intake(&self) -> &SyncStore {
        &self.intake
    }

    pub fn status(&self) -> SyncStatus {
        let (held_blocks, held_milestones) = self.intake.held_counts();
        SyncStatus {
            sync: self.intake.sync_state(),
            held_blocks,
            held_milestones,
            warp_sync: self.gossip.warp_sync(),
            halted: self.intake.halted(),
        }
    }

    /// Stop broadcasting the store's own blocks, asking for missing parents and applying
    /// milestones on a thread of their own. The service itself stops when the handle is
    /// dropped (a few seconds at most: every stream and connection is closed first), after
    /// calls in flight on other threads finished.
    pub fn stop(&self) {
        self.local.detach(&self.intake);
        if let Some(maintenance) = lock(&self.maintenance).take() {
            maintenance.stop();
        }
        if let Some(applier) = lock(&self.applier).take() {
            applier.stop();
        }
    }
}

impl Drop for GossipSync {
    fn drop(&mut self) {
        self.stop();
    }
}
