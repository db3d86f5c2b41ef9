//! Each conflict reason from hand-built transactions signed with the dev keys, and
//! Example C of wire-format §9.3 (`vectors/worked-examples.json`) passing.

use super::*;
use crate::crypto;
use crate::hash::blake2b256;
use crate::protocol::network_id;
use ConflictReason::*;

const GENESIS_SEED: &str = "ffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71";
const T: u32 = 1_700_000_000;

fn genesis() -> [u8; 32] {
    hex::decode(GENESIS_SEED).unwrap().try_into().unwrap()
}
fn recipient() -> [u8; 32] {
    blake2b256(b"ledger-devnet-recipient")
}
fn ed(seed: &[u8; 32]) -> Address {
    Address::Ed25519(crypto::ed25519_address(&crypto::public_key(seed)))
}
fn oid(tx: u8, index: u16) -> OutputId {
    ids::output_id(&[tx; 32], index)
}
fn token(alias: u8, serial: u32) -> TokenId {
    ids::foundry_id(&[alias; 32], serial, 0)
}
fn n(x: u64) -> U256 {
    let mut out = [0u8; 32];
    out[..8].copy_from_slice(&x.to_le_bytes());
    out
}

fn basic(amount: u64, owner: Address) -> Output {
    Output::Basic(BasicOutput {
        amount,
        native_tokens: vec![],
        unlock_conditions: vec![UnlockCondition::Address(owner)],
        features: vec![],
    })
}
fn with_conditions(mut o: Output, extra: Vec<UnlockCondition>) -> Output {
    if let Output::Basic(b) = &mut o {
        b.unlock_conditions.extend(extra);
        b.unlock_conditions.sort_by_key(|uc| uc.type_code());
    }
    o
}
fn with_tokens(mut o: Output, tokens: Vec<(TokenId, u64)>) -> Output {
    let list: Vec<NativeToken> =
        tokens.into_iter().map(|(id, a)| NativeToken { id, amount: n(a) }).collect();
    match &mut o {
        Output::Basic(b) => b.native_tokens = list,
        Output::Alias(a) => a.native_tokens = list,
        Output::Nft(x) => x.native_tokens = list,
        Output::Foundry(f) => f.native_tokens = list,
        Output::Treasury { .. } => unreachable!(),
    }
    o
}
fn with_sender(mut o: Output, sender: Address) -> Output {
    if let Output::Basic(b) = &mut o {
        b.features.push(Feature::Sender(sender));
    }
    o
}
fn alias(
    amount: u64,
    id: Id32,
    state_index: u32,
    foundry_counter: u32,
    controller: Address,
    governor: Address,
) -> Output {
    Output::Alias(AliasOutput {
        amount,
        native_tokens: vec![],
        alias_id: id,
        state_index,
        state_metadata: vec![],
        foundry_counter,
        unlock_conditions: vec![
            UnlockCondition::StateControllerAddress(controller),
            UnlockCondition::GovernorAddress(governor),
        ],
        features: vec![],
        immutable_features: vec![],
    })
}
fn nft(amount: u64, id: Id32, owner: Address) -> Output {
    Output::Nft(NftOutput {
        amount,
        native_tokens: vec![],
        nft_id: id,
        unlock_conditions: vec![UnlockCondition::Address(owner)],
        features: vec![],
        immutable_features: vec![],
    })
}
fn foundry(
    amount: u64,
    alias: Id32,
    serial: u32,
    minted: u64,
    melted: u64,
    maximum: u64,
) -> Output {
    Output::Foundry(FoundryOutput {
        amount,
        native_tokens: vec![],
        serial_number: serial,
        token_scheme: TokenScheme::Simple {
            minted_tokens: n(minted),
            melted_tokens: n(melted),
            maximum_supply: n(maximum),
        },
        unlock_conditions: vec![UnlockCondition::ImmutableAliasAddress(Address::Alias(alias))],
        features: vec![],
        immutable_features: vec![],
    })
}

