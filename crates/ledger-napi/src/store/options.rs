//! `LedgerStore.open`'s options: the JavaScript object (`StoreOpenOptions`, built by
//! `src/core/store.ts` from the configuration) as `ledger_store::StoreOptions`, every
//! malformed value an error naming its configuration path.

use crate::codec::hex_array;
use crate::errors::{to_napi, Result};
use ledger_core::codec::decode_output;
use ledger_store::{protocol_from_json, GenesisStyle, KeyRange, MilestoneKeys, StoreOptions};
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;

#[napi(object)]
pub struct StoreOpenOptions {
    /// The protocol object of the info endpoint, as JSON text.
    pub protocol_json: String,
    /// Serialized genesis outputs (used when the data directory is new).
    pub genesis_outputs: Vec<Buffer>,
    /// `ledger` or `hornet` (D41), fixed when the data directory is new.
    pub genesis_style: String,
    /// A Hornet full snapshot to create a new ledger from instead of the built-in genesis.
    pub snapshot_path: Option<String>,
    pub coordinator_enabled: bool,
    /// 0x-hex Ed25519 seeds of the embedded coordinator.
    pub coordinator_private_keys: Vec<String>,
    /// 0x-hex public keys whose milestones are accepted when the coordinator is disabled.
    pub coordinator_public_keys: Vec<String>,
    /// `protocol.publicKeyRanges` (D42): when given, they replace `coordinatorPublicKeys`.
    pub public_key_ranges: Option<Vec<KeyRangeJs>>,
    /// `protocol.milestonePublicKeyCount`: signatures a milestone needs (0 = every key
    /// applicable at its index).
    pub milestone_public_key_count: Option<u32>,
    pub sync_writes: bool,
    pub max_delta_ycri: u32,
    pub max_delta_ocri: u32,
    /// RocksDB block cache, MiB.
    pub block_cache_mib: u32,
    /// All RocksDB memtables together, MiB.
    pub write_buffers_mib: u32,
    /// Keep the UTXO indexer (rebuilt at start-up when it was off).
    pub indexer_enabled: bool,
}

/// A coordinator key and the milestone indexes it signs (`end` 0 = open), Hornet's shape.
#[napi(object)]
pub struct KeyRangeJs {
    /// Hex, with or without 0x.
    pub key: String,
    pub start: u32,
    pub end: u32,
}

pub(crate) fn open_options(o: StoreOpenOptions) -> Result<StoreOptions> {
    let protocol = protocol_from_json(&o.protocol_json).map_err(to_napi)?;
    let genesis_outputs = o
        .genesis_outputs
        .iter()
        .enumerate()
        .map(|(i, b)| {
            decode_output(b).map_err(|e| to_napi(e.within(&format!("genesis.outputs[{i}]"))))
        })
        .collect::<Result<Vec<_>>>()?;
    let coordinator_seeds = o
        .coordinator_private_keys
        .iter()
        .enumerate()
        .map(|(i, k)| hex_array::<32>(k, &format!("coordinator.privateKeys[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let trusted_public_keys = o
        .coordinator_public_keys
        .iter()
        .enumerate()
        .map(|(i, k)| hex_array::<32>(k, &format!("coordinator.publicKeys[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let ranges = o.public_key_ranges.unwrap_or_default();
    let milestone_keys = MilestoneKeys {
        ranges: ranges
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let path = format!("protocol.publicKeyRanges[{i}].key");
                let key =
                    if r.key.starts_with("0x") { r.key.clone() } else { format!("0x{}", r.key) };
                Ok(KeyRange {
                    public_key: hex_array::<32>(&key, &path)?,
                    start: r.start,
                    end: r.end,
                })
            })
            .collect::<Result<Vec<_>>>()?,
        threshold: o.milestone_public_key_count.unwrap_or(0) as usize,
    };
    Ok(StoreOptions {
        protocol,
        genesis_outputs,
        genesis_style: GenesisStyle::parse(&o.genesis_style).map_err(to_napi)?,
        snapshot: o.snapshot_path.filter(|p| !p.is_empty()).map(Into::into),
        coordinator_seeds,
        trusted_public_keys,
        milestone_keys,
        coordinator_enabled: o.coordinator_enabled,
        sync_writes: o.sync_writes,
        max_delta_ycri: o.max_delta_ycri,
        max_delta_ocri: o.max_delta_ocri,
        block_cache_bytes: (o.block_cache_mib as usize) << 20,
        write_buffer_bytes: (o.write_buffers_mib as usize) << 20,
        indexer_enabled: o.indexer_enabled,
    })
}
