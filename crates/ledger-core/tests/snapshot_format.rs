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

/// Milestones 1..=n, each naming the one before (milestone 1 names the zero id).
fn chain(n: u32) -> Vec<MilestonePayload> {
    let mut out: Vec<MilestonePayload> = Vec::new();
    for index in 1..=n {
        let previous = out.last().map_or([0; 32], ids::milestone_id);
        out.push(MilestonePayload {
            previous_milestone_id: previous,
            ..milestone(index, 1000 + index)
        });
    }
    out
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
    let ms = chain(3);
    FullSnapshot {
        genesis_milestone_index: 0,
        target_milestone_index: 1,
        target_milestone_timestamp: 1001,
        target_milestone_id: ids::milestone_id(&ms[0]),
        ledger_milestone_index: 3,
        outputs: vec![b.clone(), c.clone()],
        milestone_diffs: vec![
            MilestoneDiff {
                milestone: ms[2].clone(),
                spent_treasury: None,
                created: vec![c],
                consumed: vec![SpentOutput { output: a.clone(), transaction_id_spent: tx3 }],
            },
            MilestoneDiff {
                milestone: ms[1].clone(),
                spent_treasury: None,
                created: vec![a, b],
                consumed: vec![SpentOutput { output: genesis_output(), transaction_id_spent: tx2 }],
            },
            MilestoneDiff {
                milestone: ms[0].clone(),
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

// ----- delta snapshots (snapshot.md §7) and the milestone chain -------------------------------

/// The delta that brings `rolled_forward()`'s ledger, rolled back to its target 1, up to 3:
/// its two diffs above the target, ascending.
fn delta_to_3() -> DeltaSnapshot {
    let full = rolled_forward();
    let mut diffs = full.milestone_diffs[..2].to_vec();
    diffs.reverse();
    DeltaSnapshot {
        target_milestone_index: 3,
        target_milestone_timestamp: 1003,
        full_snapshot_target_milestone_id: full.target_milestone_id,
        milestone_diffs: diffs,
        solid_entry_points: vec![[0x42; 32]],
    }
}

/// The full snapshot at target 1 whose ledger is at 1 (no diffs above the target).
fn full_at_1() -> FullSnapshot {
    let full = rolled_forward();
    FullSnapshot {
        ledger_milestone_index: 1,
        outputs: vec![genesis_output()],
        milestone_diffs: full.milestone_diffs[2..].to_vec(),
        ..full
    }
}

#[test]
fn a_delta_round_trips_and_brings_the_ledger_forward() {
    let delta = delta_to_3();
    let bytes = write_delta_snapshot(&delta).unwrap();
    assert_eq!(read_delta_snapshot(&bytes).unwrap(), delta);
    // Header: version, type 1, target, timestamp, full id, SEP offset = where the SEPs start.
    assert_eq!(&bytes[..2], &[2, 1]);
    let (header, length) = read_snapshot_header(&bytes).unwrap();
    assert_eq!(length, DELTA_HEADER_LENGTH);
    let SnapshotHeader::Delta(h) = header else { panic!("a delta header") };
    assert_eq!(
        (h.target_milestone_index, h.milestone_diff_count, h.solid_entry_point_count),
        (3, 2, 1)
    );
    assert_eq!(h.sep_file_offset as usize, bytes.len() - 32);
    // Read as a full snapshot it is refused, and the other way round.
    assert_eq!(read_full_snapshot(&bytes).unwrap_err().code, Code::SnapshotTypeUnsupported);
    assert_eq!(
        read_delta_snapshot(&write_full_snapshot(&full_at_1()).unwrap()).unwrap_err().code,
        Code::SnapshotTypeUnsupported
    );

    let at_1 = roll_back_to_target(
        read_full_snapshot(&write_full_snapshot(&full_at_1()).unwrap()).unwrap(),
    )
    .unwrap();
    let forward = roll_forward(at_1, delta).unwrap();
    let rolled = rolled_forward();
    let mut expected = rolled.outputs.clone();
    expected.sort_by_key(|o| o.output_id);
    assert_eq!(forward.unspent, expected);
    assert_eq!(forward.target_milestone_index, 3);
    assert_eq!(
        forward.target_milestone_id,
        ids::milestone_id(&rolled.milestone_diffs[0].milestone)
    );
    assert_eq!(forward.solid_entry_points, vec![[0x42; 32]]);
    assert!(forward.receipts.is_empty());
    // The same ledger as the full snapshot at ledger 3 holds.
    let full_at_3 = FullSnapshot {
        target_milestone_index: 3,
        target_milestone_id: forward.target_milestone_id,
        ..rolled
    };
    assert_eq!(roll_back_to_target(full_at_3).unwrap().unspent, forward.unspent);
}

#[test]
fn a_delta_must_continue_its_full_snapshot() {
    let at_1 = || roll_back_to_target(full_at_1()).unwrap();
    // Another full snapshot's target id.
    let mut d = delta_to_3();
    d.full_snapshot_target_milestone_id = [7; 32];
    let err = roll_forward(at_1(), d).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotDeltaMismatch, "fullSnapshotTargetMilestoneId")
    );
    // Not starting right after the full target.
    let mut d = delta_to_3();
    d.milestone_diffs.remove(0);
    d.target_milestone_index = 3;
    assert_eq!(roll_forward(at_1(), d).unwrap_err().code, Code::SnapshotDeltaMismatch);
    // A milestone that does not name the one before.
    let mut d = delta_to_3();
    d.milestone_diffs[1].milestone.previous_milestone_id = [1; 32];
    let err = roll_forward(at_1(), d).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotMilestoneChainBroken, "milestoneDiffs[1].milestone.previousMilestoneId")
    );
    // A diff that consumes what the ledger does not hold.
    let mut d = delta_to_3();
    d.milestone_diffs[0].consumed[0].output.output_id[33] = 9;
    assert_eq!(roll_forward(at_1(), d).unwrap_err().code, Code::SnapshotDiffInconsistent);
    // Structure: gaps, a target the diffs do not reach, a wrong SEP offset, truncation.
    let mut d = delta_to_3();
    d.milestone_diffs.swap(0, 1);
    assert_eq!(
        read_delta_snapshot(&write_delta_snapshot(&d).unwrap()).unwrap_err().code,
        Code::SnapshotDiffOrder
    );
    let mut d = delta_to_3();
    d.target_milestone_index = 4;
    assert_eq!(
        read_delta_snapshot(&write_delta_snapshot(&d).unwrap()).unwrap_err().code,
        Code::SnapshotDiffOrder
    );
    let mut bytes = write_delta_snapshot(&delta_to_3()).unwrap();
    bytes[42] ^= 1;
    assert_eq!(read_delta_snapshot(&bytes).unwrap_err().code, Code::SnapshotSepOffsetMismatch);
    let bytes = write_delta_snapshot(&delta_to_3()).unwrap();
    for len in 0..bytes.len() {
        let err = read_delta_snapshot(&bytes[..len]).expect_err(&format!("{len} bytes"));
        assert!(
            [Code::TruncatedBytes, Code::LengthPrefixTooLarge].contains(&err.code),
            "{len}: {err}"
        );
    }
}

