//! The ledger through the store: transfers confirmed by milestones, conflicts with their
//! reasons, chains within one milestone, tip scores, and a follower that checks another
//! coordinator's milestones.

mod common;

use common::*;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::Store;

fn recipient(n: u8) -> [u8; 32] {
    ledger_core::crypto::ed25519_address(&ledger_core::crypto::public_key(&[n; 32]))
}

fn state_of(store: &Store, block_id: &Id32) -> (String, i64) {
    let meta = json(&store.block_metadata_json(block_id).unwrap().unwrap());
    (
        meta["ledgerInclusionState"].as_str().unwrap_or("pending").to_string(),
        meta["conflictReason"].as_i64().unwrap_or(0),
    )
}

fn started(dir: &std::path::Path) -> Store {
    let store = open_dev(dir, 0);
    store.issue_milestone(None).unwrap();
    store
}

#[test]
fn double_spends_conflict_with_reasons_1_and_2() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let genesis = [([0u8; 34], genesis_output())];
    let a = transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient(1))]);
    let b = transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient(2))]);
    let first = store.submit_block(&tx_block(&store, &a)).unwrap().block_id;
    let second = store.submit_block(&tx_block(&store, &b)).unwrap().block_id;
    let m = store.issue_milestone(None).unwrap();
    assert_eq!(m.included_transactions, 1);
    assert_eq!(state_of(&store, &first), ("included".into(), 0));
    assert_eq!(state_of(&store, &second), ("conflicting".into(), 2));
    assert_eq!(store.included_block_id(&ids::transaction_id(&b)).unwrap(), None);

    let c = transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient(3))]);
    let third = store.submit_block(&tx_block(&store, &c)).unwrap().block_id;
    store.issue_milestone(None).unwrap();
    assert_eq!(state_of(&store, &third), ("conflicting".into(), 1));
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
}

#[test]
fn invalid_transactions_conflict_and_leave_the_ledger_alone() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let genesis = [([0u8; 34], genesis_output())];
    let mut cases: Vec<(TransactionPayload, i64)> = Vec::new();

    let mut bad_signature =
        transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient(1))]);
    if let Unlock::Signature(s) = &mut bad_signature.unlocks[0] {
        s.signature[0] ^= 1;
    }
    cases.push((bad_signature, 5));
    let mut wrong_commitment =
        transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient(1))]);
    wrong_commitment.essence.inputs_commitment = [7; 32];
    cases.push((wrong_commitment, 10));
    cases.push((
        transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY - 1, recipient(1))]),
        4,
    ));
    let missing = [(ids::output_id(&[9; 32], 0), genesis_output())];
    cases.push((transfer(&genesis_seed(), &missing, vec![basic_output(SUPPLY, recipient(1))]), 3));
    let wrong_key = transfer(&[5; 32], &genesis, vec![basic_output(SUPPLY, recipient(1))]);
    cases.push((wrong_key, 5));

    let blocks: Vec<Id32> = cases
        .iter()
        .map(|(tx, _)| store.submit_block(&tx_block(&store, tx)).unwrap().block_id)
        .collect();
    let m = store.issue_milestone(None).unwrap();
    assert_eq!(m.included_transactions, 0);
    for ((_, reason), block) in cases.iter().zip(&blocks) {
        assert_eq!(state_of(&store, block), ("conflicting".into(), *reason));
    }
    let (_, genesis_meta) = store.output(&[0; 34]).unwrap().unwrap();
    assert_eq!(json(&genesis_meta)["isSpent"], false);
}

#[test]
fn a_timelocked_output_waits_for_its_time() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let locked = Output::Basic(BasicOutput {
        amount: SUPPLY,
        native_tokens: vec![],
        unlock_conditions: vec![
            UnlockCondition::Address(Address::Ed25519(genesis_address())),
            UnlockCondition::Timelock { unix_time: u32::MAX - 1 },
        ],
        features: vec![],
    });
    let lock = transfer(&genesis_seed(), &[([0u8; 34], genesis_output())], vec![locked.clone()]);
    store.submit_block(&tx_block(&store, &lock)).unwrap();
    store.issue_milestone(None).unwrap();
    let spend = transfer(
        &genesis_seed(),
        &[(ids::output_id(&ids::transaction_id(&lock), 0), locked)],
        vec![basic_output(SUPPLY, recipient(1))],
    );
    let block = store.submit_block(&tx_block(&store, &spend)).unwrap().block_id;
    store.issue_milestone(None).unwrap();
    assert_eq!(state_of(&store, &block), ("conflicting".into(), 6));
}

