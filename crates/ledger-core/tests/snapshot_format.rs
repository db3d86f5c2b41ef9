//! The full snapshot format (snapshot.md §2, §3): the 311-byte genesis of §2 byte for byte,
//! a ledger rolled back over milestone diffs, and every way a file can be malformed —
//! truncated anywhere, trailing bytes, counts larger than the file, wrong version, type,
//! index order, diffs that contradict the ledger — each a clear error, never a panic.
//! The genesis output and its address are those of the spec's worked examples
//! (`vectors/worked-examples.json`).

mod common;

use common::worked_examples;
use ledger_core::codec::encode_output;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::protocol::ProtocolParameters;
use ledger_core::snapshot::*;
use ledger_core::Code;

const SUPPLY: u64 = 4_600_000_000_000_000;

/// snapshot.md §2, the worked example, field by field as the table lists it.
fn spec_example() -> Vec<u8> {
    let parts = [
        "0200",
        "000000000000000000000000",
        &"00".repeat(32),
        "00000000",
        &"00".repeat(32),
        "0000000000000000",
        "3100",
        "0100000000022900",
        "02106c65646765722d6465766e65742d763203747374dc0500000f64000000010a0080f7f5ac571000",
        "0100000000000000000000000100",
        &"00".repeat(34),
        &"00".repeat(32),
        "00000000000000002e000000",
        // The genesis output: the one Example C spends (wire-format §9.3).
        worked_examples::hex_str("/C/extra/consumedOutputs/0/output"),
        &"00".repeat(32),
    ];
    hex::decode(parts.concat()).unwrap()
}

/// The committed copy of the same file (test/data), also used by the end-to-end tests.
const COMMITTED: &[u8] = include_bytes!("../../../test/data/genesis-hornet-dev.snapshot.bin");

/// The dev genesis address (D23), the genesis key of wire-format §9.
fn d23_address() -> Id32 {
    worked_examples::hex32("/keys/genesis/address")
}

fn basic(amount: u64, address: Id32) -> Output {
    Output::Basic(BasicOutput {
        amount,
        native_tokens: vec![],
        unlock_conditions: vec![UnlockCondition::Address(Address::Ed25519(address))],
        features: vec![],
    })
}

fn genesis_output() -> SnapshotOutput {
    SnapshotOutput {
        output_id: [0; 34],
        block_id: [0; 32],
        milestone_index_booked: 0,
        milestone_timestamp_booked: 0,
        output: basic(SUPPLY, d23_address()),
    }
}

fn dev_genesis() -> FullSnapshot {
    FullSnapshot {
        genesis_milestone_index: 0,
        target_milestone_index: 0,
        target_milestone_timestamp: 0,
        target_milestone_id: [0; 32],
        ledger_milestone_index: 0,
        treasury: TreasuryOutput::default(),
        protocol_parameters: ProtocolParametersOption {
            target_milestone_index: 0,
            protocol_version: 2,
            params: ProtocolParameters::dev_default(),
        },
        outputs: vec![genesis_output()],
        milestone_diffs: vec![],
        solid_entry_points: vec![[0; 32]],
    }
}

fn milestone(index: u32, timestamp: u32) -> MilestonePayload {
    MilestonePayload {
        index,
        timestamp,
        protocol_version: 2,
        previous_milestone_id: [index as u8; 32],
        parents: vec![[0; 32]],
        inclusion_merkle_root: [1; 32],
        applied_merkle_root: [2; 32],
        metadata: vec![],
        options: vec![],
        signatures: vec![Ed25519Signature { public_key: [3; 32], signature: [4; 64] }],
    }
}

/// A ledger at index 3 with the target at 1: milestone 2 spent the genesis output into
/// A and B, milestone 3 spent A into C; one more diff (milestone 1) below the target.
fn rolled_forward() -> FullSnapshot {
    let tx2 = [0x22; 32];
    let tx3 = [0x33; 32];
    let at = |tx: &Id32, i: u16, amount: u64, index: u32| SnapshotOutput {
        output_id: ids::output_id(tx, i),
        block_id: [index as u8; 32],
        milestone_index_booked: index,
        milestone_timestamp_booked: 1000 + index,
        output: basic(amount, [index as u8; 32]),
    };
    let a = at(&tx2, 0, 1_000_000, 2);
    let b = at(&tx2, 1, SUPPLY - 1_000_000, 2);
    let c = at(&tx3, 0, 1_000_000, 3);
    FullSnapshot {
        genesis_milestone_index: 0,
        target_milestone_index: 1,
        target_milestone_timestamp: 1001,
        target_milestone_id: [9; 32],
        ledger_milestone_index: 3,
        outputs: vec![b.clone(), c.clone()],
        milestone_diffs: vec![
            MilestoneDiff {
                milestone: milestone(3, 1003),
                spent_treasury: None,
                created: vec![c],
                consumed: vec![SpentOutput { output: a.clone(), transaction_id_spent: tx3 }],
            },
            MilestoneDiff {
                milestone: milestone(2, 1002),
                spent_treasury: None,
                created: vec![a, b],
                consumed: vec![SpentOutput { output: genesis_output(), transaction_id_spent: tx2 }],
            },
            MilestoneDiff {
                milestone: milestone(1, 1001),
                spent_treasury: None,
                created: vec![],
                consumed: vec![],
            },
        ],
        ..dev_genesis()
    }
}

