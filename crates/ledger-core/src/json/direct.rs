//! The direct reader: API JSON text straight to the model in one pass, without a
//! `serde_json::Value` tree, without paths, without a String per key.
//!
//! It takes the plain form every client writes (see `scan.rs`; typed objects with their
//! `type` first, known keys once each) and answers `None` for anything else, valid or not.
//! `mod.rs` then reads the text again with the full reader, which decides and, for invalid
//! input, names the reason and path as it always has. So this file never produces an error
//! and only has to agree with the full reader on what it accepts (checked against it by
//! `tests/json_direct.rs` over the vectors and random mutations of them).

use super::scan::{Cursor, Scan, HEX};
use crate::model::*;

const MAX_PAYLOAD_DEPTH: u8 = 8;

pub fn block(text: &str) -> Option<Block> {
    let mut c = Cursor::new(text);
    let (mut version, mut parents, mut payload, mut nonce) = (None, None, None, None);
    c.object(|c, key| match key {
        b"protocolVersion" => set(&mut version, c.uint_max(255)),
        b"parents" => set(&mut parents, list(c, 255, |c| c.hex_fixed())),
        b"payload" => set(&mut payload, payload_at(c, 1)),
        b"nonce" => set(&mut nonce, nonce_of(c.str()?)),
        _ => None,
    })?;
    c.end()?;
    Some(Block {
        protocol_version: version? as u8,
        parents: parents.unwrap_or_default(),
        payload,
        nonce: nonce.unwrap_or(0),
    })
}

pub fn payload(text: &str) -> Option<Payload> {
    let mut c = Cursor::new(text);
    let p = payload_at(&mut c, 1)?;
    c.end()?;
    Some(p)
}

pub fn output(text: &str) -> Option<Output> {
    let mut c = Cursor::new(text);
    let o = output_at(&mut c)?;
    c.end()?;
    Some(o)
}

/// Fill a field once: a key seen twice goes to the full reader.
fn set<T>(slot: &mut Option<T>, value: Scan<T>) -> Scan<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value?);
    Some(())
}

/// An array of at most `max` items.
fn list<'a, T>(
    c: &mut Cursor<'a>,
    max: usize,
    mut item: impl FnMut(&mut Cursor<'a>) -> Scan<T>,
) -> Scan<Vec<T>> {
    let mut items = Vec::new();
    c.array(|c| {
        items.push(item(c)?);
        Some(())
    })?;
    (items.len() <= max).then_some(items)
}

fn payload_at(c: &mut Cursor, depth: u8) -> Scan<Payload> {
    if depth > MAX_PAYLOAD_DEPTH {
        return None;
    }
    Some(match c.typed(u32::MAX as u64)? {
        4 => Payload::TreasuryTransaction(treasury_rest(c)?),
        5 => {
            let (mut tag, mut data) = (None, None);
            c.members(|c, key| match key {
                b"tag" => set(&mut tag, c.hex_bytes(u8::MAX as usize)),
                b"data" => set(&mut data, c.hex_bytes(usize::MAX)),
                _ => None,
            })?;
            Payload::TaggedData(TaggedData {
                tag: tag.unwrap_or_default(),
                data: data.unwrap_or_default(),
            })
        }
        6 => Payload::Transaction(Box::new(transaction_rest(c, depth)?)),
        7 => Payload::Milestone(Box::new(milestone_rest(c, depth)?)),
        _ => return None,
    })
}

fn transaction_rest(c: &mut Cursor, depth: u8) -> Scan<TransactionPayload> {
    let (mut essence, mut unlocks) = (None, None);
    c.members(|c, key| match key {
        b"essence" => set(&mut essence, essence_at(c, depth)),
        b"unlocks" => set(&mut unlocks, list(c, u16::MAX as usize, unlock_at)),
        _ => None,
    })?;
    Some(TransactionPayload { essence: essence?, unlocks: unlocks? })
}

fn essence_at(c: &mut Cursor, depth: u8) -> Scan<RegularEssence> {
    if c.typed(255)? != 1 {
        return None;
    }
    let (mut network_id, mut inputs, mut commitment, mut outputs, mut payload) =
        (None, None, None, None, None);
    c.members(|c, key| match key {
        b"networkId" => set(&mut network_id, u64_decimal(c)),
        b"inputs" => set(&mut inputs, list(c, u16::MAX as usize, input_at)),
        b"inputsCommitment" => set(&mut commitment, c.hex_fixed()),
        b"outputs" => set(&mut outputs, list(c, u16::MAX as usize, output_at)),
        b"payload" => set(&mut payload, payload_at(c, depth + 1)),
        _ => None,
    })?;
    Some(RegularEssence {
        network_id: network_id?,
        inputs: inputs?,
        inputs_commitment: commitment?,
        outputs: outputs?,
        payload,
    })
}

