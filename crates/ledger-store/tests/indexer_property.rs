//! The indexer against a brute-force scan (style §8, indexer.md §2–§3): random ledgers —
//! outputs of all four kinds with random unlock conditions, features and native tokens,
//! random spends over many bookings, chains continued and destroyed, outputs created and
//! consumed in the same booking — and for each, random queries on every route with random
//! filter combinations, paged with random page sizes: every page holds exactly what a scan
//! of the unspent outputs gives, in the same order, and the cursor names the first item of
//! the next page. Also the chain lookups, the full index check, and a rebuild after the
//! indexer was switched off.
//!
//! The oracle below reads the outputs themselves (the model of this test), not the index's
//! own field extraction.

mod common;

use common::*;
use ledger_core::ids;
use ledger_core::model::*;
use ledger_core::Code;
use ledger_store::{
    ChainId, OutputFilter, OutputKind, OutputQuery, OutputsOf, SortKey, Store, SyntheticChanges,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// The unspent outputs as the test knows them: output, created time.
type Model = HashMap<OutputId, (Output, u32)>;

struct Pools {
    addresses: Vec<Address>,
    tags: Vec<Vec<u8>>,
    times: Vec<u32>,
}

fn pools() -> Pools {
    let mut addresses: Vec<Address> = (1..=5u8).map(|n| Address::Ed25519([n; 32])).collect();
    addresses.extend((1..=3u8).map(|n| Address::Alias([0x80 + n; 32])));
    addresses.extend((1..=2u8).map(|n| Address::Nft([0xc0 + n; 32])));
    Pools {
        addresses,
        tags: vec![b"a".to_vec(), b"tag-b".to_vec(), vec![0xff; 64]],
        times: vec![100, 200, 300, 400],
    }
}

impl Pools {
    fn address(&self, rng: &mut StdRng) -> Address {
        *self.addresses.choose(rng).unwrap()
    }
    fn alias_address(&self, rng: &mut StdRng) -> Address {
        *self
            .addresses
            .iter()
            .filter(|a| matches!(a, Address::Alias(_)))
            .collect::<Vec<_>>()
            .choose(rng)
            .copied()
            .unwrap()
    }
    fn time(&self, rng: &mut StdRng) -> u32 {
        *self.times.choose(rng).unwrap()
    }
    fn tag(&self, rng: &mut StdRng) -> Vec<u8> {
        self.tags.choose(rng).unwrap().clone()
    }
}

fn native_tokens(rng: &mut StdRng) -> Vec<NativeToken> {
    let n = if rng.gen_bool(0.3) { rng.gen_range(1..=3) } else { 0 };
    (0..n).map(|i| NativeToken { id: [i as u8 + 1; 38], amount: [1; 32] }).collect()
}

/// Address-carrying unlock conditions of basic and NFT outputs.
fn owner_conditions(p: &Pools, rng: &mut StdRng) -> Vec<UnlockCondition> {
    let mut c = vec![UnlockCondition::Address(p.address(rng))];
    if rng.gen_bool(0.3) {
        c.push(UnlockCondition::StorageDepositReturn { return_address: p.address(rng), amount: 1 });
    }
    if rng.gen_bool(0.3) {
        c.push(UnlockCondition::Timelock { unix_time: p.time(rng) });
    }
    if rng.gen_bool(0.3) {
        c.push(UnlockCondition::Expiration {
            return_address: p.address(rng),
            unix_time: p.time(rng),
        });
    }
    c
}

fn mutable_features(p: &Pools, rng: &mut StdRng, tag: bool) -> Vec<Feature> {
    let mut f = Vec::new();
    if rng.gen_bool(0.4) {
        f.push(Feature::Sender(p.address(rng)));
    }
    if rng.gen_bool(0.2) {
        f.push(Feature::Metadata(vec![1, 2, 3]));
    }
    if tag && rng.gen_bool(0.4) {
        f.push(Feature::Tag(p.tag(rng)));
    }
    f
}

fn issuer(p: &Pools, rng: &mut StdRng) -> Vec<Feature> {
    if rng.gen_bool(0.4) {
        vec![Feature::Issuer(p.address(rng))]
    } else {
        vec![]
    }
}

/// A random output of a random kind; `chain` continues an existing alias/NFT/foundry.
fn random_output(p: &Pools, rng: &mut StdRng, amount: u64, serial: &mut u32) -> Output {
    match rng.gen_range(0..10) {
        0..=4 => Output::Basic(BasicOutput {
            amount,
            native_tokens: native_tokens(rng),
            unlock_conditions: owner_conditions(p, rng),
            features: mutable_features(p, rng, true),
        }),
        5 | 6 => Output::Nft(NftOutput {
            amount,
            native_tokens: native_tokens(rng),
            nft_id: [0; 32],
            unlock_conditions: owner_conditions(p, rng),
            features: mutable_features(p, rng, true),
            immutable_features: issuer(p, rng),
        }),
        7 | 8 => Output::Alias(AliasOutput {
            amount,
            native_tokens: native_tokens(rng),
            alias_id: [0; 32],
            state_index: 0,
            state_metadata: vec![],
            foundry_counter: 0,
            unlock_conditions: vec![
                UnlockCondition::StateControllerAddress(p.address(rng)),
                UnlockCondition::GovernorAddress(p.address(rng)),
            ],
            features: mutable_features(p, rng, false),
            immutable_features: issuer(p, rng),
        }),
        _ => {
            *serial += 1;
            Output::Foundry(FoundryOutput {
                amount,
                native_tokens: native_tokens(rng),
                serial_number: *serial,
                token_scheme: TokenScheme::Simple {
                    minted_tokens: [0; 32],
                    melted_tokens: [0; 32],
                    maximum_supply: [1; 32],
                },
                unlock_conditions: vec![UnlockCondition::ImmutableAliasAddress(
                    p.alias_address(rng),
                )],
                features: vec![],
                immutable_features: vec![],
            })
        }
    }
}

/// The next output of the same chain, with new random fields.
fn continued(previous: &Output, id: &OutputId, p: &Pools, rng: &mut StdRng, amount: u64) -> Output {
    let mut serial = 0;
    match previous {
        Output::Alias(a) => {
            let alias_id =
                if a.alias_id == [0; 32] { ids::alias_id_from_output_id(id) } else { a.alias_id };
            Output::Alias(AliasOutput {
                amount,
                alias_id,
                state_index: a.state_index + 1,
                unlock_conditions: vec![
                    UnlockCondition::StateControllerAddress(p.address(rng)),
                    UnlockCondition::GovernorAddress(p.address(rng)),
                ],
                features: mutable_features(p, rng, false),
                ..a.clone()
            })
        }
        Output::Nft(n) => {
            let nft_id =
                if n.nft_id == [0; 32] { ids::nft_id_from_output_id(id) } else { n.nft_id };
            Output::Nft(NftOutput {
                amount,
                nft_id,
                unlock_conditions: owner_conditions(p, rng),
                features: mutable_features(p, rng, true),
                ..n.clone()
            })
        }
        Output::Foundry(f) => Output::Foundry(FoundryOutput {
            amount,
            native_tokens: native_tokens(rng),
            ..f.clone()
        }),
        _ => random_output(p, rng, amount, &mut serial),
    }
}

fn chain_of(output: &Output, id: &OutputId) -> Option<ChainId> {
    match output {
        Output::Alias(a) => Some(ChainId::Alias(if a.alias_id == [0; 32] {
            ids::alias_id_from_output_id(id)
        } else {
            a.alias_id
        })),
        Output::Nft(n) => Some(ChainId::Nft(if n.nft_id == [0; 32] {
            ids::nft_id_from_output_id(id)
        } else {
            n.nft_id
        })),
        Output::Foundry(f) => match f.unlock_conditions.first() {
            Some(UnlockCondition::ImmutableAliasAddress(Address::Alias(alias))) => {
                Some(ChainId::Foundry(ids::foundry_id(alias, f.serial_number, 0)))
            }
            _ => None,
        },
        _ => None,
    }
}

/// One booking: spend a few unspent outputs, create outputs worth the same, some of them
/// continuing the chains just spent, some spent again at once.
fn random_booking(
    model: &mut Model,
    p: &Pools,
    rng: &mut StdRng,
    timestamp: u32,
    next_tx: &mut u32,
    serial: &mut u32,
) -> SyntheticChanges {
    let mut ids: Vec<OutputId> = model.keys().copied().collect();
    ids.sort();
    ids.shuffle(rng);
    let spent: Vec<OutputId> = ids.into_iter().take(rng.gen_range(1..=4)).collect();
    let mut total: u64 = spent.iter().map(|id| model[id].0.amount()).sum();
    *next_tx += 1;
    let tx = ids::hash_parts(&[&next_tx.to_le_bytes()]);
    let mut created = Vec::new();
    // Continue each spent chain with probability 1/2 (otherwise it is destroyed).
    for id in &spent {
        let previous = &model[id].0;
        if chain_of(previous, id).is_some() && rng.gen_bool(0.5) && total > 1 {
            let amount = total / 2;
            total -= amount;
            created.push(continued(previous, id, p, rng, amount));
        }
    }
    let fresh = rng.gen_range(1..=6);
    for i in 0..fresh {
        let amount = if i == fresh - 1 { total } else { total / 2 };
        total -= amount;
        created.push(random_output(p, rng, amount, serial));
    }
    let created: Vec<(OutputId, Output)> =
        created.into_iter().enumerate().map(|(i, o)| (ids::output_id(&tx, i as u16), o)).collect();
    let mut consumed = spent.clone();
    for id in &spent {
        model.remove(id);
    }
    for (id, output) in &created {
        model.insert(*id, (output.clone(), timestamp));
    }
    // Now and then an output created here is consumed here too (never indexed); its
    // amount goes to another new output so the supply stays whole.
    if created.len() > 1 && rng.gen_bool(0.3) && chain_of(&created[0].1, &created[0].0).is_none() {
        let (gone, output) = &created[0];
        let (heir, _) = &created[1];
        let amount = output.amount();
        model.remove(gone);
        consumed.push(*gone);
        let mut heir_output = model[heir].0.clone();
        let sum = heir_output.amount() + amount;
        set_amount(&mut heir_output, sum);
        model.get_mut(heir).unwrap().0 = heir_output.clone();
        let mut created = created.clone();
        created[1].1 = heir_output;
        return SyntheticChanges { timestamp, created, consumed };
    }
    SyntheticChanges { timestamp, created, consumed }
}

fn set_amount(output: &mut Output, amount: u64) {
    match output {
        Output::Basic(o) => o.amount = amount,
        Output::Alias(o) => o.amount = amount,
        Output::Foundry(o) => o.amount = amount,
        Output::Nft(o) => o.amount = amount,
        Output::Treasury { amount: a } => *a = amount,
    }
}

// ----- the oracle -----------------------------------------------------------------------

fn condition<T>(output: &Output, pick: impl Fn(&UnlockCondition) -> Option<T>) -> Option<T> {
    output.unlock_conditions().iter().find_map(pick)
}

fn brute_force_matches(output: &Output, created: u32, f: &OutputFilter) -> bool {
    let address =
        condition(output, |c| if let UnlockCondition::Address(a) = c { Some(*a) } else { None });
    let sdr = condition(output, |c| {
        if let UnlockCondition::StorageDepositReturn { return_address, .. } = c {
            Some(*return_address)
        } else {
            None
        }
    });
    let timelock = condition(output, |c| {
        if let UnlockCondition::Timelock { unix_time } = c {
            Some(*unix_time)
        } else {
            None
        }
    });
    let expiration = condition(output, |c| {
        if let UnlockCondition::Expiration { return_address, unix_time } = c {
            Some((*return_address, *unix_time))
        } else {
            None
        }
    });
    let state_controller = condition(output, |c| {
        if let UnlockCondition::StateControllerAddress(a) = c {
            Some(*a)
        } else {
            None
        }
    });
    let governor = condition(output, |c| {
        if let UnlockCondition::GovernorAddress(a) = c {
            Some(*a)
        } else {
            None
        }
    });
    let alias_address = condition(output, |c| {
        if let UnlockCondition::ImmutableAliasAddress(a) = c {
            Some(*a)
        } else {
            None
        }
    });
    let sender =
        output
            .features()
            .iter()
            .find_map(|x| if let Feature::Sender(a) = x { Some(*a) } else { None });
    let tag = output.features().iter().find_map(|x| {
        if let Feature::Tag(t) = x {
            Some(t.clone())
        } else {
            None
        }
    });
    let issuer = output.immutable_features().iter().find_map(|x| {
        if let Feature::Issuer(a) = x {
            Some(*a)
        } else {
            None
        }
    });
    let tokens = output.native_tokens().len() as u32;
    let unlockable = |a: &Address| match output {
        Output::Basic(_) | Output::Nft(_) => {
            address == Some(*a) || sdr == Some(*a) || expiration.map(|e| e.0) == Some(*a)
        }
        Output::Alias(_) => state_controller == Some(*a) || governor == Some(*a),
        Output::Foundry(_) => matches!(a, Address::Alias(_)) && alias_address == Some(*a),
        Output::Treasury { .. } => false,
    };
    let eq = |asked: Option<Address>, held: Option<Address>| asked.is_none() || asked == held;
    let has = |asked: Option<bool>, held: bool| asked.is_none() || asked == Some(held);
    let before = |asked: Option<u32>, held: Option<u32>| {
        asked.is_none() || held.is_some_and(|h| h < asked.unwrap())
    };
    let after = |asked: Option<u32>, held: Option<u32>| {
        asked.is_none() || held.is_some_and(|h| h > asked.unwrap())
    };
    f.unlockable_by_address.is_none_or(|a| unlockable(&a))
        && eq(f.address, address)
        && has(f.has_storage_deposit_return, sdr.is_some())
        && eq(f.storage_deposit_return_address, sdr)
        && has(f.has_timelock, timelock.is_some())
        && before(f.timelocked_before, timelock)
        && after(f.timelocked_after, timelock)
        && has(f.has_expiration, expiration.is_some())
        && before(f.expires_before, expiration.map(|e| e.1))
        && after(f.expires_after, expiration.map(|e| e.1))
        && eq(f.expiration_return_address, expiration.map(|e| e.0))
        && eq(f.sender, sender)
        && eq(f.issuer, issuer)
        && (f.tag.is_none() || f.tag == tag)
        && eq(f.state_controller, state_controller)
        && eq(f.governor, governor)
        && eq(f.alias_address, alias_address)
        && has(f.has_native_tokens, tokens > 0)
        && f.min_native_token_count.is_none_or(|m| tokens >= m)
        && f.max_native_token_count.is_none_or(|m| tokens <= m)
        && f.created_before.is_none_or(|b| created < b)
        && f.created_after.is_none_or(|a| created > a)
}

fn brute_force(model: &Model, of: OutputsOf, f: &OutputFilter) -> Vec<SortKey> {
    let mut keys: Vec<SortKey> = model
        .iter()
        .filter(|(_, (o, _))| match of {
            OutputsOf::AllKinds => true,
            OutputsOf::Kind(kind) => o.type_code() == kind as u8,
        })
        .filter(|(_, (o, created))| brute_force_matches(o, *created, f))
        .map(|(id, (_, created))| SortKey::new(*created, id))
        .collect();
    keys.sort();
    keys
}

fn random_filter(
    p: &Pools,
    rng: &mut StdRng,
    of: OutputsOf,
    booking_times: &[u32],
) -> OutputFilter {
    let mut f = OutputFilter::default();
    let any = |rng: &mut StdRng, probability: f64| rng.gen_bool(probability);
    if any(rng, 0.3) {
        f.unlockable_by_address = Some(p.address(rng));
    }
    if any(rng, 0.2) {
        f.has_native_tokens = Some(rng.gen_bool(0.5));
    }
    if any(rng, 0.15) {
        f.min_native_token_count = Some(rng.gen_range(0..=3));
    }
    if any(rng, 0.15) {
        f.max_native_token_count = Some(rng.gen_range(0..=3));
    }
    if any(rng, 0.2) {
        f.created_after = Some(*booking_times.choose(rng).unwrap());
    }
    if any(rng, 0.2) {
        f.created_before = Some(*booking_times.choose(rng).unwrap() + rng.gen_range(0..2));
    }
    if of == OutputsOf::AllKinds {
        return f;
    }
    // Per-kind routes: up to three of the other filters (the route table of indexer.md
    // §2.2 is enforced by the HTTP layer; here every filter is tried on every kind).
    for _ in 0..rng.gen_range(0..=3) {
        let flag = rng.gen_bool(0.5);
        let time = p.time(rng) + rng.gen_range(0..2) * 50;
        let a = p.address(rng);
        match rng.gen_range(0..18) {
            0 => f.address = Some(a),
            1 => f.storage_deposit_return_address = Some(a),
            2 => f.expiration_return_address = Some(a),
            3 => f.sender = Some(a),
            4 => f.issuer = Some(a),
            5 => f.state_controller = Some(a),
            6 => f.governor = Some(a),
            7 => f.alias_address = Some(p.alias_address(rng)),
            8 => f.tag = Some(p.tag(rng)),
            9 => f.has_storage_deposit_return = Some(flag),
            10 => f.has_timelock = Some(flag),
            11 => f.has_expiration = Some(flag),
            12 => f.timelocked_before = Some(time),
            13 => f.timelocked_after = Some(time),
            14 => f.expires_before = Some(time),
            15 => f.expires_after = Some(time),
            16 => f.address = Some(a),
            _ => f.unlockable_by_address = Some(a),
        }
    }
    f
}

/// Page through the index and compare with the oracle page by page.
fn check_query(
    store: &Store,
    model: &Model,
    of: OutputsOf,
    filter: OutputFilter,
    rng: &mut StdRng,
) {
    let expected = brute_force(model, of, &filter);
    let page_size = if rng.gen_bool(0.3) { 1000 } else { rng.gen_range(1..=7) };
    let mut cursor = None;
    let mut seen = Vec::new();
    loop {
        let page = store
            .indexed_outputs(&OutputQuery { of, filter: filter.clone(), cursor, page_size })
            .unwrap();
        assert_eq!(page.page_size, page_size);
        assert!(page.items.len() <= page_size as usize);
        let start = seen.len();
        let wanted: Vec<OutputId> =
            expected.iter().skip(start).take(page_size as usize).map(|k| k.output_id()).collect();
        assert_eq!(page.items, wanted, "{of:?} {filter:?} page from {start}");
        seen.extend(page.items.iter().copied());
        match page.next {
            Some(next) => {
                assert_eq!(Some(&next), expected.get(seen.len()), "the cursor names the next item");
                cursor = Some(next);
            }
            None => break,
        }
    }
    assert_eq!(seen.len(), expected.len(), "{of:?} {filter:?}");
}

fn check_chains(store: &Store, model: &Model, destroyed: &[ChainId]) {
    for (id, (output, _)) in model {
        if let Some(chain) = chain_of(output, id) {
            assert_eq!(store.chain_output(&chain).unwrap().1, Some(*id), "{chain:?}");
        }
    }
    let live: std::collections::HashSet<ChainId> =
        model.iter().filter_map(|(id, (o, _))| chain_of(o, id)).collect();
    for chain in destroyed.iter().filter(|c| !live.contains(c)) {
        assert_eq!(store.chain_output(chain).unwrap().1, None, "{chain:?} was destroyed");
    }
}

fn run_history(seed: u64, bookings: usize, queries_per_booking: usize) {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 0);
    store.issue_milestone(None).unwrap();
    let rng = &mut StdRng::seed_from_u64(seed);
    let p = pools();
    let mut model: Model = HashMap::from([([0u8; 34], (genesis_output(), 0))]);
    let mut times = vec![0u32];
    let mut destroyed = Vec::new();
    let (mut next_tx, mut serial) = (0u32, 0u32);
    let kinds = [
        OutputsOf::AllKinds,
        OutputsOf::Kind(OutputKind::Basic),
        OutputsOf::Kind(OutputKind::Alias),
        OutputsOf::Kind(OutputKind::Foundry),
        OutputsOf::Kind(OutputKind::Nft),
    ];
    for b in 0..bookings {
        // Several bookings may share a timestamp: the output id orders them.
        let timestamp = 1000 + (b as u32 / 2) * 10;
        let before: Vec<(OutputId, Output)> =
            model.iter().map(|(id, (o, _))| (*id, o.clone())).collect();
        let changes = random_booking(&mut model, &p, rng, timestamp, &mut next_tx, &mut serial);
        destroyed.extend(changes.consumed.iter().filter_map(|id| {
            before.iter().find(|(b, _)| b == id).and_then(|(id, o)| chain_of(o, id))
        }));
        times.push(timestamp);
        store.book_synthetic(changes).unwrap();
        for _ in 0..queries_per_booking {
            let of = *kinds.choose(rng).unwrap();
            let filter = random_filter(&p, rng, of, &times);
            check_query(&store, &model, of, filter, rng);
        }
    }
    let total: u128 = model.values().map(|(o, _)| o.amount() as u128).sum();
    assert_eq!(total, SUPPLY as u128);
    check_chains(&store, &model, &destroyed);
    store.verify_index().unwrap();
    // Every kind alone and all together, without filters, page by page.
    for of in kinds {
        check_query(&store, &model, of, OutputFilter::default(), rng);
    }

    // Switched off for some bookings, then on again: rebuilt from the ledger at start-up.
    drop(store);
    let off = Store::open(
        dir.path(),
        ledger_store::StoreOptions { indexer_enabled: false, ..dev_options(0) },
    )
    .unwrap();
    assert_eq!(
        off.indexed_outputs(&OutputQuery {
            of: OutputsOf::AllKinds,
            filter: OutputFilter::default(),
            cursor: None,
            page_size: 10
        })
        .unwrap_err()
        .code,
        Code::IndexerDisabled
    );
    off.issue_milestone(None).unwrap();
    for b in 0..5 {
        let changes = random_booking(&mut model, &p, rng, 5000 + b, &mut next_tx, &mut serial);
        off.book_synthetic(changes).unwrap();
    }
    drop(off);
    let store = open_dev(dir.path(), 0);
    store.verify_index().unwrap();
    for _ in 0..queries_per_booking * 5 {
        let of = *kinds.choose(rng).unwrap();
        let filter = random_filter(&p, rng, of, &times);
        check_query(&store, &model, of, filter, rng);
    }
}

#[test]
fn every_filter_combination_pages_exactly_like_a_scan_of_the_unspent_outputs() {
    for seed in 1..=4 {
        run_history(seed, 60, 25);
    }
}

#[test]
fn a_long_history_with_few_queries() {
    run_history(99, 400, 2);
}
