//! The Stardust objects as plain Rust values (wire-format.md §5–§8).
//!
//! The model can represent some objects that the rules forbid (a treasury input inside an
//! essence, a milestone payload inside a transaction, unsorted lists, …): decoding reads
//! what is well-formed on the wire, and `validate` decides what is allowed where. That
//! keeps every rule in one place with one reason code.

/// 32-byte identifiers: block, transaction, milestone, alias and NFT ids, hashes.
pub type Id32 = [u8; 32];
/// Output id: transaction id ‖ u16 LE output index.
pub type OutputId = [u8; 34];
/// Foundry id = native token id: alias address (33) ‖ serial u32 LE ‖ token scheme type.
pub type TokenId = [u8; 38];
/// Unsigned 256-bit integer, little-endian (byte 0 is least significant), as on the wire.
pub type U256 = [u8; 32];

pub const PROTOCOL_VERSION: u8 = 2;
pub const MAX_BLOCK_LENGTH: usize = 32768;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub protocol_version: u8,
    pub parents: Vec<Id32>,
    pub payload: Option<Payload>,
    pub nonce: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// Type 4; only allowed inside a Receipt milestone option.
    TreasuryTransaction(TreasuryTransaction),
    /// Type 5.
    TaggedData(TaggedData),
    /// Type 6.
    Transaction(Box<TransactionPayload>),
    /// Type 7.
    Milestone(Box<MilestonePayload>),
}

impl Payload {
    /// The u32 type codes a payload starts with (wire-format §6).
    pub const TREASURY_TRANSACTION: u32 = 4;
    pub const TAGGED_DATA: u32 = 5;
    pub const TRANSACTION: u32 = 6;
    pub const MILESTONE: u32 = 7;