/// How each input is unlocked; signatures are made over the real essence hash.
enum U {
    Sig([u8; 32]),
    Ref(u16),
    Alias(u16),
    Nft(u16),
}

fn transaction(
    consumed: &[(OutputId, Output)],
    outputs: Vec<Output>,
    unlocks: Vec<U>,
) -> TransactionPayload {
    let inputs = consumed
        .iter()
        .map(|(id, _)| Input::Utxo {
            transaction_id: id[..32].try_into().unwrap(),
            output_index: u16::from_le_bytes([id[32], id[33]]),
        })
        .collect();
    let commitment = ids::inputs_commitment(&consumed.iter().map(|(_, o)| o).collect::<Vec<_>>());
    let essence = RegularEssence {
        network_id: network_id("ledger-devnet-v2"),
        inputs,
        inputs_commitment: commitment,
        outputs,
        payload: None,
    };
    let hash = ids::essence_hash(&essence);
    let unlocks = unlocks
        .into_iter()
        .map(|u| match u {
            U::Sig(seed) => Unlock::Signature(Ed25519Signature {
                public_key: crypto::public_key(&seed),
                signature: crypto::sign(&seed, &hash),
            }),
            U::Ref(r) => Unlock::Reference(r),
            U::Alias(r) => Unlock::Alias(r),
            U::Nft(r) => Unlock::Nft(r),
        })
        .collect();
    TransactionPayload { essence, unlocks }
}

fn check(
    consumed: &[(OutputId, Output)],
    outputs: Vec<Output>,
    unlocks: Vec<U>,
) -> Result<(), ConflictReason> {
    check_transaction(&transaction(consumed, outputs, unlocks), consumed, T)
}

#[test]
fn example_c_of_the_spec_passes() {
    let block = crate::codec::decode_block(&crate::worked_examples::block("C")).unwrap();
    let Some(Payload::Transaction(tx)) = block.payload else { panic!("a transaction block") };
    let consumed = [([0u8; 34], basic(4_600_000_000_000_000, ed(&genesis())))];
    assert_eq!(check_transaction(&tx, &consumed, T), Ok(()));
    // The same transaction against a different genesis output breaks the commitment.
    let other = [([0u8; 34], basic(4_600_000_000_000_000, ed(&recipient())))];
    assert_eq!(check_transaction(&tx, &other, T), Err(InvalidInputsCommitment));
}

#[test]
fn codes_round_trip() {
    for reason in ConflictReason::ALL {
        assert_eq!(ConflictReason::from_code(reason.code()), Some(reason));
    }
    assert_eq!(InvalidChainStateTransition.code(), 12);
    assert_eq!(SemanticValidationFailed.code(), 255);
    assert_eq!(ConflictReason::from_code(0), None);
}

#[test]
fn amounts_must_balance() {
    let g = ed(&genesis());
    let consumed = [(oid(1, 0), basic(1000, g))];
    assert_eq!(check(&consumed, vec![basic(1000, g)], vec![U::Sig(genesis())]), Ok(()));
    assert_eq!(check(&consumed, vec![basic(999, g)], vec![U::Sig(genesis())]), Err(AmountMismatch));
    assert_eq!(
        check(&consumed, vec![basic(1001, g)], vec![U::Sig(genesis())]),
        Err(AmountMismatch)
    );
}

#[test]
fn signatures_must_match_the_owner_and_verify() {
    let g = ed(&genesis());
    let consumed = [(oid(1, 0), basic(1000, g))];
    assert_eq!(
        check(&consumed, vec![basic(1000, g)], vec![U::Sig(recipient())]),
        Err(InvalidSignature)
    );
    let mut tx = transaction(&consumed, vec![basic(1000, g)], vec![U::Sig(genesis())]);
    let Unlock::Signature(s) = &mut tx.unlocks[0] else { unreachable!() };
    s.signature[5] ^= 1;
    assert_eq!(check_transaction(&tx, &consumed, T), Err(InvalidSignature));
}

