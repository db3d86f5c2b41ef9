//! The built-in genesis (ledger.md §3, snapshot.md §5): the genesis outputs hold the whole
//! token supply, booked at milestone 0 with all-zero transaction and block ids; the solid
//! entry points are those of the genesis style. The protocol parameters are persisted
//! with it and fixed from then on.

use crate::entry_points::SolidEntryPoints;
use crate::initial_state::InitialState;
use crate::origin::{GenesisStyle, Origin};
use crate::records::OutputRecord;
use ledger_core::codec::encode_output;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::protocol::{ProtocolParameters, RentStructure};
use ledger_core::validate::validate_output;
use ledger_core::{Code, Error, Result};

/// The genesis state of a new store: every output checked, the supply matched.
pub fn built_in(
    protocol: &ProtocolParameters,
    outputs: &[Output],
    style: GenesisStyle,
) -> Result<InitialState> {
    if outputs.is_empty() || outputs.len() > u16::MAX as usize {
        return Err(Error::new(
            Code::GenesisInvalid,
            "genesis.outputs",
            format!("{} genesis outputs; 1 to {} are possible", outputs.len(), u16::MAX),
        ));
    }
    let mut total: u128 = 0;
    for (i, output) in outputs.iter().enumerate() {
        validate_output(output, protocol)
            .map_err(|e| e.within(&format!("genesis.outputs[{i}]")))?;
        total += output.amount() as u128;
    }
    if total != protocol.token_supply as u128 {
        return Err(Error::new(
            Code::GenesisInvalid,
            "genesis.outputs",
            format!(
                "the genesis outputs hold {total}, the token supply is {}",
                protocol.token_supply
            ),
        ));
    }
    let outputs = outputs
        .iter()
        .enumerate()
        .map(|(i, output)| {
            let record = OutputRecord {
                block_id: [0; 32],
                milestone_index: 0,
                milestone_timestamp: 0,
                output: encode_output(output),
            };
            (ids::output_id(&[0; 32], i as u16), record)
        })
        .collect();
    Ok(InitialState {
        protocol: protocol.clone(),
        origin: Origin::built_in(style),
        outputs,
        entry_points: SolidEntryPoints::new(style.entry_points().into_iter().map(|id| (id, 0))),
        treasury: Default::default(),
        receipts: Vec::new(),
    })
}

/// The protocol parameters as the info endpoint shows them.
pub fn protocol_json(p: &ProtocolParameters) -> String {
    serde_json::json!({
        "version": p.version,
        "networkName": p.network_name,
        "bech32Hrp": p.bech32_hrp,
        "minPowScore": p.min_pow_score,
        "belowMaxDepth": p.below_max_depth,
        "rentStructure": {
            "vByteCost": p.rent_structure.v_byte_cost,
            "vByteFactorData": p.rent_structure.v_byte_factor_data,
            "vByteFactorKey": p.rent_structure.v_byte_factor_key,
        },
        "tokenSupply": p.token_supply.to_string(),
    })
    .to_string()
}

/// Parse the JSON of `protocol_json` (also what the node's configuration hands over).
pub fn protocol_from_json(text: &str) -> Result<ProtocolParameters> {
    let bad = |field: &str, why: &str| {
        Error::new(Code::InvalidProtocol, format!("protocol.{field}"), why.to_string())
    };
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad("", &e.to_string()))?;
    let uint = |field: &str, max: u64| -> Result<u64> {
        let value = field
            .split('.')
            .try_fold(&v, |at, key| at.get(key))
            .ok_or_else(|| bad(field, "missing"))?;
        let n = match value {
            serde_json::Value::String(s) => {
                s.parse::<u64>().map_err(|_| bad(field, "not an unsigned integer"))?
            }
            other => other.as_u64().ok_or_else(|| bad(field, "not an unsigned integer"))?,
        };
        if n > max {
            return Err(bad(field, &format!("at most {max}")));
        }
        Ok(n)
    };
    let text_field = |field: &str| -> Result<String> {
        v.get(field)
            .and_then(|s| s.as_str())
            .map(str::to_string)
            .ok_or_else(|| bad(field, "missing or not a string"))
    };
    Ok(ProtocolParameters {
        version: uint("version", u8::MAX as u64)? as u8,
        network_name: text_field("networkName")?,
        bech32_hrp: text_field("bech32Hrp")?,
        min_pow_score: uint("minPowScore", u32::MAX as u64)? as u32,
        below_max_depth: uint("belowMaxDepth", u8::MAX as u64)? as u8,
        rent_structure: RentStructure {
            v_byte_cost: uint("rentStructure.vByteCost", u32::MAX as u64)? as u32,
            v_byte_factor_data: uint("rentStructure.vByteFactorData", u8::MAX as u64)? as u8,
            v_byte_factor_key: uint("rentStructure.vByteFactorKey", u8::MAX as u64)? as u8,
        },
        token_supply: uint("tokenSupply", u64::MAX)?,
    })
}

/// Which persisted protocol values the configuration contradicts, in words.
pub fn protocol_differences(
    persisted: &ProtocolParameters,
    configured: &ProtocolParameters,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name} is {a} in the data directory but {b} in the configuration"));
        }
    };
    check("version", persisted.version.to_string(), configured.version.to_string());
    check("networkName", persisted.network_name.clone(), configured.network_name.clone());
    check("bech32Hrp", persisted.bech32_hrp.clone(), configured.bech32_hrp.clone());
    check("minPowScore", persisted.min_pow_score.to_string(), configured.min_pow_score.to_string());
    check(
        "belowMaxDepth",
        persisted.below_max_depth.to_string(),
        configured.below_max_depth.to_string(),
    );
    check(
        "rentStructure",
        format!("{:?}", persisted.rent_structure),
        format!("{:?}", configured.rent_structure),
    );
    check("tokenSupply", persisted.token_supply.to_string(), configured.token_supply.to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_json_round_trips() {
        let p = ProtocolParameters::dev_default();
        assert_eq!(protocol_from_json(&protocol_json(&p)).unwrap(), p);
        let mut q = p.clone();
        q.min_pow_score = 5;
        assert_eq!(protocol_differences(&p, &q).len(), 1);
        assert!(protocol_from_json("{\"version\":2}").is_err());
    }
}
