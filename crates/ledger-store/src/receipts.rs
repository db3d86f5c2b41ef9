//! Receipts and the treasury (TIP-25 `/receipts`, `/treasury`; Hornet
//! `pkg/model/utxo/receipt.go`, `treasury_output.go`, `pkg/whiteflag/confirmation.go`).
//!
//! A milestone may carry a receipt: legacy funds migrated to Ed25519 addresses, paid out of
//! the treasury. Applying it books one basic output per entry (output id = milestone id ‖
//! entry index as u16 LE, no block: block id zero, booked at the milestone), spends the
//! treasury output and creates the new one (the receipt's treasury transaction output, with
//! the milestone's id). It must pass iota.go's `ValidateReceipt`: no deposit above the token
//! supply, the sum neither, and old treasury − migrated sum = new treasury. The receipt is
//! kept in `receipts` (key migratedAt ‖ milestone index, both big-endian: numeric order),
//! the spent treasury output in the milestone's diff (`records::Diff`), the unspent one under
//! `state_key::TREASURY`, all in the milestone's batch.
//!
//! Dev networks have no migration and the embedded coordinator never issues a receipt; a
//! follower of a network with one applies it, and snapshots carry it (a delta's diffs).

use crate::columns::{state_key, TypedColumn, RECEIPTS, STATE};
use crate::db::{Batch, Db};
use crate::ledger;
use crate::records::OutputRecord;
use crate::storage_error;
use ledger_core::codec::{decode_milestone_option, encode_milestone_option, encode_output};
use ledger_core::json::text;
use ledger_core::model::{
    BasicOutput, Id32, MilestoneOption, MilestonePayload, Output, OutputId, ReceiptOption,
    UnlockCondition,
};
use ledger_core::snapshot::TreasuryOutput;
use ledger_core::{Code, Error, Result};

/// `receipts`: (migratedAt, milestone index) → the receipt milestone option's bytes.
pub struct Receipts;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiptKey {
    pub migrated_at: u32,
    pub milestone_index: u32,
}

impl TypedColumn for Receipts {
    const NAME: &'static str = RECEIPTS;
    type Key = ReceiptKey;
    type Value = ReceiptOption;

    fn encode_key(k: &ReceiptKey) -> Vec<u8> {
        let mut key = Vec::with_capacity(8);
        key.extend_from_slice(&k.migrated_at.to_be_bytes());
        key.extend_from_slice(&k.milestone_index.to_be_bytes());
        key
    }

    fn decode_key(bytes: &[u8]) -> Result<ReceiptKey> {
        let b: [u8; 8] = bytes
            .try_into()
            .map_err(|_| storage_error(format!("receipt key of {} bytes", bytes.len())))?;
        Ok(ReceiptKey {
            migrated_at: u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            milestone_index: u32::from_be_bytes([b[4], b[5], b[6], b[7]]),
        })
    }

    fn encode_value(r: &ReceiptOption) -> Vec<u8> {
        encode_milestone_option(&MilestoneOption::Receipt(r.clone()))
    }

    fn decode_value(bytes: &[u8]) -> Result<ReceiptOption> {
        match decode_milestone_option(bytes) {
            Ok(MilestoneOption::Receipt(r)) => Ok(r),
            Ok(_) => Err(storage_error("a stored receipt is another milestone option")),
            Err(e) => Err(storage_error(format!("a stored receipt does not decode: {e}"))),
        }
    }
}

/// What a milestone's receipt changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedReceipt {
    pub receipt: ReceiptOption,
    pub spent_treasury: TreasuryOutput,
    pub new_treasury: TreasuryOutput,
    /// The migrated funds, in entry order.
    pub created: Vec<(OutputId, OutputRecord)>,
}