#[test]
fn a_bad_signature_before_a_bad_unlock_decides() {
    let g = ed(&genesis());
    let r = ed(&recipient());
    let consumed = [(oid(1, 0), basic(1000, g)), (oid(1, 1), basic(1000, r))];
    let outputs = vec![basic(2000, g)];
    // Input 1 references an unlock that did not unlock its owner: 9 ...
    assert_eq!(
        check(&consumed, outputs.clone(), vec![U::Sig(genesis()), U::Ref(0)]),
        Err(InvalidInputUnlock)
    );
    // ... unless input 0's signature is bad, which comes first: 5.
    let mut tx = transaction(&consumed, outputs, vec![U::Sig(genesis()), U::Ref(0)]);
    let Unlock::Signature(s) = &mut tx.unlocks[0] else { unreachable!() };
    s.signature[0] ^= 1;
    assert_eq!(check_transaction(&tx, &consumed, T), Err(InvalidSignature));
}

#[test]
fn many_signatures_are_verified_together() {
    let seeds: Vec<[u8; 32]> = (1..=6u8).map(|i| [i; 32]).collect();
    let consumed: Vec<(OutputId, Output)> =
        seeds.iter().enumerate().map(|(i, s)| (oid(2, i as u16), basic(100, ed(s)))).collect();
    let unlocks = || seeds.iter().map(|s| U::Sig(*s)).collect::<Vec<_>>();
    assert_eq!(check(&consumed, vec![basic(600, ed(&genesis()))], unlocks()), Ok(()));
    let mut tx = transaction(&consumed, vec![basic(600, ed(&genesis()))], unlocks());
    let Unlock::Signature(s) = &mut tx.unlocks[4] else { unreachable!() };
    s.signature[63] ^= 0x10;
    assert_eq!(check_transaction(&tx, &consumed, T), Err(InvalidSignature));
}

#[test]
fn timelocks_and_expirations_follow_the_milestone_time() {
    let g = ed(&genesis());
    let locked = [(
        oid(1, 0),
        with_conditions(basic(1000, g), vec![UnlockCondition::Timelock { unix_time: T + 1 }]),
    )];
    assert_eq!(
        check(&locked, vec![basic(1000, g)], vec![U::Sig(genesis())]),
        Err(TimelockNotExpired)
    );
    let open = [(
        oid(1, 0),
        with_conditions(basic(1000, g), vec![UnlockCondition::Timelock { unix_time: T }]),
    )];
    assert_eq!(check(&open, vec![basic(1000, g)], vec![U::Sig(genesis())]), Ok(()));

    // Owned by the recipient until T, by the genesis address from T on.
    let expiring = |at: u32| {
        [(
            oid(1, 0),
            with_conditions(
                basic(1000, ed(&recipient())),
                vec![UnlockCondition::Expiration { return_address: g, unix_time: at }],
            ),
        )]
    };
    assert_eq!(check(&expiring(T), vec![basic(1000, g)], vec![U::Sig(genesis())]), Ok(()));
    assert_eq!(
        check(&expiring(T + 1), vec![basic(1000, g)], vec![U::Sig(genesis())]),
        Err(InvalidSignature)
    );
    assert_eq!(check(&expiring(T + 1), vec![basic(1000, g)], vec![U::Sig(recipient())]), Ok(()));
}

#[test]
fn inputs_commitment_must_match() {
    let g = ed(&genesis());
    let consumed = [(oid(1, 0), basic(1000, g))];
    let mut tx = transaction(&consumed, vec![basic(1000, g)], vec![U::Sig(genesis())]);
    tx.essence.inputs_commitment[0] ^= 1;
    assert_eq!(check_transaction(&tx, &consumed, T), Err(InvalidInputsCommitment));
}