fn input_at(c: &mut Cursor) -> Scan<Input> {
    let kind = c.typed(255)?;
    let (mut id, mut index) = (None, None);
    c.members(|c, key| match (kind, key) {
        (0, b"transactionId") | (1, b"milestoneId") => set(&mut id, c.hex_fixed()),
        (0, b"transactionOutputIndex") => set(&mut index, c.uint_max(u16::MAX as u64)),
        _ => None,
    })?;
    match kind {
        0 => Some(Input::Utxo { transaction_id: id?, output_index: index? as u16 }),
        1 => Some(Input::Treasury { milestone_id: id? }),
        _ => None,
    }
}

fn unlock_at(c: &mut Cursor) -> Scan<Unlock> {
    let kind = c.typed(255)?;
    let (mut signature, mut reference) = (None, None);
    c.members(|c, key| match (kind, key) {
        (0, b"signature") => set(&mut signature, signature_at(c)),
        (1..=3, b"reference") => set(&mut reference, c.uint_max(u16::MAX as u64)),
        _ => None,
    })?;
    Some(match kind {
        0 => Unlock::Signature(signature?),
        1 => Unlock::Reference(reference? as u16),
        2 => Unlock::Alias(reference? as u16),
        3 => Unlock::Nft(reference? as u16),
        _ => return None,
    })
}

fn signature_at(c: &mut Cursor) -> Scan<Ed25519Signature> {
    if c.typed(255)? != 0 {
        return None;
    }
    let (mut public_key, mut signature) = (None, None);
    c.members(|c, key| match key {
        b"publicKey" => set(&mut public_key, c.hex_fixed()),
        b"signature" => set(&mut signature, c.hex_fixed()),
        _ => None,
    })?;
    Some(Ed25519Signature { public_key: public_key?, signature: signature? })
}

fn address_at(c: &mut Cursor) -> Scan<Address> {
    let kind = c.typed(255)?;
    let mut id = None;
    c.members(|c, key| match (kind, key) {
        (0, b"pubKeyHash") | (8, b"aliasId") | (16, b"nftId") => set(&mut id, c.hex_fixed()),
        _ => None,
    })?;
    Some(match kind {
        0 => Address::Ed25519(id?),
        8 => Address::Alias(id?),
        16 => Address::Nft(id?),
        _ => return None,
    })
}

fn output_at(c: &mut Cursor) -> Scan<Output> {
    let kind = c.typed(255)?;
    if !(2..=6).contains(&kind) {
        return None;
    }
    let mut amount = None;
    let (mut tokens, mut conditions, mut features, mut immutable) = (None, None, None, None);
    let (mut id, mut state_index, mut state_metadata, mut foundry_counter) =
        (None, None, None, None);
    let (mut serial, mut scheme) = (None, None);
    c.members(|c, key| match (kind, key) {
        (_, b"amount") => set(&mut amount, u64_decimal(c)),
        (3..=6, b"nativeTokens") => set(&mut tokens, list(c, 255, native_token_at)),
        (3..=6, b"unlockConditions") => set(&mut conditions, list(c, 255, unlock_condition_at)),
        (3..=6, b"features") => set(&mut features, list(c, 255, feature_at)),
        (4..=6, b"immutableFeatures") => set(&mut immutable, list(c, 255, feature_at)),
        (4, b"aliasId") | (6, b"nftId") => set(&mut id, c.hex_fixed()),
        (4, b"stateIndex") => set(&mut state_index, c.uint_max(u32::MAX as u64)),
        (4, b"stateMetadata") => set(&mut state_metadata, c.hex_bytes(u16::MAX as usize)),
        (4, b"foundryCounter") => set(&mut foundry_counter, c.uint_max(u32::MAX as u64)),
        (5, b"serialNumber") => set(&mut serial, c.uint_max(u32::MAX as u64)),
        (5, b"tokenScheme") => set(&mut scheme, token_scheme_at(c)),
        _ => None,
    })?;
    let amount = amount?;
    let native_tokens = tokens.unwrap_or_default();
    let unlock_conditions = conditions.unwrap_or_default();
    let features = features.unwrap_or_default();
    let immutable_features = immutable.unwrap_or_default();
    Some(match kind {
        2 => Output::Treasury { amount },
        3 => Output::Basic(BasicOutput { amount, native_tokens, unlock_conditions, features }),
        4 => Output::Alias(AliasOutput {
            amount,
            native_tokens,
            alias_id: id?,
            state_index: state_index? as u32,
            state_metadata: state_metadata.unwrap_or_default(),
            foundry_counter: foundry_counter? as u32,
            unlock_conditions,
            features,
            immutable_features,
        }),
        5 => Output::Foundry(FoundryOutput {
            amount,
            native_tokens,
            serial_number: serial? as u32,
            token_scheme: scheme?,
            unlock_conditions,
            features,
            immutable_features,
        }),
        _ => Output::Nft(NftOutput {
            amount,
            native_tokens,
            nft_id: id?,
            unlock_conditions,
            features,
            immutable_features,
        }),
    })
}