#[test]
fn the_spec_example_byte_for_byte() {
    let example = spec_example();
    assert_eq!(example.len(), 311);
    assert_eq!(example, COMMITTED);
    assert_eq!(write_full_snapshot(&dev_genesis()).unwrap(), example);
    let read = read_full_snapshot(&example).unwrap();
    assert_eq!(read, dev_genesis());
    assert_eq!(write_full_snapshot(&read).unwrap(), example);
    let ledger = roll_back_to_target(read).unwrap();
    assert_eq!(ledger.protocol, ProtocolParameters::dev_default());
    assert_eq!(ledger.unspent, vec![genesis_output()]);
    assert_eq!(ledger.solid_entry_points, vec![[0; 32]]);
    assert!(ledger.milestones_above_target.is_empty());
}

#[test]
fn diffs_roll_the_ledger_back_to_the_target() {
    let bytes = write_full_snapshot(&rolled_forward()).unwrap();
    let read = read_full_snapshot(&bytes).unwrap();
    assert_eq!(read, rolled_forward());
    let ledger = roll_back_to_target(read).unwrap();
    assert_eq!(ledger.unspent, vec![genesis_output()]);
    assert_eq!(ledger.target_milestone_index, 1);
    assert_eq!(
        ledger.milestones_above_target.iter().map(|m| m.index).collect::<Vec<_>>(),
        vec![2, 3]
    );
}

#[test]
fn every_truncation_is_an_error_naming_where() {
    for bytes in
        [spec_example(), write_full_snapshot(&rolled_forward()).unwrap(), HORNET_T56.to_vec()]
    {
        for len in 0..bytes.len() {
            let err = read_full_snapshot(&bytes[..len]).expect_err(&format!("{len} bytes"));
            assert!(
                [Code::TruncatedBytes, Code::LengthPrefixTooLarge].contains(&err.code),
                "{len}: {err}"
            );
            assert!(!err.path.is_empty() && err.detail.contains("offset"), "{len}: {err}");
        }
    }
}

#[test]
fn bytes_after_the_last_entry_point_are_refused() {
    let mut bytes = spec_example();
    bytes.push(0);
    let err = read_full_snapshot(&bytes).unwrap_err();
    assert_eq!(err.code, Code::TrailingBytes);
    assert!(err.detail.contains("after offset 311"), "{err}");
}

#[test]
fn counts_larger_than_the_file_are_refused_before_allocating() {
    let cases: [(usize, &[u8], &str); 4] = [
        (141, &u64::MAX.to_le_bytes(), "outputCount"),
        (141, &(1u64 << 40).to_le_bytes(), "outputCount"),
        (149, &u32::MAX.to_le_bytes(), "milestoneDiffCount"),
        (153, &2u16.to_le_bytes(), "solidEntryPointCount"),
    ];
    for (offset, value, path) in cases {
        let mut bytes = spec_example();
        bytes[offset..offset + value.len()].copy_from_slice(value);
        let err = read_full_snapshot(&bytes).unwrap_err();
        assert_eq!(err.path, path, "{err}");
        assert!([Code::LengthPrefixTooLarge, Code::TruncatedBytes].contains(&err.code), "{err}");
    }
    // An output length (at 229) beyond the file.
    let mut bytes = spec_example();
    bytes[229..233].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = read_full_snapshot(&bytes).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::TruncatedBytes, "outputs[0].output"));
    assert!(err.detail.contains("output record at file offset 155"), "{err}");
}