#[test]
fn senders_must_be_unlocked() {
    let g = ed(&genesis());
    let consumed = [(oid(1, 0), basic(1000, g))];
    assert_eq!(
        check(&consumed, vec![with_sender(basic(1000, g), g)], vec![U::Sig(genesis())]),
        Ok(())
    );
    let r = ed(&recipient());
    assert_eq!(
        check(&consumed, vec![with_sender(basic(1000, g), r)], vec![U::Sig(genesis())]),
        Err(SenderNotUnlocked)
    );
}

#[test]
fn storage_deposit_returns_must_be_paid() {
    let g = ed(&genesis());
    let r = ed(&recipient());
    let sdr = UnlockCondition::StorageDepositReturn { return_address: g, amount: 50_000 };
    let consumed = [(oid(1, 0), with_conditions(basic(100_000, r), vec![sdr.clone()]))];
    assert_eq!(
        check(&consumed, vec![basic(100_000, r)], vec![U::Sig(recipient())]),
        Err(StorageDepositReturnUnfulfilled)
    );
    assert_eq!(
        check(&consumed, vec![basic(50_000, r), basic(50_000, g)], vec![U::Sig(recipient())]),
        Ok(())
    );
    // A return output with anything more than an Address condition does not count.
    let tagged = with_sender(basic(50_000, g), r);
    assert_eq!(
        check(&consumed, vec![basic(50_000, r), tagged], vec![U::Sig(recipient())]),
        Err(StorageDepositReturnUnfulfilled)
    );
    // The return address taking the expired output owes nothing to itself.
    let expired = [(
        oid(1, 0),
        with_conditions(
            basic(100_000, r),
            vec![sdr, UnlockCondition::Expiration { return_address: g, unix_time: T }],
        ),
    )];
    assert_eq!(check(&expired, vec![basic(100_000, g)], vec![U::Sig(genesis())]), Ok(()));
}

#[test]
fn native_tokens_cannot_appear_without_their_foundry() {
    let g = ed(&genesis());
    let t = token(7, 1);
    let consumed = [(oid(1, 0), with_tokens(basic(1000, g), vec![(t, 50)]))];
    let unlocks = || vec![U::Sig(genesis())];
    assert_eq!(
        check(&consumed, vec![with_tokens(basic(1000, g), vec![(t, 50)])], unlocks()),
        Ok(())
    );
    assert_eq!(
        check(&consumed, vec![with_tokens(basic(1000, g), vec![(t, 20)])], unlocks()),
        Ok(()),
        "burning"
    );
    assert_eq!(
        check(&consumed, vec![with_tokens(basic(1000, g), vec![(t, 51)])], unlocks()),
        Err(InvalidNativeTokens)
    );
    let other = token(7, 2);
    assert_eq!(
        check(&consumed, vec![with_tokens(basic(1000, g), vec![(t, 50), (other, 1)])], unlocks()),
        Err(InvalidNativeTokens)
    );
}

#[test]
fn too_many_distinct_tokens_in_one_transaction() {
    let g = ed(&genesis());
    let consumed: Vec<(OutputId, Output)> = (0..2u16)
        .map(|k| {
            (
                oid(3, k),
                with_tokens(
                    basic(1000, g),
                    (0..40).map(|s| (token(9, k as u32 * 100 + s), 1)).collect(),
                ),
            )
        })
        .collect();
    let tokens: Vec<(TokenId, u64)> =
        consumed.iter().flat_map(|(_, o)| o.native_tokens().iter().map(|t| (t.id, 1))).collect();
    let outputs = vec![
        with_tokens(basic(1000, g), tokens[..40].to_vec()),
        with_tokens(basic(1000, g), tokens[40..].to_vec()),
    ];
    assert_eq!(
        check(&consumed, outputs, vec![U::Sig(genesis()), U::Ref(0)]),
        Err(InvalidNativeTokens)
    );
}