#[test]
fn a_full_snapshots_milestones_must_form_one_chain() {
    let mut s = rolled_forward();
    s.milestone_diffs[0].milestone.previous_milestone_id = [5; 32];
    let err = roll_back_to_target(s).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotMilestoneChainBroken, "milestoneDiffs[0].milestone.previousMilestoneId")
    );
    // The diff of the target milestone must be the milestone the header names.
    let mut s = rolled_forward();
    s.target_milestone_id = [6; 32];
    assert_eq!(roll_back_to_target(s).unwrap_err().code, Code::SnapshotMilestoneChainBroken);
}

#[test]
fn a_header_reads_from_the_start_of_a_file() {
    let bytes = write_full_snapshot(&rolled_forward()).unwrap();
    let (header, length) = read_snapshot_header(&bytes).unwrap();
    assert_eq!(length, 155);
    let SnapshotHeader::Full(h) = header else { panic!("a full header") };
    assert_eq!(
        (
            h.target_milestone_index,
            h.ledger_milestone_index,
            h.output_count,
            h.milestone_diff_count
        ),
        (1, 3, 2, 3)
    );
    assert_eq!(read_snapshot_header(&bytes[..155]).unwrap().1, 155);
    assert_eq!(read_snapshot_header(&bytes[..154]).unwrap_err().code, Code::TruncatedBytes);
    // The streaming pieces give the same bytes as the whole-file writer.
    let mut pieces = encode_full_header(&FullHeader {
        output_count: 2,
        milestone_diff_count: 3,
        solid_entry_point_count: 1,
        ..h
    });
    for o in &rolled_forward().outputs {
        write_output_record(&mut pieces, o);
    }
    for d in &rolled_forward().milestone_diffs {
        write_milestone_diff(&mut pieces, d).unwrap();
    }
    pieces.extend_from_slice(&[0; 32]);
    assert_eq!(pieces, bytes);
}

// ----- receipts and the treasury through snapshots -----------------------------------------

const TREASURY: u64 = 1_000_000_000;

