//! The indexer through real milestones (transactions checked by white flag) and through
//! start-up: new chains (alias, NFT) and conditions found by every field that can name
//! them, outputs created and spent under one milestone never indexed, the index equal to
//! the ledger after every milestone, the schema version (older migrated and indexed, newer
//! refused), and a rebuild that was cut off done again.

mod common;

use common::*;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::{ChainId, OutputFilter, OutputKind, OutputQuery, OutputsOf, Store};

fn key(n: u8) -> ([u8; 32], Address) {
    let seed = [n; 32];
    (
        seed,
        Address::Ed25519(ledger_core::crypto::ed25519_address(&ledger_core::crypto::public_key(
            &seed,
        ))),
    )
}

fn ids_of(store: &Store, of: OutputsOf, filter: OutputFilter) -> Vec<OutputId> {
    store.indexed_outputs(&OutputQuery { of, filter, cursor: None, page_size: 1000 }).unwrap().items
}

fn started(dir: &std::path::Path) -> Store {
    let store = open_dev(dir, 0);
    store.issue_milestone(None).unwrap();
    store
}

#[test]
fn real_milestones_index_new_chains_and_conditions_and_nothing_spent() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let genesis = Address::Ed25519(genesis_address());
    let (_, owner) = key(1);
    let (_, returns) = key(2);
    let (_, controller) = key(3);
    let (_, governor) = key(4);
    let amount = 1_000_000u64;
    let with_return = Output::Basic(BasicOutput {
        amount,
        native_tokens: vec![],
        unlock_conditions: vec![
            UnlockCondition::Address(owner),
            UnlockCondition::StorageDepositReturn { return_address: returns, amount: 100_000 },
        ],
        features: vec![Feature::Tag(b"indexer".to_vec())],
    });
    let nft = Output::Nft(NftOutput {
        amount,
        native_tokens: vec![],
        nft_id: [0; 32],
        unlock_conditions: vec![UnlockCondition::Address(owner)],
        features: vec![Feature::Sender(genesis)],
        immutable_features: vec![Feature::Issuer(genesis)],
    });
    let alias = Output::Alias(AliasOutput {
        amount,
        native_tokens: vec![],
        alias_id: [0; 32],
        state_index: 0,
        state_metadata: vec![],
        foundry_counter: 0,
        unlock_conditions: vec![
            UnlockCondition::StateControllerAddress(controller),
            UnlockCondition::GovernorAddress(governor),
        ],
        features: vec![],
        immutable_features: vec![],
    });
    let rest = basic_output(SUPPLY - 3 * amount, genesis_address());
    let tx = transfer(
        &genesis_seed(),
        &[([0u8; 34], genesis_output())],
        vec![with_return, nft, alias, rest],
    );
    store.submit_block(&tx_block(&store, &tx)).unwrap();
    let m = store.issue_milestone(None).unwrap();
    assert_eq!(m.included_transactions, 1);
    let tx_id = ids::transaction_id(&tx);
    let out = |i: u16| ids::output_id(&tx_id, i);
    store.verify_index().unwrap();

    let f = OutputFilter::default;
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::AllKinds,
            OutputFilter { unlockable_by_address: Some(owner), ..f() }
        ),
        {
            let mut v = vec![out(0), out(1)];
            v.sort();
            v
        }
    );
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::AllKinds,
            OutputFilter { unlockable_by_address: Some(returns), ..f() }
        ),
        vec![out(0)]
    );
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::Kind(OutputKind::Basic),
            OutputFilter { storage_deposit_return_address: Some(returns), ..f() }
        ),
        vec![out(0)]
    );
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::Kind(OutputKind::Basic),
            OutputFilter { tag: Some(b"indexer".to_vec()), ..f() }
        ),
        vec![out(0)]
    );
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::Kind(OutputKind::Basic),
            OutputFilter { has_storage_deposit_return: Some(false), ..f() }
        ),
        vec![out(3)]
    );
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::Kind(OutputKind::Nft),
            OutputFilter { issuer: Some(genesis), sender: Some(genesis), ..f() }
        ),
        vec![out(1)]
    );
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::Kind(OutputKind::Alias),
            OutputFilter { governor: Some(governor), ..f() }
        ),
        vec![out(2)]
    );
    assert_eq!(
        ids_of(
            &store,
            OutputsOf::AllKinds,
            OutputFilter { unlockable_by_address: Some(controller), ..f() }
        ),
        vec![out(2)]
    );
    assert_eq!(
        store.chain_output(&ChainId::Nft(ids::nft_id_from_output_id(&out(1)))).unwrap(),
        (m.index, Some(out(1)))
    );
    assert_eq!(
        store.chain_output(&ChainId::Alias(ids::alias_id_from_output_id(&out(2)))).unwrap(),
        (m.index, Some(out(2)))
    );
    assert_eq!(
        store.chain_output(&ChainId::Alias(ids::alias_id_from_output_id(&out(1)))).unwrap(),
        (m.index, None)
    );

    // Five hops under one milestone: only the last output is ever indexed.
    let mut input = (out(3), basic_output(SUPPLY - 3 * amount, genesis_address()));
    let mut seed = genesis_seed();
    let mut hops = Vec::new();
    for n in 10..15u8 {
        let (next_seed, next) = key(n);
        let output = Output::Basic(BasicOutput {
            amount: input.1.amount(),
            native_tokens: vec![],
            unlock_conditions: vec![UnlockCondition::Address(next)],
            features: vec![],
        });
        let tx = transfer(&seed, &[input.clone()], vec![output.clone()]);
        store.submit_block(&tx_block(&store, &tx)).unwrap();
        input = (ids::output_id(&ids::transaction_id(&tx), 0), output);
        hops.push((next, input.0));
        seed = next_seed;
    }
    let m = store.issue_milestone(None).unwrap();
    assert_eq!(m.included_transactions, 5);
    store.verify_index().unwrap();
    for (i, (address, id)) in hops.iter().enumerate() {
        let found = ids_of(
            &store,
            OutputsOf::Kind(OutputKind::Basic),
            OutputFilter { address: Some(*address), ..f() },
        );
        assert_eq!(found, if i == hops.len() - 1 { vec![*id] } else { vec![] });
    }
    assert!(ids_of(&store, OutputsOf::AllKinds, f()).iter().all(|id| *id != out(3)));
    let page = store
        .indexed_outputs(&OutputQuery {
            of: OutputsOf::AllKinds,
            filter: f(),
            cursor: None,
            page_size: 2,
        })
        .unwrap();
    assert_eq!(page.ledger_index, m.index);
    assert_eq!(page.items.len(), 2);
    assert!(page.next.is_some());
}