    pub fn type_code(&self) -> u32 {
        match self {
            Payload::TreasuryTransaction(_) => Payload::TREASURY_TRANSACTION,
            Payload::TaggedData(_) => Payload::TAGGED_DATA,
            Payload::Transaction(_) => Payload::TRANSACTION,
            Payload::Milestone(_) => Payload::MILESTONE,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TaggedData {
    pub tag: Vec<u8>,
    pub data: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransactionPayload {
    pub essence: RegularEssence,
    pub unlocks: Vec<Unlock>,
}

/// Transaction essence type 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegularEssence {
    pub network_id: u64,
    pub inputs: Vec<Input>,
    pub inputs_commitment: Id32,
    pub outputs: Vec<Output>,
    pub payload: Option<Payload>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Input {
    /// Type 0.
    Utxo { transaction_id: Id32, output_index: u16 },
    /// Type 1; only inside a treasury transaction.
    Treasury { milestone_id: Id32 },
}

/// Addresses are 33 bytes on the wire: kind byte ‖ 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Address {
    /// Kind 0: BLAKE2b-256 of the Ed25519 public key.
    Ed25519(Id32),
    /// Kind 8.
    Alias(Id32),
    /// Kind 16.
    Nft(Id32),
}

impl Address {
    pub fn kind(&self) -> u8 {
        match self {
            Address::Ed25519(_) => 0,
            Address::Alias(_) => 8,
            Address::Nft(_) => 16,
        }
    }
    pub fn id(&self) -> &Id32 {
        match self {
            Address::Ed25519(id) | Address::Alias(id) | Address::Nft(id) => id,
        }
    }
    pub fn to_bytes(&self) -> [u8; 33] {
        let mut out = [0u8; 33];
        out[0] = self.kind();
        out[1..].copy_from_slice(self.id());
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeToken {
    pub id: TokenId,
    pub amount: U256,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenScheme {
    /// Type 0.
    Simple { minted_tokens: U256, melted_tokens: U256, maximum_supply: U256 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnlockCondition {
    /// 0
    Address(Address),
    /// 1
    StorageDepositReturn { return_address: Address, amount: u64 },
    /// 2
    Timelock { unix_time: u32 },
    /// 3
    Expiration { return_address: Address, unix_time: u32 },
    /// 4
    StateControllerAddress(Address),
    /// 5
    GovernorAddress(Address),
    /// 6 (must hold an alias address; the rule lives in validate)
    ImmutableAliasAddress(Address),
}

impl UnlockCondition {
    pub fn type_code(&self) -> u8 {
        match self {
            UnlockCondition::Address(_) => 0,
            UnlockCondition::StorageDepositReturn { .. } => 1,
            UnlockCondition::Timelock { .. } => 2,
            UnlockCondition::Expiration { .. } => 3,
            UnlockCondition::StateControllerAddress(_) => 4,
            UnlockCondition::GovernorAddress(_) => 5,
            UnlockCondition::ImmutableAliasAddress(_) => 6,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feature {
    /// 0
    Sender(Address),
    /// 1
    Issuer(Address),
    /// 2
    Metadata(Vec<u8>),
    /// 3
    Tag(Vec<u8>),
}

impl Feature {
    pub fn type_code(&self) -> u8 {
        match self {
            Feature::Sender(_) => 0,
            Feature::Issuer(_) => 1,
            Feature::Metadata(_) => 2,
            Feature::Tag(_) => 3,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// 2; only inside a treasury transaction.
    Treasury { amount: u64 },
    /// 3
    Basic(BasicOutput),
    /// 4
    Alias(AliasOutput),
    /// 5
    Foundry(FoundryOutput),
    /// 6
    Nft(NftOutput),
}

impl Output {
    pub fn type_code(&self) -> u8 {
        match self {
            Output::Treasury { .. } => 2,
            Output::Basic(_) => 3,
            Output::Alias(_) => 4,
            Output::Foundry(_) => 5,
            Output::Nft(_) => 6,
        }
    }
    pub fn amount(&self) -> u64 {
        match self {
            Output::Treasury { amount } => *amount,
            Output::Basic(o) => o.amount,
            Output::Alias(o) => o.amount,
            Output::Foundry(o) => o.amount,
            Output::Nft(o) => o.amount,
        }
    }
    pub fn native_tokens(&self) -> &[NativeToken] {
        match self {
            Output::Treasury { .. } => &[],
            Output::Basic(o) => &o.native_tokens,
            Output::Alias(o) => &o.native_tokens,
            Output::Foundry(o) => &o.native_tokens,
            Output::Nft(o) => &o.native_tokens,
        }
    }
    pub fn unlock_conditions(&self) -> &[UnlockCondition] {
        match self {
            Output::Treasury { .. } => &[],
            Output::Basic(o) => &o.unlock_conditions,
            Output::Alias(o) => &o.unlock_conditions,
            Output::Foundry(o) => &o.unlock_conditions,
            Output::Nft(o) => &o.unlock_conditions,
        }
    }
    pub fn features(&self) -> &[Feature] {
        match self {
            Output::Treasury { .. } => &[],
            Output::Basic(o) => &o.features,
            Output::Alias(o) => &o.features,
            Output::Foundry(o) => &o.features,
            Output::Nft(o) => &o.features,
        }
    }
    pub fn immutable_features(&self) -> &[Feature] {
        match self {
            Output::Treasury { .. } | Output::Basic(_) => &[],
            Output::Alias(o) => &o.immutable_features,
            Output::Foundry(o) => &o.immutable_features,
            Output::Nft(o) => &o.immutable_features,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicOutput {
    pub amount: u64,
    pub native_tokens: Vec<NativeToken>,
    pub unlock_conditions: Vec<UnlockCondition>,
    pub features: Vec<Feature>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasOutput {
    pub amount: u64,
    pub native_tokens: Vec<NativeToken>,
    pub alias_id: Id32,
    pub state_index: u32,
    pub state_metadata: Vec<u8>,
    pub foundry_counter: u32,
    pub unlock_conditions: Vec<UnlockCondition>,
    pub features: Vec<Feature>,
    pub immutable_features: Vec<Feature>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundryOutput {
    pub amount: u64,
    pub native_tokens: Vec<NativeToken>,
    pub serial_number: u32,
    pub token_scheme: TokenScheme,
    pub unlock_conditions: Vec<UnlockCondition>,
    pub features: Vec<Feature>,
    pub immutable_features: Vec<Feature>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NftOutput {
    pub amount: u64,
    pub native_tokens: Vec<NativeToken>,
    pub nft_id: Id32,
    pub unlock_conditions: Vec<UnlockCondition>,
    pub features: Vec<Feature>,
    pub immutable_features: Vec<Feature>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ed25519Signature {
    pub public_key: [u8; 32],
    pub signature: [u8; 64],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unlock {
    /// 0
    Signature(Ed25519Signature),
    /// 1
    Reference(u16),
    /// 2
    Alias(u16),
    /// 3
    Nft(u16),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MilestonePayload {
    pub index: u32,
    pub timestamp: u32,
    pub protocol_version: u8,
    pub previous_milestone_id: Id32,
    pub parents: Vec<Id32>,
    pub inclusion_merkle_root: Id32,
    pub applied_merkle_root: Id32,
    pub metadata: Vec<u8>,
    pub options: Vec<MilestoneOption>,
    pub signatures: Vec<Ed25519Signature>,
}

// A milestone carries at most one receipt: boxing it would cost every decode an allocation
// and save nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MilestoneOption {
    /// 0
    Receipt(ReceiptOption),
    /// 1
    ProtocolParameters { target_milestone_index: u32, protocol_version: u8, params: Vec<u8> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceiptOption {
    pub migrated_at: u32,
    pub last: bool,
    pub funds: Vec<MigratedFundsEntry>,
    /// Written with a u32 length prefix (Hornet layout, D17).
    pub transaction: TreasuryTransaction,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigratedFundsEntry {
    pub tail_transaction_hash: [u8; 49],
    pub address: Address,
    pub deposit: u64,
}

/// Payload type 4: treasury input (milestone id) → treasury output (amount).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreasuryTransaction {
    pub input: Input,
    pub output: Output,
}