#[test]
fn a_chain_of_transfers_in_one_milestone_applies_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let mut input = ([0u8; 34], genesis_output());
    let mut seed = genesis_seed();
    let mut blocks = Vec::new();
    for n in 1..=5u8 {
        let next_seed = [n; 32];
        let output = basic_output(SUPPLY, recipient(n));
        let tx = transfer(&seed, &[input.clone()], vec![output.clone()]);
        blocks.push(store.submit_block(&tx_block(&store, &tx)).unwrap().block_id);
        input = (ids::output_id(&ids::transaction_id(&tx), 0), output);
        seed = next_seed;
    }
    let m = store.issue_milestone(None).unwrap();
    assert_eq!(m.included_transactions, 5);
    let mut last_index = -1;
    for block in &blocks {
        let meta = json(&store.block_metadata_json(block).unwrap().unwrap());
        assert_eq!(meta["ledgerInclusionState"], "included");
        let index = meta["whiteFlagIndex"].as_i64().unwrap();
        assert!(index > last_index);
        last_index = index;
    }
    // Outputs created and spent inside the milestone end spent; only the last is unspent.
    let changes = store.utxo_changes(m.index).unwrap().unwrap();
    assert_eq!(changes.created.len(), 5);
    assert_eq!(changes.consumed.len(), 5);
    let (_, meta) = store.output(&changes.created[3]).unwrap().unwrap();
    assert_eq!(json(&meta)["isSpent"], true);
    let (_, meta) = store.output(&input.0).unwrap().unwrap();
    assert_eq!(json(&meta)["isSpent"], false);
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
}

#[test]
fn unknown_parents_are_refused_with_their_position() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let tips = store.select_tips().unwrap();
    let block =
        Block { protocol_version: 2, parents: vec![tips[0], [0xff; 32]], payload: None, nonce: 0 };
    let err = store.submit_block(&ledger_core::codec::encode_block(&block)).err().unwrap();
    assert_eq!(err.code, Code::UnknownParent);
    assert_eq!(err.path, "parents[1]");
    // Milestones are refused over the API while the coordinator runs (D16).
    let milestone_block =
        store.block(&store.milestone_by_index(1).unwrap().unwrap().block_id).unwrap().unwrap();
    assert_eq!(store.submit_block(&milestone_block).err().unwrap().code, Code::MilestoneNotAllowed);
}

#[test]
fn blocks_anchored_too_far_back_should_be_reattached() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let first_milestone_block = store.milestone_by_index(1).unwrap().unwrap().block_id;
    for _ in 0..17 {
        store.issue_milestone(None).unwrap();
    }
    // Milestone 2 referenced milestone 1's block; CMI 18 − 2 > belowMaxDepth 15.
    let old = Block {
        protocol_version: 2,
        parents: vec![[0; 32], first_milestone_block],
        payload: None,
        nonce: 0,
    };
    let id = store.submit_block(&ledger_core::codec::encode_block(&old)).unwrap().block_id;
    let meta = json(&store.block_metadata_json(&id).unwrap().unwrap());
    assert_eq!(meta["shouldReattach"], true);
    assert_eq!(meta["shouldPromote"], false);
    // It is no tip: new blocks get healthy parents only.
    assert!(!store.select_tips().unwrap().contains(&id));
}