#[test]
fn header_checks() {
    let with = |offset: usize, value: &[u8]| {
        let mut bytes = spec_example();
        bytes[offset..offset + value.len()].copy_from_slice(value);
        read_full_snapshot(&bytes).unwrap_err()
    };
    assert_eq!(with(0, &[1]).code, Code::SnapshotVersionUnsupported);
    let delta = with(1, &[1]);
    assert_eq!(delta.code, Code::SnapshotTypeUnsupported);
    assert!(delta.detail.contains("delta"));
    // genesis 5 > target 0; target 5 > ledger 0.
    assert_eq!(
        (with(2, &[5]).code, with(2, &[5]).path.as_str()),
        (Code::SnapshotIndexOrder, "targetMilestoneIndex")
    );
    assert_eq!(with(6, &[5]).path, "ledgerMilestoneIndex");
    // The option: wrong type, a length that leaves bytes over, a blob that does not decode.
    let kind = with(92, &[0]);
    assert_eq!(
        (kind.code, kind.path.as_str()),
        (Code::SnapshotOptionInvalid, "protocolParameters.type")
    );
    assert!(kind.detail.contains("file offset 92"), "{kind}");
    assert_eq!(with(98, &[0x28]).path, "protocolParameters");
    assert_eq!(with(101, &[0x11]).path, "protocolParameters.params.bech32Hrp");
}

#[test]
fn outputs_and_entry_points_are_checked() {
    // Unknown output type inside the first output record (its bytes start at 233).
    let mut bytes = spec_example();
    bytes[233] = 9;
    let err = read_full_snapshot(&bytes).unwrap_err();
    assert_eq!(err.path, "outputs[0].output.type");
    // A treasury output among the outputs.
    let mut s = dev_genesis();
    s.outputs[0].output = Output::Treasury { amount: SUPPLY };
    let err = read_full_snapshot(&write_full_snapshot(&s).unwrap()).unwrap_err();
    assert_eq!(err.code, Code::SnapshotTreasuryAsOutput);
    // An output that breaks a rule, and one listed twice.
    let mut s = dev_genesis();
    s.outputs[0].output = basic(0, d23_address());
    let err = roll_back_to_target(read_full_snapshot(&write_full_snapshot(&s).unwrap()).unwrap())
        .unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::OutputAmountZero, "outputs[0].output.amount"));
    let mut s = dev_genesis();
    s.outputs =
        vec![SnapshotOutput { output: basic(SUPPLY / 2, d23_address()), ..genesis_output() }; 2];
    assert_eq!(roll_back_to_target(s).unwrap_err().code, Code::SnapshotDuplicateOutput);
    // The same entry point twice.
    let mut s = dev_genesis();
    s.solid_entry_points = vec![[0; 32], [0; 32]];
    let err = read_full_snapshot(&write_full_snapshot(&s).unwrap()).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotDuplicateEntryPoint, "solidEntryPoints[1]")
    );
}

#[test]
fn the_supply_and_the_protocol_version_are_checked() {
    let mut s = dev_genesis();
    s.outputs[0].output = basic(SUPPLY - 1, d23_address());
    assert_eq!(roll_back_to_target(s.clone()).unwrap_err().code, Code::SnapshotSupplyMismatch);
    s.treasury.amount = 1;
    roll_back_to_target(s).unwrap();
    let mut s = dev_genesis();
    s.protocol_parameters.protocol_version = 3;
    assert_eq!(roll_back_to_target(s).unwrap_err().code, Code::SnapshotProtocolVersion);
}

#[test]
fn diffs_must_match_the_ledger_and_come_in_order() {
    let bytes = |s: &FullSnapshot| write_full_snapshot(s).unwrap();
    // The diff of milestone 3 missing: the ledger cannot reach the target.
    let mut s = rolled_forward();
    s.milestone_diffs.truncate(1);
    assert_eq!(read_full_snapshot(&bytes(&s)).unwrap_err().code, Code::SnapshotDiffsMissing);
    // Diffs swapped.
    let mut s = rolled_forward();
    s.milestone_diffs.swap(0, 1);
    let err = read_full_snapshot(&bytes(&s)).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotDiffOrder, "milestoneDiffs[0].milestone.index")
    );
    // A diff that creates an output the ledger does not hold.
    let mut s = rolled_forward();
    s.milestone_diffs[0].created[0].output_id[33] = 7;
    let err = roll_back_to_target(s).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotDiffInconsistent, "milestoneDiffs[0].created[0].outputId")
    );
    // A diff that consumes an output the ledger still holds.
    let mut s = rolled_forward();
    s.milestone_diffs[0].consumed[0].output = s.outputs[0].clone();
    assert_eq!(roll_back_to_target(s).unwrap_err().path, "milestoneDiffs[0].consumed[0].outputId");
    // A declared record length that disagrees with the record.
    let mut b = bytes(&rolled_forward());
    let first_diff = 155 + 2 * (78 + 46);
    let length = u32::from_le_bytes(b[first_diff..first_diff + 4].try_into().unwrap());
    b[first_diff..first_diff + 4].copy_from_slice(&(length + 1).to_le_bytes());
    let err = read_full_snapshot(&b).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotDiffLengthMismatch, "milestoneDiffs[0].diffLength")
    );
    assert!(err.detail.contains(&format!("milestone diff at file offset {first_diff}")), "{err}");
}