fn receipt_milestone(previous: Id32) -> MilestonePayload {
    MilestonePayload {
        previous_milestone_id: previous,
        options: vec![MilestoneOption::Receipt(ReceiptOption {
            migrated_at: 17,
            last: false,
            funds: vec![MigratedFundsEntry {
                tail_transaction_hash: [1; 49],
                address: Address::Ed25519([0x77; 32]),
                deposit: 3_000_000,
            }],
            transaction: TreasuryTransaction {
                input: Input::Treasury { milestone_id: [0; 32] },
                output: Output::Treasury { amount: TREASURY - 3_000_000 },
            },
        })],
        ..milestone(2, 1002)
    }
}

/// Ledger at 1: the genesis output less the treasury, and the treasury; milestone 2's
/// receipt migrates 3 Mi to 0x77….
fn treasury_network() -> (FullSnapshot, MilestoneDiff, SnapshotOutput) {
    let ms = chain(1);
    let genesis =
        SnapshotOutput { output: basic(SUPPLY - TREASURY, d23_address()), ..genesis_output() };
    let at_1 = FullSnapshot {
        target_milestone_index: 1,
        target_milestone_timestamp: 1001,
        target_milestone_id: ids::milestone_id(&ms[0]),
        ledger_milestone_index: 1,
        treasury: TreasuryOutput { milestone_id: [0; 32], amount: TREASURY },
        outputs: vec![genesis],
        milestone_diffs: vec![MilestoneDiff {
            milestone: ms[0].clone(),
            spent_treasury: None,
            created: vec![],
            consumed: vec![],
        }],
        ..dev_genesis()
    };
    let m2 = receipt_milestone(ids::milestone_id(&ms[0]));
    let mut migrated_id = [0u8; 34];
    migrated_id[..32].copy_from_slice(&ids::milestone_id(&m2));
    let migrated = SnapshotOutput {
        output_id: migrated_id,
        block_id: [0; 32],
        milestone_index_booked: 2,
        milestone_timestamp_booked: 1002,
        output: basic(3_000_000, [0x77; 32]),
    };
    let diff = MilestoneDiff {
        milestone: m2,
        spent_treasury: Some(at_1.treasury),
        created: vec![migrated.clone()],
        consumed: vec![],
    };
    (at_1, diff, migrated)
}

#[test]
fn a_receipt_is_undone_by_a_full_snapshot_and_applied_by_a_delta() {
    let (at_1, diff, migrated) = treasury_network();
    let after = TreasuryOutput {
        milestone_id: ids::milestone_id(&diff.milestone),
        amount: TREASURY - 3_000_000,
    };
    // A full snapshot at ledger 2, target 1: the receipt's diff carries the spent treasury.
    let full = FullSnapshot {
        ledger_milestone_index: 2,
        treasury: after,
        outputs: vec![at_1.outputs[0].clone(), migrated.clone()],
        milestone_diffs: vec![diff.clone(), at_1.milestone_diffs[0].clone()],
        ..at_1.clone()
    };
    let bytes = write_full_snapshot(&full).unwrap();
    let read = read_full_snapshot(&bytes).unwrap();
    assert_eq!(read, full);
    let back = roll_back_to_target(read).unwrap();
    assert_eq!(back.treasury, at_1.treasury);
    assert_eq!(back.unspent, at_1.outputs);
    assert!(back.receipts.is_empty());
    // A diff with a receipt must carry the spent treasury output (and only then).
    let mut broken = full.clone();
    broken.milestone_diffs[0].spent_treasury = None;
    assert_eq!(write_full_snapshot(&broken).unwrap_err().code, Code::SnapshotDiffInconsistent);

    // The delta from target 1 to 2 on the full snapshot at 1: the receipt is applied and kept.
    let delta = DeltaSnapshot {
        target_milestone_index: 2,
        target_milestone_timestamp: 1002,
        full_snapshot_target_milestone_id: at_1.target_milestone_id,
        milestone_diffs: vec![diff.clone()],
        solid_entry_points: vec![[3; 32]],
    };
    let delta = read_delta_snapshot(&write_delta_snapshot(&delta).unwrap()).unwrap();
    let forward = roll_forward(roll_back_to_target(at_1.clone()).unwrap(), delta.clone()).unwrap();
    assert_eq!(forward.treasury, after);
    assert_eq!(forward.receipts.len(), 1);
    assert_eq!(forward.receipts[0].0, 2);
    assert!(forward.unspent.contains(&migrated));
    // A receipt that spends another treasury output than the ledger's is refused.
    let mut wrong = delta;
    wrong.milestone_diffs[0].spent_treasury =
        Some(TreasuryOutput { milestone_id: [9; 32], amount: TREASURY });
    let err = roll_forward(roll_back_to_target(at_1).unwrap(), wrong).unwrap_err();
    assert_eq!(
        (err.code, err.path.as_str()),
        (Code::SnapshotDiffInconsistent, "milestoneDiffs[0].spentTreasuryOutput")
    );
}