/// The receipt of `milestone` applied to the unspent `treasury`: None without a receipt.
pub fn apply(
    milestone: &MilestonePayload,
    milestone_id: &Id32,
    treasury: TreasuryOutput,
    token_supply: u64,
) -> Result<Option<AppliedReceipt>> {
    let Some(receipt) = milestone.options.iter().find_map(|o| match o {
        MilestoneOption::Receipt(r) => Some(r),
        _ => None,
    }) else {
        return Ok(None);
    };
    let invalid = |path: String, detail: String| {
        Error::new(Code::MilestoneReceiptInvalid, format!("payload.options.receipt.{path}"), detail)
    };
    let mut migrated: u64 = 0;
    for (i, entry) in receipt.funds.iter().enumerate() {
        if entry.deposit > token_supply || migrated + entry.deposit > token_supply {
            return Err(invalid(
                format!("funds[{i}].deposit"),
                "the migrated funds exceed the token supply".into(),
            ));
        }
        migrated += entry.deposit;
    }
    let new_amount = match receipt.transaction.output {
        Output::Treasury { amount } => amount,
        _ => return Err(invalid("transaction.output".into(), "not a treasury output".into())),
    };
    if treasury.amount.checked_sub(migrated) != Some(new_amount) {
        return Err(invalid(
            "transaction.output.amount".into(),
            format!(
                "the treasury holds {}, the receipt migrates {migrated} and leaves {new_amount}",
                treasury.amount
            ),
        ));
    }
    let created = receipt
        .funds
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let output = Output::Basic(BasicOutput {
                amount: entry.deposit,
                native_tokens: vec![],
                unlock_conditions: vec![UnlockCondition::Address(entry.address)],
                features: vec![],
            });
            let record = OutputRecord {
                block_id: [0; 32],
                milestone_index: milestone.index,
                milestone_timestamp: milestone.timestamp,
                output: encode_output(&output),
            };
            (migrated_output_id(milestone_id, i as u16), record)
        })
        .collect();
    Ok(Some(AppliedReceipt {
        receipt: receipt.clone(),
        spent_treasury: treasury,
        new_treasury: TreasuryOutput { milestone_id: *milestone_id, amount: new_amount },
        created,
    }))
}

/// Hornet's `OutputIDForMigratedFunds`: the milestone id, then the entry's index (u16 LE).
pub fn migrated_output_id(milestone_id: &Id32, index: u16) -> OutputId {
    let mut id = [0u8; 34];
    id[..32].copy_from_slice(milestone_id);
    id[32..].copy_from_slice(&index.to_le_bytes());
    id
}

/// The receipt and the new treasury into the milestone's batch (its outputs and the spent
/// treasury go in with the rest of the diff).
pub fn put(batch: &mut Batch<'_>, milestone_index: u32, applied: &AppliedReceipt) {
    batch.put_typed::<Receipts>(
        &ReceiptKey { migrated_at: applied.receipt.migrated_at, milestone_index },
        &applied.receipt,
    );
    batch.put(STATE, state_key::TREASURY, &ledger::treasury_bytes(&applied.new_treasury));
}

/// Every stored receipt with the index of its milestone, in (migratedAt, index) order; only
/// those of one migratedAt index when given.
pub fn list(db: &Db, migrated_at: Option<u32>) -> Result<Vec<(u32, ReceiptOption)>> {
    let prefix = migrated_at.map(|m| m.to_be_bytes().to_vec()).unwrap_or_default();
    let mut found = Vec::new();
    db.scan(RECEIPTS, &prefix, |key, value| {
        let key = Receipts::decode_key(key)?;
        found.push((key.milestone_index, Receipts::decode_value(value)?));
        Ok(true)
    })?;
    Ok(found)
}

/// The body of `/receipts` (TIP-25 `ReceiptsResponse`): `{"receipts":[{"receipt":…,
/// "milestoneIndex":n},…]}`, an empty list when there are none (never null, as Hornet).
pub fn receipts_json(receipts: &[(u32, ReceiptOption)]) -> String {
    let mut out = String::from("{\"receipts\":[");
    for (i, (index, receipt)) in receipts.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"receipt\":");
        out.push_str(&text::receipt(receipt));
        out.push_str(&format!(",\"milestoneIndex\":{index}}}"));
    }
    out.push_str("]}");
    out
}