#[test]
fn protocol_upgrades_in_the_file_are_refused() {
    let mut s = rolled_forward();
    let mut other = ProtocolParameters::dev_default();
    other.min_pow_score = 1;
    s.milestone_diffs[2].milestone.options = vec![MilestoneOption::ProtocolParameters {
        target_milestone_index: 5,
        protocol_version: 2,
        params: ledger_core::codec::encode_protocol_parameters(&other),
    }];
    let err = roll_back_to_target(read_full_snapshot(&write_full_snapshot(&s).unwrap()).unwrap())
        .unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotProtocolUpgradeUnsupported, "milestoneDiffs[2].milestone.options[0]")
    );
}

#[test]
fn random_corruption_never_panics() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let originals =
        [spec_example(), write_full_snapshot(&rolled_forward()).unwrap(), HORNET_T56.to_vec()];
    for _ in 0..20_000 {
        let mut bytes = originals[rng.gen_range(0..3)].clone();
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..bytes.len());
            bytes[at] = rng.gen();
        }
        if let Ok(s) = read_full_snapshot(&bytes) {
            let _ = roll_back_to_target(s);
        }
    }
    // The genesis output's bytes are what the codec writes.
    assert_eq!(encode_output(&genesis_output().output).len(), 46);
}

/// A full snapshot written by Hornet 2.0.1 itself (its snapshot manager, on the local
/// private tangle of shared/interop): ledger index 81, target 56, 55 diffs — 25 to roll back
/// (milestone 66 carries a transfer) and 30 below the target.
const HORNET_T56: &[u8] =
    include_bytes!("../../../test/data/hornet-private-tangle-t56.snapshot.bin");

#[test]
fn a_snapshot_written_by_hornet_reads_rolls_back_and_writes_back_identically() {
    let unhex = |s: &str| -> Vec<u8> { hex::decode(s).unwrap() };
    let s = read_full_snapshot(HORNET_T56).unwrap();
    assert_eq!(
        (s.genesis_milestone_index, s.target_milestone_index, s.ledger_milestone_index),
        (0, 56, 81)
    );
    assert_eq!((s.outputs.len(), s.milestone_diffs.len(), s.solid_entry_points.len()), (6, 55, 1));
    assert_eq!(s.protocol_parameters.params.network_name, "private_tangle1");
    assert_eq!(write_full_snapshot(&s).unwrap(), HORNET_T56);
    let spent_at_66 = ids::output_id(
        &unhex("57ad767d15b1e5a25bddda9ece7619e5dcb7638b38c6d71853ead2d74d7a609e")
            .try_into()
            .unwrap(),
        1,
    );
    let created_at_66 = unhex("e295c012e976ff91a85f95050c505fff35cbf87e6a65fa2cefb984b462dc07f8");
    let ledger = roll_back_to_target(s).unwrap();
    assert_eq!(
        hex::encode(ledger.target_milestone_id),
        "82737596ef8763da9191e8447658281a161f2ea9c8414cbe8ec42769ee1b5a77"
    );
    assert!(ledger.unspent.iter().any(|o| o.output_id == spent_at_66));
    assert!(!ledger.unspent.iter().any(|o| o.output_id[..32] == created_at_66[..]));
    assert_eq!(ledger.unspent.len(), 5);
    let indexes: Vec<u32> = ledger.milestones_above_target.iter().map(|m| m.index).collect();
    assert_eq!(indexes, (57..=81).collect::<Vec<_>>());
    // Milestone 81 as Hornet's coordinator logged it: its id, and its block id with nonce 0.
    let m81 = ledger.milestones_above_target.last().unwrap();
    assert_eq!(
        hex::encode(ids::milestone_id(m81)),
        "929cb8bb5c6b605fe9d2f074b1839cb88e76523c438964baa8312e98fd5ec1ee"
    );
    let block = Block {
        protocol_version: 2,
        parents: m81.parents.clone(),
        payload: Some(Payload::Milestone(Box::new(m81.clone()))),
        nonce: 0,
    };
    assert_eq!(
        hex::encode(ids::block_id(&ledger_core::codec::encode_block(&block))),
        "f07a3d8c3f05341f0b75daea5412138589cfff39b040f0de300246954efd9288"
    );
}