/// The database under the store, opened raw (the store closed), to play an older or newer
/// node or a crash.
fn raw(dir: &std::path::Path) -> rocksdb::DB {
    let families = rocksdb::DB::list_cf(&rocksdb::Options::default(), dir).unwrap();
    rocksdb::DB::open_cf(&rocksdb::Options::default(), dir, families).unwrap()
}

#[test]
fn an_older_layout_is_migrated_and_indexed_and_a_newer_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let genesis = [([0u8; 34], genesis_output())];
    let tx =
        transfer(&genesis_seed(), &genesis, vec![basic_output(SUPPLY, key(7).1.id().to_owned())]);
    store.submit_block(&tx_block(&store, &tx)).unwrap();
    store.issue_milestone(None).unwrap();
    drop(store);

    // As a node before the indexer left it: no schema version, no index.
    {
        let mut db = raw(dir.path());
        let state = db.cf_handle("state").unwrap();
        db.delete_cf(state, b"schema_version").unwrap();
        db.delete_cf(state, b"indexed_ledger").unwrap();
        for family in ["indexer_outputs", "indexer_fields", "indexer_chains"] {
            db.drop_cf(family).unwrap();
        }
    }
    let store = open_dev(dir.path(), 0);
    store.verify_index().unwrap();
    let all = ids_of(&store, OutputsOf::AllKinds, OutputFilter::default());
    assert_eq!(all, vec![ids::output_id(&ids::transaction_id(&tx), 0)]);
    drop(store);

    {
        let db = raw(dir.path());
        db.put_cf(db.cf_handle("state").unwrap(), b"schema_version", 99u32.to_le_bytes()).unwrap();
    }
    let err = Store::open(dir.path(), dev_options(0)).err().unwrap();
    assert_eq!(err.code, Code::StorageVersionUnsupported);
}

#[test]
fn a_rebuild_cut_off_half_way_is_done_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = started(dir.path());
    let genesis = [([0u8; 34], genesis_output())];
    let outputs: Vec<Output> = (0..50u64)
        .map(|i| {
            basic_output(
                if i == 0 { SUPPLY - 49 * 1_000_000 } else { 1_000_000 },
                key(20 + (i % 5) as u8).1.id().to_owned(),
            )
        })
        .collect();
    let tx = transfer(&genesis_seed(), &genesis, outputs);
    store.submit_block(&tx_block(&store, &tx)).unwrap();
    store.issue_milestone(None).unwrap();
    let before = ids_of(&store, OutputsOf::AllKinds, OutputFilter::default());
    assert_eq!(before.len(), 50);
    drop(store);

    // A crash during a rebuild: the marker gone, half of the outputs indexed, a stale key.
    {
        let db = raw(dir.path());
        db.delete_cf(db.cf_handle("state").unwrap(), b"indexed_ledger").unwrap();
        let outputs = db.cf_handle("indexer_outputs").unwrap();
        let keys: Vec<Box<[u8]>> = db
            .iterator_cf(outputs, rocksdb::IteratorMode::Start)
            .map(|item| item.unwrap().0)
            .collect();
        for key in keys.iter().step_by(2) {
            db.delete_cf(outputs, key).unwrap();
        }
        db.put_cf(db.cf_handle("indexer_chains").unwrap(), [4u8; 33], [9u8; 34]).unwrap();
    }
    let store = open_dev(dir.path(), 0);
    store.verify_index().unwrap();
    assert_eq!(ids_of(&store, OutputsOf::AllKinds, OutputFilter::default()), before);
    assert_eq!(store.chain_output(&ChainId::Alias([4; 32])).unwrap().1, None);
}