#[test]
fn alias_unlocks_need_a_state_transition() {
    let g = ed(&genesis());
    let a = [0xaa; 32];
    let consumed =
        [(oid(1, 0), alias(1000, a, 5, 0, g, g)), (oid(1, 1), basic(500, Address::Alias(a)))];
    let unlocks = || vec![U::Sig(genesis()), U::Alias(0)];
    // State transition: the alias unlocks what its address owns.
    assert_eq!(
        check(&consumed, vec![alias(1000, a, 6, 0, g, g), basic(500, g)], unlocks()),
        Ok(())
    );
    // Governance transition and destruction do not.
    assert_eq!(
        check(&consumed, vec![alias(1000, a, 5, 0, g, g), basic(500, g)], unlocks()),
        Err(InvalidInputUnlock)
    );
    assert_eq!(check(&consumed, vec![basic(1500, g)], unlocks()), Err(InvalidInputUnlock));
    // A signature cannot unlock an alias-owned output.
    assert_eq!(
        check(
            &consumed,
            vec![alias(1000, a, 6, 0, g, g), basic(500, g)],
            vec![U::Sig(genesis()), U::Ref(0)]
        ),
        Err(InvalidInputUnlock)
    );
    // Skipping a state index is a chain error, found while resolving the alias's owner.
    assert_eq!(
        check(&consumed, vec![alias(1000, a, 7, 0, g, g), basic(500, g)], unlocks()),
        Err(InvalidChainStateTransition)
    );
}

#[test]
fn alias_controllers_sign_their_transitions() {
    let g = ed(&genesis());
    let r = ed(&recipient());
    let a = [0xab; 32];
    // Controlled by the recipient, governed by genesis.
    let consumed = [(oid(1, 0), alias(1000, a, 0, 0, r, g))];
    assert_eq!(
        check(&consumed, vec![alias(1000, a, 1, 0, r, g)], vec![U::Sig(recipient())]),
        Ok(())
    );
    assert_eq!(
        check(&consumed, vec![alias(1000, a, 1, 0, r, g)], vec![U::Sig(genesis())]),
        Err(InvalidSignature)
    );
    // Governance: the governor may hand the state controller to someone else ...
    assert_eq!(check(&consumed, vec![alias(1000, a, 0, 0, g, g)], vec![U::Sig(genesis())]), Ok(()));
    // ... but not move funds,
    assert_eq!(
        check(&consumed, vec![alias(900, a, 0, 0, r, g), basic(100, g)], vec![U::Sig(genesis())]),
        Err(InvalidChainStateTransition)
    );
    // and the state controller cannot change the controllers.
    assert_eq!(
        check(&consumed, vec![alias(1000, a, 1, 0, g, g)], vec![U::Sig(recipient())]),
        Err(InvalidChainStateTransition)
    );
    // Destruction is the governor's.
    assert_eq!(check(&consumed, vec![basic(1000, g)], vec![U::Sig(genesis())]), Ok(()));
    assert_eq!(
        check(&consumed, vec![basic(1000, g)], vec![U::Sig(recipient())]),
        Err(InvalidSignature)
    );
}

#[test]
fn a_new_alias_gets_its_implicit_id() {
    let g = ed(&genesis());
    let created_at = oid(4, 0);
    let implicit = ids::alias_id_from_output_id(&created_at);
    let consumed = [
        (created_at, alias(1000, [0; 32], 0, 0, g, g)),
        (oid(4, 1), basic(500, Address::Alias(implicit))),
    ];
    let outputs = vec![alias(1000, implicit, 1, 0, g, g), basic(500, g)];
    assert_eq!(check(&consumed, outputs, vec![U::Sig(genesis()), U::Alias(0)]), Ok(()));
    // Continuing a chain that is not consumed is invalid.
    let fresh = [(oid(4, 1), basic(1000, g))];
    assert_eq!(
        check(&fresh, vec![alias(1000, [0x42; 32], 1, 0, g, g)], vec![U::Sig(genesis())]),
        Err(InvalidChainStateTransition)
    );
}