/// The body of `/treasury` (TIP-25 `TreasuryResponse`): the unspent treasury output. A
/// ledger with none holds the zero treasury Hornet loads from such a snapshot (zero id,
/// amount "0"), which is what it answers too.
pub fn treasury_json(t: &TreasuryOutput) -> String {
    format!("{{\"milestoneId\":\"0x{}\",\"amount\":\"{}\"}}", hex::encode(t.milestone_id), t.amount)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_core::model::{Address, Input, MigratedFundsEntry, TreasuryTransaction};

    fn receipt(migrated_at: u32, deposits: &[u64], new_treasury: u64) -> ReceiptOption {
        ReceiptOption {
            migrated_at,
            last: false,
            funds: deposits
                .iter()
                .enumerate()
                .map(|(i, d)| MigratedFundsEntry {
                    tail_transaction_hash: [i as u8; 49],
                    address: Address::Ed25519([i as u8 + 1; 32]),
                    deposit: *d,
                })
                .collect(),
            transaction: TreasuryTransaction {
                input: Input::Treasury { milestone_id: [5; 32] },
                output: Output::Treasury { amount: new_treasury },
            },
        }
    }

    fn milestone_with(r: ReceiptOption) -> MilestonePayload {
        MilestonePayload {
            index: 7,
            timestamp: 1000,
            protocol_version: 2,
            previous_milestone_id: [0; 32],
            parents: vec![[0; 32]],
            inclusion_merkle_root: [0; 32],
            applied_merkle_root: [0; 32],
            metadata: vec![],
            options: vec![MilestoneOption::Receipt(r)],
            signatures: vec![],
        }
    }

    #[test]
    fn the_column_round_trips_in_numeric_order() {
        let key = ReceiptKey { migrated_at: 0x0102_0304, milestone_index: 9 };
        let bytes = Receipts::encode_key(&key);
        assert_eq!(hex::encode(&bytes), "0102030400000009");
        assert_eq!(Receipts::decode_key(&bytes).unwrap(), key);
        assert!(Receipts::decode_key(&bytes[..7]).is_err());
        let r = receipt(3, &[1_000_000], 5);
        assert_eq!(Receipts::decode_value(&Receipts::encode_value(&r)).unwrap(), r);
        assert!(Receipts::decode_value(&[1, 0]).is_err());
    }

    #[test]
    fn a_receipt_moves_funds_out_of_the_treasury_as_validate_receipt_says() {
        let treasury = TreasuryOutput { milestone_id: [5; 32], amount: 10_000_000 };
        let id = [0xab; 32];
        let m = milestone_with(receipt(3, &[1_000_000, 2_000_000], 7_000_000));
        let applied = apply(&m, &id, treasury, 100_000_000).unwrap().unwrap();
        assert_eq!(applied.spent_treasury, treasury);
        assert_eq!(applied.new_treasury, TreasuryOutput { milestone_id: id, amount: 7_000_000 });
        assert_eq!(applied.created.len(), 2);
        assert_eq!(applied.created[1].0, migrated_output_id(&id, 1));
        assert_eq!(&applied.created[1].0[32..], &[1, 0]);
        assert_eq!(
            (applied.created[1].1.milestone_index, applied.created[1].1.block_id),
            (7, [0; 32])
        );
        // The treasury must shrink by exactly the migrated funds.
        let wrong = milestone_with(receipt(3, &[1_000_000], 8_000_000));
        assert_eq!(
            apply(&wrong, &id, treasury, 100_000_000).unwrap_err().code,
            Code::MilestoneReceiptInvalid
        );
        let more_than_held = milestone_with(receipt(3, &[20_000_000], 0));
        assert!(apply(&more_than_held, &id, treasury, 100_000_000).is_err());
        let above_supply = milestone_with(receipt(3, &[1_000_000], 9_000_000));
        assert!(apply(&above_supply, &id, treasury, 999_999).is_err());
        // No receipt, nothing to apply.
        let plain = MilestonePayload { options: vec![], ..m };
        assert_eq!(apply(&plain, &id, treasury, 100_000_000).unwrap(), None);
        assert_eq!(
            treasury_json(&TreasuryOutput::default()),
            format!("{{\"milestoneId\":\"0x{}\",\"amount\":\"0\"}}", "00".repeat(32))
        );
        assert_eq!(receipts_json(&[]), "{\"receipts\":[]}");
    }
}