#[test]
fn a_follower_applies_the_coordinators_milestones_in_any_arrival_order() {
    let a_dir = tempfile::tempdir().unwrap();
    let b_dir = tempfile::tempdir().unwrap();
    let a = started(a_dir.path());
    let mut follower_options = dev_options(0);
    follower_options.coordinator_enabled = false;
    follower_options.coordinator_seeds = vec![];
    follower_options.trusted_public_keys =
        vec![ledger_core::crypto::public_key(&coordinator_seed())];
    let b = Store::open(b_dir.path(), follower_options).unwrap();

    let genesis = [([0u8; 34], genesis_output())];
    let half = SUPPLY / 2;
    let split = transfer(
        &genesis_seed(),
        &genesis,
        vec![basic_output(half, genesis_address()), basic_output(SUPPLY - half, recipient(1))],
    );
    let rival = transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, recipient(2))]);
    let tagged = Payload::TaggedData(TaggedData { tag: b"x".to_vec(), data: b"y".to_vec() });
    // Three blocks on the same parents, so any arrival order is parent-first.
    let parents = a.select_tips().unwrap();
    let with_parents = |payload: Payload| {
        ledger_core::codec::encode_block(&Block {
            protocol_version: 2,
            parents: parents.clone(),
            payload: Some(payload),
            nonce: 0,
        })
    };
    let mut blocks = vec![
        with_parents(Payload::Transaction(Box::new(split.clone()))),
        with_parents(tagged),
        with_parents(Payload::Transaction(Box::new(rival.clone()))),
    ];
    for block in &blocks {
        a.submit_block(block).unwrap();
    }
    let m2 = a.issue_milestone(None).unwrap();
    // Spend what the winner of the double spend created (white flag decides by block order).
    let later = if a.included_block_id(&ids::transaction_id(&split)).unwrap().is_some() {
        transfer(
            &genesis_seed(),
            &[(
                ids::output_id(&ids::transaction_id(&split), 0),
                basic_output(half, genesis_address()),
            )],
            vec![basic_output(half, recipient(3))],
        )
    } else {
        transfer(
            &[2; 32],
            &[(
                ids::output_id(&ids::transaction_id(&rival), 0),
                basic_output(SUPPLY, recipient(2)),
            )],
            vec![basic_output(SUPPLY, recipient(3))],
        )
    };
    blocks.push(tx_block(&a, &later));
    a.submit_block(&blocks[3]).unwrap();
    let m3 = a.issue_milestone(None).unwrap();

    let b_meta = |_: &Vec<u8>, id: Id32| b.block_metadata_json(&id).unwrap().unwrap();
    let milestone_block =
        |i: u32| a.block(&a.milestone_by_index(i).unwrap().unwrap().block_id).unwrap().unwrap();
    // Before milestone 1 the follower accepts nothing else.
    assert_eq!(b.submit_block(&blocks[1]).err().unwrap().code, Code::NotReady);
    assert!(b.submit_block(&milestone_block(1)).unwrap().stored);
    // A tampered milestone is refused: a flipped signature bit, then a wrong root.
    let mut forged = milestone_block(2);
    let len = forged.len();
    forged[len - 9] ^= 1;
    assert_eq!(b.submit_block(&forged).err().unwrap().code, Code::MilestoneSignatureInvalid);
    // Blocks in another order than A saw them (parents first still).
    for i in [1, 2, 0] {
        b.submit_block(&blocks[i]).unwrap();
    }
    let mut early = milestone_block(3);
    assert_eq!(b.submit_block(&early).err().unwrap().code, Code::MilestoneIndexMismatch);
    assert!(b.submit_block(&milestone_block(2)).unwrap().stored);
    b.submit_block(&blocks[3]).unwrap();
    early = milestone_block(3);
    assert!(b.submit_block(&early).unwrap().stored);

    for index in [1, 2, 3] {
        assert_eq!(a.milestone_by_index(index).unwrap(), b.milestone_by_index(index).unwrap());
    }
    for block in &blocks {
        let id = ids::block_id(block);
        assert_eq!(a.block_metadata_json(&id).unwrap(), b.block_metadata_json(&id).unwrap());
    }
    for id in [
        [0u8; 34],
        ids::output_id(&ids::transaction_id(&split), 0),
        ids::output_id(&ids::transaction_id(&rival), 0),
        ids::output_id(&ids::transaction_id(&later), 0),
    ] {
        assert_eq!(a.output(&id).unwrap(), b.output(&id).unwrap());
    }
    assert_eq!(m2.included_transactions, 1);
    assert_eq!(m3.included_transactions, 1);
    // Exactly one of the double spends won, the same one on both nodes.
    let states: Vec<String> = [&blocks[0], &blocks[2]]
        .iter()
        .map(|b| {
            json(&b_meta(b, ids::block_id(b)))["ledgerInclusionState"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(
        states.contains(&"included".to_string()) && states.contains(&"conflicting".to_string()),
        "{states:?}"
    );
}

/// Enough transactions in one milestone for the white flag to prepare them on several
/// threads (signatures, ledger reads): the verdicts are still those of the sequential
/// order, whichever thread prepared a block.
#[test]
fn a_large_milestone_is_judged_in_white_flag_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let owner = [1u8; 32];
    let genesis = [([0u8; 34], genesis_output())];
    let share = SUPPLY / 100;
    let mut outputs: Vec<Output> = (0..99).map(|_| basic_output(share, recipient(1))).collect();
    outputs.push(basic_output(SUPPLY - 99 * share, recipient(1)));
    let fan_out = transfer(&genesis_seed(), &genesis, outputs.clone());
    store.submit_block(&tx_block(&store, &fan_out)).unwrap();
    store.issue_milestone(None).unwrap();
    let fanned =
        |i: usize| (ids::output_id(&ids::transaction_id(&fan_out), i as u16), outputs[i].clone());

    // One chain of blocks, each on the one before, so that the white-flag order is the
    // order of submission.
    let latest = store.status().latest_milestone.unwrap().0;
    let mut previous = store.milestone_by_index(latest).unwrap().unwrap().block_id;
    let mut chain = Vec::new();
    let mut attach = |tx: &TransactionPayload| {
        let mut parents =
            vec![previous, store.milestone_by_index(latest).unwrap().unwrap().block_id];
        parents.sort();
        parents.dedup();
        if parents.len() < 2 {
            parents.push(store.milestone_by_index(latest - 1).unwrap().unwrap().block_id);
            parents.sort();
        }
        let block = Block {
            protocol_version: 2,
            parents,
            payload: Some(Payload::Transaction(Box::new(tx.clone()))),
            nonce: 0,
        };
        previous = store.submit_block(&ledger_core::codec::encode_block(&block)).unwrap().block_id;
        chain.push(previous);
    };
    let first = transfer(&owner, &[fanned(0)], vec![basic_output(share, recipient(2))]);
    attach(&first);
    for i in 1..96 {
        attach(&transfer(&owner, &[fanned(i)], vec![basic_output(share, recipient(2))]));
    }
    // 96: output 0 again; 97: a bad signature; 98: spends what block 0 created; 99: nothing.
    attach(&transfer(&owner, &[fanned(0)], vec![basic_output(share, recipient(3))]));
    let mut forged = transfer(&owner, &[fanned(96)], vec![basic_output(share, recipient(2))]);
    let Unlock::Signature(s) = &mut forged.unlocks[0] else { unreachable!() };
    s.signature[10] ^= 1;
    attach(&forged);
    let created =
        (ids::output_id(&ids::transaction_id(&first), 0), basic_output(share, recipient(2)));
    attach(&transfer(&[2u8; 32], &[created], vec![basic_output(share, recipient(4))]));
    attach(&transfer(
        &owner,
        &[(ids::output_id(&[7u8; 32], 0), basic_output(share, recipient(1)))],
        vec![basic_output(share, recipient(2))],
    ));

    let m = store.issue_milestone(None).unwrap();
    assert_eq!(m.included_transactions, 97);
    for (position, block) in chain.iter().enumerate() {
        let expected = match position {
            96 => (
                "conflicting".to_string(),
                ledger_core::validate::ConflictReason::InputSpentInThisMilestone.code() as i64,
            ),
            97 => (
                "conflicting".to_string(),
                ledger_core::validate::ConflictReason::InvalidSignature.code() as i64,
            ),
            99 => (
                "conflicting".to_string(),
                ledger_core::validate::ConflictReason::InputNotFound.code() as i64,
            ),
            _ => ("included".to_string(), 0),
        };
        assert_eq!(state_of(&store, block), expected, "block {position}");
    }
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);
}
