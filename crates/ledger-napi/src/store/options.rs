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
    /// A delta snapshot applied on top of `snapshotPath`.
    pub snapshot_delta_path: Option<String>,
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
        snapshot_delta: o.snapshot_delta_path.filter(|p| !p.is_empty()).map(Into::into),
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

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_core::model::{Address, BasicOutput, Output, UnlockCondition};
    use ledger_core::protocol::ProtocolParameters;
    use ledger_store::protocol_json;

    fn options() -> StoreOpenOptions {
        StoreOpenOptions {
            protocol_json: protocol_json(&ProtocolParameters::dev_default()),
            genesis_outputs: vec![],
            genesis_style: "ledger".into(),
            snapshot_path: None,
            snapshot_delta_path: None,
            coordinator_enabled: true,
            coordinator_private_keys: vec![format!("0x{}", "01".repeat(32))],
            coordinator_public_keys: vec![],
            public_key_ranges: None,
            milestone_public_key_count: None,
            sync_writes: false,
            max_delta_ycri: 8,
            max_delta_ocri: 13,
            block_cache_mib: 3,
            write_buffers_mib: 2,
            indexer_enabled: true,
        }
    }

    /// The napi error's code and message (`path␟detail`, errors.rs).
    fn failure(o: StoreOpenOptions) -> (String, String) {
        let e = open_options(o).err().expect("a failure");
        (e.status, e.reason)
    }

    #[test]
    fn sizes_in_mib_become_bytes_and_the_rest_passes_through() {
        let o = open_options(options()).unwrap();
        assert_eq!(o.protocol, ProtocolParameters::dev_default());
        assert_eq!((o.block_cache_bytes, o.write_buffer_bytes), (3 << 20, 2 << 20));
        assert_eq!(o.coordinator_seeds, vec![[1; 32]]);
        assert!(o.trusted_public_keys.is_empty() && o.milestone_keys.ranges.is_empty());
        assert_eq!(o.milestone_keys.threshold, 0);
        assert_eq!(o.genesis_style, GenesisStyle::Ledger);
        assert!(o.coordinator_enabled && o.indexer_enabled && !o.sync_writes);
        assert_eq!((o.max_delta_ycri, o.max_delta_ocri), (8, 13));
        assert!(o.snapshot.is_none());
    }

    #[test]
    fn an_empty_snapshot_path_is_none() {
        let with = |path: &str| {
            open_options(StoreOpenOptions { snapshot_path: Some(path.into()), ..options() })
        };
        assert!(with("").unwrap().snapshot.is_none());
        assert_eq!(with("full.bin").unwrap().snapshot, Some("full.bin".into()));
    }

    #[test]
    fn key_ranges_take_keys_with_or_without_0x() {
        let range = |key: String, start, end| KeyRangeJs { key, start, end };
        let o = open_options(StoreOpenOptions {
            public_key_ranges: Some(vec![
                range("aa".repeat(32), 0, 10),
                range(format!("0x{}", "bb".repeat(32)), 11, 0),
            ]),
            milestone_public_key_count: Some(1),
            ..options()
        })
        .unwrap();
        let ranges = o.milestone_keys.ranges;
        assert_eq!(ranges[0], KeyRange { public_key: [0xaa; 32], start: 0, end: 10 });
        assert_eq!(ranges[1], KeyRange { public_key: [0xbb; 32], start: 11, end: 0 });
        assert_eq!(o.milestone_keys.threshold, 1);
    }

    #[test]
    fn each_malformed_value_is_named_by_its_configuration_path() {
        let bad_range = StoreOpenOptions {
            public_key_ranges: Some(vec![
                KeyRangeJs { key: "aa".repeat(32), start: 0, end: 0 },
                KeyRangeJs { key: "aa".repeat(31), start: 0, end: 0 },
            ]),
            ..options()
        };
        let (code, message) = failure(bad_range);
        assert_eq!(code, "invalid-argument");
        assert!(message.starts_with("protocol.publicKeyRanges[1].key\u{1f}"), "{message}");
        let bad_seed =
            StoreOpenOptions { coordinator_private_keys: vec!["0x12".into()], ..options() };
        assert!(failure(bad_seed).1.starts_with("coordinator.privateKeys[0]\u{1f}"));
        let bad_key = StoreOpenOptions { coordinator_public_keys: vec!["".into()], ..options() };
        assert!(failure(bad_key).1.starts_with("coordinator.publicKeys[0]\u{1f}"));
        let style = StoreOpenOptions { genesis_style: "bee".into(), ..options() };
        assert_eq!(failure(style).0, "invalid-genesis-style");
        let protocol = StoreOpenOptions { protocol_json: "{}".into(), ..options() };
        assert_eq!(failure(protocol).0, "invalid-protocol");
    }

    #[test]
    fn genesis_outputs_are_decoded_and_a_bad_one_is_named_by_its_index() {
        let output = Output::Basic(BasicOutput {
            amount: 1_000_000,
            native_tokens: vec![],
            unlock_conditions: vec![UnlockCondition::Address(Address::Ed25519([7; 32]))],
            features: vec![],
        });
        let bytes = ledger_core::codec::encode_output(&output);
        let o = StoreOpenOptions { genesis_outputs: vec![bytes.into()], ..options() };
        assert_eq!(open_options(o).unwrap().genesis_outputs, vec![output]);
        let o = StoreOpenOptions { genesis_outputs: vec![vec![0xff].into()], ..options() };
        assert!(failure(o).1.starts_with("genesis.outputs[0]"));
    }
}