#[test]
fn nft_unlocks_and_transitions() {
    let g = ed(&genesis());
    let r = ed(&recipient());
    let id = [0xcd; 32];
    let consumed = [(oid(1, 0), nft(1000, id, g)), (oid(1, 1), basic(500, Address::Nft(id)))];
    let unlocks = || vec![U::Sig(genesis()), U::Nft(0)];
    assert_eq!(check(&consumed, vec![nft(1000, id, r), basic(500, g)], unlocks()), Ok(()));
    // An NFT unlocks its address even when it is burnt.
    assert_eq!(check(&consumed, vec![basic(1500, g)], unlocks()), Ok(()));
    assert_eq!(
        check(&consumed, vec![basic(1500, g)], vec![U::Sig(genesis()), U::Alias(0)]),
        Err(InvalidInputUnlock)
    );
    // Immutable features never change.
    let mut changed = nft(1000, id, r);
    if let Output::Nft(x) = &mut changed {
        x.immutable_features.push(Feature::Metadata(vec![1]));
    }
    assert_eq!(
        check(&consumed, vec![changed, basic(500, g)], unlocks()),
        Err(InvalidChainStateTransition)
    );
}

#[test]
fn new_chains_need_their_issuer_unlocked() {
    let g = ed(&genesis());
    let r = ed(&recipient());
    let consumed = [(oid(1, 0), basic(1000, g))];
    let minted = |issuer: Address| {
        let mut o = nft(1000, [0; 32], r);
        if let Output::Nft(x) = &mut o {
            x.immutable_features.push(Feature::Issuer(issuer));
        }
        o
    };
    assert_eq!(check(&consumed, vec![minted(g)], vec![U::Sig(genesis())]), Ok(()));
    assert_eq!(
        check(&consumed, vec![minted(r)], vec![U::Sig(genesis())]),
        Err(InvalidChainStateTransition)
    );
}

#[test]
fn foundries_mint_melt_and_go() {
    let g = ed(&genesis());
    let a = [0xee; 32];
    let t = token(0xee, 1);
    // Create foundry 1 and mint 100 of its token into a basic output.
    let consumed = [(oid(1, 0), alias(10_000, a, 3, 0, g, g))];
    let created = |counter: u32, serial: u32, minted: u64, out_tokens: u64| {
        vec![
            alias(5_000, a, 4, counter, g, g),
            foundry(3_000, a, serial, minted, 0, 1000),
            with_tokens(basic(2_000, g), vec![(token(0xee, serial), out_tokens)]),
        ]
    };
    assert_eq!(check(&consumed, created(1, 1, 100, 100), vec![U::Sig(genesis())]), Ok(()));
    assert_eq!(
        check(&consumed, created(1, 1, 100, 99), vec![U::Sig(genesis())]),
        Err(InvalidChainStateTransition)
    );
    assert_eq!(
        check(&consumed, created(0, 1, 100, 100), vec![U::Sig(genesis())]),
        Err(InvalidChainStateTransition)
    );
    assert_eq!(
        check(&consumed, created(2, 1, 100, 100), vec![U::Sig(genesis())]),
        Err(InvalidChainStateTransition)
    );
    assert_eq!(
        check(&consumed, created(1, 2, 100, 100), vec![U::Sig(genesis())]),
        Err(InvalidChainStateTransition)
    );

    // Melt 30 of 100 and burn 10 more through the alias.
    let live = [
        (oid(2, 0), alias(5_000, a, 4, 1, g, g)),
        (oid(2, 1), foundry(3_000, a, 1, 100, 0, 1000)),
        (oid(2, 2), with_tokens(basic(2_000, g), vec![(t, 100)])),
    ];
    let unlocks = || vec![U::Sig(genesis()), U::Alias(0), U::Ref(0)];
    let melted = |melted: u64, left: u64| {
        vec![
            alias(5_000, a, 5, 1, g, g),
            foundry(3_000, a, 1, 100, melted, 1000),
            with_tokens(basic(2_000, g), vec![(t, left)]),
        ]
    };
    assert_eq!(check(&live, melted(30, 60), unlocks()), Ok(()));
    assert_eq!(check(&live, melted(50, 60), unlocks()), Err(InvalidChainStateTransition));
    // A foundry transition without its alias state-transitioned cannot be unlocked.
    let governed = vec![
        alias(5_000, a, 4, 1, g, g),
        foundry(3_000, a, 1, 100, 30, 1000),
        with_tokens(basic(2_000, g), vec![(t, 70)]),
    ];
    assert_eq!(check(&live, governed, unlocks()), Err(InvalidInputUnlock));

    // Destruction takes every circulating token with it.
    let destroyed = |left: Option<u64>| {
        let rest = match left {
            Some(x) => with_tokens(basic(5_000, g), vec![(t, x)]),
            None => basic(5_000, g),
        };
        vec![alias(5_000, a, 5, 1, g, g), rest]
    };
    assert_eq!(check(&live, destroyed(None), unlocks()), Ok(()));
    assert_eq!(check(&live, destroyed(Some(1)), unlocks()), Err(InvalidChainStateTransition));
}