fn native_token_at(c: &mut Cursor) -> Scan<NativeToken> {
    let (mut id, mut amount) = (None, None);
    c.object(|c, key| match key {
        b"id" => set(&mut id, c.hex_fixed()),
        b"amount" => set(&mut amount, u256(c.str()?)),
        _ => None,
    })?;
    Some(NativeToken { id: id?, amount: amount? })
}

fn token_scheme_at(c: &mut Cursor) -> Scan<TokenScheme> {
    if c.typed(255)? != 0 {
        return None;
    }
    let (mut minted, mut melted, mut maximum) = (None, None, None);
    c.members(|c, key| match key {
        b"mintedTokens" => set(&mut minted, u256(c.str()?)),
        b"meltedTokens" => set(&mut melted, u256(c.str()?)),
        b"maximumSupply" => set(&mut maximum, u256(c.str()?)),
        _ => None,
    })?;
    Some(TokenScheme::Simple {
        minted_tokens: minted?,
        melted_tokens: melted?,
        maximum_supply: maximum?,
    })
}

fn unlock_condition_at(c: &mut Cursor) -> Scan<UnlockCondition> {
    let kind = c.typed(255)?;
    let (mut address, mut amount, mut unix_time) = (None, None, None);
    c.members(|c, key| match (kind, key) {
        (0 | 4..=6, b"address") | (1 | 3, b"returnAddress") => set(&mut address, address_at(c)),
        // `amount` (Hornet, iota-sdk) or TIP-25's `returnAmount` (D15); not both.
        (1, b"amount" | b"returnAmount") => set(&mut amount, u64_decimal(c)),
        (2 | 3, b"unixTime") => set(&mut unix_time, c.uint_max(u32::MAX as u64)),
        _ => None,
    })?;
    Some(match kind {
        0 => UnlockCondition::Address(address?),
        1 => UnlockCondition::StorageDepositReturn { return_address: address?, amount: amount? },
        2 => UnlockCondition::Timelock { unix_time: unix_time? as u32 },
        3 => UnlockCondition::Expiration { return_address: address?, unix_time: unix_time? as u32 },
        4 => UnlockCondition::StateControllerAddress(address?),
        5 => UnlockCondition::GovernorAddress(address?),
        6 => UnlockCondition::ImmutableAliasAddress(address?),
        _ => return None,
    })
}

fn feature_at(c: &mut Cursor) -> Scan<Feature> {
    let kind = c.typed(255)?;
    let (mut address, mut bytes) = (None, None);
    c.members(|c, key| match (kind, key) {
        (0 | 1, b"address") => set(&mut address, address_at(c)),
        (2, b"data") => set(&mut bytes, c.hex_bytes(u16::MAX as usize)),
        (3, b"tag") => set(&mut bytes, c.hex_bytes(u8::MAX as usize)),
        _ => None,
    })?;
    Some(match kind {
        0 => Feature::Sender(address?),
        1 => Feature::Issuer(address?),
        2 => Feature::Metadata(bytes.unwrap_or_default()),
        3 => Feature::Tag(bytes.unwrap_or_default()),
        _ => return None,
    })
}

fn treasury_rest(c: &mut Cursor) -> Scan<TreasuryTransaction> {
    let (mut input, mut output) = (None, None);
    c.members(|c, key| match key {
        b"input" => set(&mut input, input_at(c)),
        b"output" => set(&mut output, output_at(c)),
        _ => None,
    })?;
    Some(TreasuryTransaction { input: input?, output: output? })
}

fn milestone_rest(c: &mut Cursor, depth: u8) -> Scan<MilestonePayload> {
    let (mut index, mut timestamp, mut version, mut previous) = (None, None, None, None);
    let (mut parents, mut inclusion, mut applied, mut metadata) = (None, None, None, None);
    let (mut options, mut signatures) = (None, None);
    c.members(|c, key| match key {
        b"index" => set(&mut index, c.uint_max(u32::MAX as u64)),
        b"timestamp" => set(&mut timestamp, c.uint_max(u32::MAX as u64)),
        b"protocolVersion" => set(&mut version, c.uint_max(255)),
        b"previousMilestoneId" => set(&mut previous, c.hex_fixed()),
        b"parents" => set(&mut parents, list(c, 255, |c| c.hex_fixed())),
        b"inclusionMerkleRoot" => set(&mut inclusion, c.hex_fixed()),
        b"appliedMerkleRoot" => set(&mut applied, c.hex_fixed()),
        b"metadata" => set(&mut metadata, c.hex_bytes(u16::MAX as usize)),
        b"options" => set(&mut options, list(c, 255, |c| option_at(c, depth))),
        b"signatures" => set(&mut signatures, list(c, 255, signature_at)),
        _ => None,
    })?;
    Some(MilestonePayload {
        index: index? as u32,
        timestamp: timestamp? as u32,
        protocol_version: version? as u8,
        previous_milestone_id: previous?,
        parents: parents?,
        inclusion_merkle_root: inclusion?,
        applied_merkle_root: applied?,
        metadata: metadata.unwrap_or_default(),
        options: options.unwrap_or_default(),
        signatures: signatures.unwrap_or_default(),
    })
}

fn option_at(c: &mut Cursor, depth: u8) -> Scan<MilestoneOption> {
    let kind = c.typed(255)?;
    let (mut migrated_at, mut last, mut funds, mut transaction) = (None, None, None, None);
    let (mut target, mut version, mut params) = (None, None, None);
    c.members(|c, key| match (kind, key) {
        (0, b"migratedAt") => set(&mut migrated_at, c.uint_max(u32::MAX as u64)),
        (0, b"final") => set(&mut last, c.bool()),
        (0, b"funds") => set(&mut funds, list(c, u16::MAX as usize, funds_entry_at)),
        (0, b"transaction") => set(
            &mut transaction,
            match payload_at(c, depth + 1)? {
                Payload::TreasuryTransaction(t) => Some(t),
                _ => None,
            },
        ),
        (1, b"targetMilestoneIndex") => set(&mut target, c.uint_max(u32::MAX as u64)),
        (1, b"protocolVersion") => set(&mut version, c.uint_max(255)),
        (1, b"params") => set(&mut params, c.hex_bytes(u16::MAX as usize)),
        _ => None,
    })?;
    Some(match kind {
        0 => MilestoneOption::Receipt(ReceiptOption {
            migrated_at: migrated_at? as u32,
            last: last?,
            funds: funds?,
            transaction: transaction?,
        }),
        1 => MilestoneOption::ProtocolParameters {
            target_milestone_index: target? as u32,
            protocol_version: version? as u8,
            params: params.unwrap_or_default(),
        },
        _ => return None,
    })
}

fn funds_entry_at(c: &mut Cursor) -> Scan<MigratedFundsEntry> {
    let (mut hash, mut address, mut deposit) = (None, None, None);
    c.object(|c, key| match key {
        b"tailTransactionHash" => set(&mut hash, c.hex_fixed()),
        b"address" => set(&mut address, address_at(c)),
        b"deposit" => set(&mut deposit, u64_decimal(c)),
        _ => None,
    })?;
    Some(MigratedFundsEntry { tail_transaction_hash: hash?, address: address?, deposit: deposit? })
}

// --- scalars ---------------------------------------------------------------------------

const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A u64 as a decimal string, or a JSON integer ≤ 2^53−1 (D15).
fn u64_decimal(c: &mut Cursor) -> Scan<u64> {
    if c.at_string()? {
        decimal(c.str()?)
    } else {
        c.uint_max(MAX_SAFE_INTEGER)
    }
}

/// Decimal digits (leading zeros allowed, as the full reader allows them) that fit u64.
fn decimal(s: &[u8]) -> Scan<u64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add((d - b'0') as u64))
}

/// The nonce (D14): decimal, or `0x` and 1 to 16 hex digits; "" is 0.
fn nonce_of(s: &[u8]) -> Scan<u64> {
    match s.strip_prefix(b"0x") {
        _ if s.is_empty() => Some(0),
        Some(digits) if !digits.is_empty() && digits.len() <= 16 => {
            digits.iter().try_fold(0u64, |n, &d| Some(n << 4 | nibble(d)? as u64))
        }
        Some(_) => None,
        None => decimal(s),
    }
}

/// The value of one hex digit (either case), or None.
fn nibble(d: u8) -> Option<u8> {
    match HEX[d as usize] {
        0xff => None,
        v => Some(v),
    }
}

/// u256: `0x` and 1 to 64 significant big-endian digits (leading zeros, either case),
/// little-endian as on the wire.
fn u256(s: &[u8]) -> Scan<[u8; 32]> {
    let digits = s.strip_prefix(b"0x")?;
    if digits.is_empty() {
        return None;
    }
    let start = digits.iter().position(|&d| d != b'0').unwrap_or(digits.len());
    let significant = &digits[start..];
    if significant.len() > 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, &d) in significant.iter().rev().enumerate() {
        out[i / 2] |= nibble(d)? << (4 * (i % 2));
    }
    // Leading zeros must be digits too, which they are by construction.
    Some(out)
}