#[test]
fn inconsistent_arguments_are_other_failures() {
    let g = ed(&genesis());
    let consumed = [(oid(1, 0), basic(1000, g))];
    let tx = transaction(&consumed, vec![basic(1000, g)], vec![U::Sig(genesis())]);
    assert_eq!(check_transaction(&tx, &[], T), Err(SemanticValidationFailed));
    let elsewhere = [(oid(9, 0), basic(1000, g))];
    assert_eq!(check_transaction(&tx, &elsewhere, T), Err(SemanticValidationFailed));
}

#[test]
fn signatures_checked_ahead_give_the_same_verdicts() {
    let g = ed(&genesis());
    let r = ed(&recipient());
    let both = [(oid(1, 0), basic(1000, g)), (oid(1, 1), basic(1000, r))];
    let bad = |mut tx: TransactionPayload, unlock: usize| {
        let Unlock::Signature(s) = &mut tx.unlocks[unlock] else { unreachable!() };
        s.signature[7] ^= 1;
        tx
    };
    let cases = [
        (transaction(&both[..1], vec![basic(1000, g)], vec![U::Sig(genesis())]), &both[..1]),
        (
            bad(transaction(&both[..1], vec![basic(1000, g)], vec![U::Sig(genesis())]), 0),
            &both[..1],
        ),
        (transaction(&both[..1], vec![basic(999, g)], vec![U::Sig(genesis())]), &both[..1]),
        (transaction(&both, vec![basic(2000, g)], vec![U::Sig(genesis()), U::Ref(0)]), &both[..]),
        (
            bad(transaction(&both, vec![basic(2000, g)], vec![U::Sig(genesis()), U::Ref(0)]), 0),
            &both[..],
        ),
        (
            transaction(&both, vec![basic(2000, g)], vec![U::Sig(genesis()), U::Sig(recipient())]),
            &both[..],
        ),
        (
            bad(
                transaction(
                    &both,
                    vec![basic(2001, g)],
                    vec![U::Sig(genesis()), U::Sig(recipient())],
                ),
                1,
            ),
            &both[..],
        ),
    ];
    for (i, (tx, consumed)) in cases.iter().enumerate() {
        let pre = Prechecked::of(tx);
        assert_eq!(pre.essence_hash, ids::essence_hash(&tx.essence), "case {i}");
        assert_eq!(
            check_prechecked_transaction(tx, consumed, T, &pre),
            check_transaction(tx, consumed, T),
            "case {i}"
        );
    }
    assert!(Prechecked::of(&cases[0].0).signatures_verified);
    assert!(!Prechecked::of(&cases[1].0).signatures_verified);
    assert_eq!(
        check_prechecked_transaction(&cases[1].0, cases[1].1, T, &Prechecked::of(&cases[1].0)),
        Err(InvalidSignature)
    );
}
