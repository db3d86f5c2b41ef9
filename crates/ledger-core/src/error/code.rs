//! Every reason code of the node, listed once (style.md §1, §9).
//!
//! A code is a stable kebab-case string: `vectors/invalid.jsonl` names the block rules by
//! it, the HTTP layer and the logs show it, and JavaScript reads it as `LedgerError.code`,
//! whose type (`ErrorCode` in `src/core/error-codes.ts`) is rendered from [`Code::ALL`]
//! by `tests/error_codes_ts.rs`. The strings never change; a new code is added here first.
//!
//! "HTTP 400" below means `POST /api/core/v2/blocks` answers 400 with `<path>: <detail>`
//! (the route's pipeline, `src/server/pipeline/submit.ts`); block rules are also what the
//! library's codec and validation functions throw. A code without an HTTP note reaches no
//! route: it ends a start-up, a command or a gossip verdict, or is logged.

use std::fmt;
use std::str::FromStr;

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $text:literal,)*) => {
        /// A reason code: what went wrong, as a stable kebab-case string ([`Code::as_str`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$doc])* $name,)*
        }

        impl Code {
            /// Every code, in the order of this file.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The code as JavaScript, HTTP bodies and the vectors spell it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }
        }
    };
}

codes! {
    // ----- Bytes: the binary codec of blocks, payloads, outputs and snapshots (codec/) -----

    /// Fewer bytes remain than the field being read needs. HTTP 400.
    TruncatedBytes = "truncated-bytes",
    /// Bytes are left after the object that had to take the whole buffer. HTTP 400.
    TrailingBytes = "trailing-bytes",
    /// A count or length prefix declares more elements than the remaining bytes could hold
    /// (checked before anything is allocated). HTTP 400.
    LengthPrefixTooLarge = "length-prefix-too-large",
    /// The block is larger than 32768 bytes. HTTP 400.
    BlockTooLarge = "block-too-large",
    /// A payload does not take exactly its declared length. HTTP 400.
    PayloadLengthMismatch = "payload-length-mismatch",
    /// Payloads nest more than 8 deep. HTTP 400.
    PayloadNestingTooDeep = "payload-nesting-too-deep",
    /// A boolean byte is neither 0 nor 1. HTTP 400.
    InvalidBool = "invalid-bool",
    /// A text field of the protocol parameters is not UTF-8.
    InvalidUtf8 = "invalid-utf8",
    /// An address type byte (or a bech32 address's type) is not 0, 8 or 16. HTTP 400.
    UnknownAddressType = "unknown-address-type",
    /// A transaction essence type is not 1. HTTP 400.
    UnknownEssenceType = "unknown-essence-type",
    /// A feature type is not 0 to 3. HTTP 400.
    UnknownFeatureType = "unknown-feature-type",
    /// An input type is not 0 (UTXO) or 1 (treasury). HTTP 400.
    UnknownInputType = "unknown-input-type",
    /// A milestone option type is not 0 (receipt) or 1 (protocol parameters). HTTP 400.
    UnknownMilestoneOptionType = "unknown-milestone-option-type",
    /// An output type is not 2 to 6. HTTP 400.
    UnknownOutputType = "unknown-output-type",
    /// A payload type is not 4 to 7. HTTP 400.
    UnknownPayloadType = "unknown-payload-type",
    /// A signature type is not 0 (Ed25519). HTTP 400.
    UnknownSignatureType = "unknown-signature-type",
    /// A token scheme type is not 0 (simple). HTTP 400.
    UnknownTokenSchemeType = "unknown-token-scheme-type",
    /// An unlock condition type is not 0 to 6. HTTP 400.
    UnknownUnlockConditionType = "unknown-unlock-condition-type",
    /// An unlock type is not 0 to 3. HTTP 400.
    UnknownUnlockType = "unknown-unlock-type",
    /// A milestone payload was expected (a milestone record or the snapshot's milestone),
    /// another payload type was found.
    UnexpectedPayloadType = "unexpected-payload-type",
    /// A receipt carries something other than a treasury transaction. HTTP 400.
    PayloadNotAllowedInReceipt = "payload-not-allowed-in-receipt",

    // ----- JSON: the API's JSON form of blocks and outputs (json/) -----

    /// The text is not JSON. HTTP 400.
    InvalidJson = "invalid-json",
    /// A value has the wrong JSON type (an object, array, integer or boolean was
    /// expected). HTTP 400.
    InvalidType = "invalid-type",
    /// A required key is absent or null. HTTP 400.
    MissingField = "missing-field",
    /// An integer is negative or larger than its field holds, or a list is longer than
    /// its wire length prefix allows. HTTP 400.
    NumberOutOfRange = "number-out-of-range",
    /// A hex string does not start with `0x`. HTTP 400.
    Missing0x = "missing-0x",
    /// A hex string starts with an upper-case `0X`. HTTP 400.
    Uppercase0XPrefix = "uppercase-0X-prefix",
    /// A hex string has an odd number of digits. HTTP 400.
    OddHexLength = "odd-hex-length",
    /// A hex string contains a character that is not a hex digit. HTTP 400.
    BadHex = "bad-hex",
    /// An id, key or address has the wrong number of bytes. HTTP 400.
    WrongIdLength = "wrong-id-length",
    /// An amount is not a decimal string (or an integer above 2^53−1). HTTP 400.
    AmountNotDecimal = "amount-not-decimal",
    /// An amount does not fit 64 bits. HTTP 400.
    AmountOverflowU64 = "amount-overflow-u64",
    /// The nonce is neither a decimal string nor `0x` and 1 to 16 hex digits. HTTP 400.
    NonceNotDecimal = "nonce-not-decimal",
    /// The nonce does not fit 64 bits. HTTP 400.
    NonceOverflowU64 = "nonce-overflow-u64",
    /// A transaction's network id is not a decimal string. HTTP 400.
    NetworkIdNotDecimal = "network-id-not-decimal",
    /// A native token amount is not a `0x` hex number. HTTP 400.
    NativeTokenAmountNotHex = "native-token-amount-not-hex",
    /// A native token amount does not fit 256 bits. HTTP 400.
    NativeTokenAmountOverUint256 = "native-token-amount-over-uint256",
    /// A foundry's minted, melted or maximum supply is not a `0x` hex number. HTTP 400.
    TokenAmountNotHex = "token-amount-not-hex",
    /// A foundry's minted, melted or maximum supply does not fit 256 bits. HTTP 400.
    TokenAmountOverUint256 = "token-amount-over-uint256",
    /// Not a bech32 address: bad characters, mixed case, too long or a wrong checksum.
    InvalidBech32 = "invalid-bech32",

    // ----- Block rules (validate/block.rs, TIP-24) -----

    /// The block's protocol version is not the network's. HTTP 400.
    WrongProtocolVersion = "wrong-protocol-version",
    /// Fewer parents than a block needs (2; 1 for a block received from a peer). HTTP 400.
    ParentsTooFew = "parents-too-few",
    /// More than 8 parents (or more than 255 in JSON, which the wire cannot carry). HTTP 400.
    ParentsTooMany = "parents-too-many",
    /// Parents are not in ascending byte order. HTTP 400.
    ParentsUnsorted = "parents-unsorted",
    /// A parent is listed twice. HTTP 400.
    ParentsDuplicate = "parents-duplicate",
    /// The proof-of-work score is below the network's minimum. HTTP 400.
    PowScoreTooLow = "pow-score-too-low",
    /// A block carries a treasury transaction, which only a receipt may. HTTP 400.
    PayloadNotAllowedInBlock = "payload-not-allowed-in-block",
    /// A tagged data payload's tag is longer than 64 bytes. HTTP 400.
    TagTooLong = "tag-too-long",

    // ----- Transaction rules (validate/transaction.rs, validate/unlocks.rs, TIP-20) -----

    /// A transaction's network id is not this network's. HTTP 400.
    NetworkIdMismatch = "network-id-mismatch",
    /// A transaction has no inputs. HTTP 400.
    NoInputs = "no-inputs",
    /// A transaction has more than 128 inputs. HTTP 400.
    TooManyInputs = "too-many-inputs",
    /// A transaction spends the same output twice. HTTP 400.
    DuplicateInputs = "duplicate-inputs",
    /// A transaction spends a treasury input. HTTP 400.
    TreasuryInputInTransaction = "treasury-input-in-transaction",
    /// An input's output index is not below 128. HTTP 400.
    InvalidUtxoOutputIndex = "invalid-utxo-output-index",
    /// A transaction has no outputs. HTTP 400.
    NoOutputs = "no-outputs",
    /// A transaction has more than 128 outputs. HTTP 400.
    TooManyOutputs = "too-many-outputs",
    /// A transaction creates a treasury output. HTTP 400.
    TreasuryOutputInTransaction = "treasury-output-in-transaction",
    /// The outputs of a transaction together exceed the token supply. HTTP 400.
    TransactionAmountSumExceedsSupply = "transaction-amount-sum-exceeds-supply",
    /// Two outputs of one transaction carry the same alias, NFT or foundry. HTTP 400.
    DuplicateOutputChain = "duplicate-output-chain",
    /// A transaction embeds a milestone payload. HTTP 400.
    MilestoneInTransaction = "milestone-in-transaction",
    /// A transaction embeds another transaction. HTTP 400.
    TransactionInTransaction = "transaction-in-transaction",
    /// A transaction embeds a treasury transaction. HTTP 400.
    PayloadNotAllowedInTransaction = "payload-not-allowed-in-transaction",
    /// The number of unlocks is not the number of inputs. HTTP 400.
    UnlocksCountMismatch = "unlocks-count-mismatch",
    /// The same signature unlock appears twice (a reference unlock must be used). HTTP 400.
    DuplicateSignatureUnlock = "duplicate-signature-unlock",
    /// A reference unlock does not point at an earlier unlock. HTTP 400.
    InvalidReferenceUnlock = "invalid-reference-unlock",
    /// A reference unlock points at an unlock that is not a signature unlock. HTTP 400.
    ReferenceToNonSignatureUnlock = "reference-to-non-signature-unlock",
    /// An alias unlock does not point at an earlier unlock. HTTP 400.
    InvalidAliasUnlock = "invalid-alias-unlock",
    /// An NFT unlock does not point at an earlier unlock. HTTP 400.
    InvalidNftUnlock = "invalid-nft-unlock",

    // ----- Output rules (validate/output.rs, features.rs, unlock_conditions.rs, TIP-18) -----

    /// An output holds no tokens. HTTP 400.
    OutputAmountZero = "output-amount-zero",
    /// An output holds more than the token supply. HTTP 400.
    OutputAmountExceedsSupply = "output-amount-exceeds-supply",
    /// An output's amount is below its storage deposit (rent). HTTP 400.
    StorageDepositTooLow = "storage-deposit-too-low",
    /// An output (or a transaction's outputs together) carries more than 64 native
    /// tokens, or more than 255 are listed in JSON. HTTP 400.
    TooManyNativeTokens = "too-many-native-tokens",
    /// Native tokens are not in ascending order of token id. HTTP 400.
    NativeTokensUnsorted = "native-tokens-unsorted",
    /// A native token is listed twice in one output. HTTP 400.
    NativeTokensDuplicate = "native-tokens-duplicate",
    /// A native token amount is zero. HTTP 400.
    NativeTokenAmountZero = "native-token-amount-zero",
    /// An alias output's state metadata is longer than 8192 bytes. HTTP 400.
    StateMetadataTooLong = "state-metadata-too-long",
    /// A new alias (zero id) starts with a state index or foundry counter other than 0.
    /// HTTP 400.
    AliasZeroIdNonzeroStateIndex = "alias-zero-id-nonzero-state-index",
    /// An alias is controlled by its own address. HTTP 400.
    SelfControlledAlias = "self-controlled-alias",
    /// An NFT is owned by its own address. HTTP 400.
    SelfDepositNft = "self-deposit-nft",
    /// A foundry's supply figures do not add up (maximum zero, minted below melted,
    /// circulating above maximum). HTTP 400.
    FoundrySupplyInvalid = "foundry-supply-invalid",
    /// An unlock condition type is not allowed in this output type. HTTP 400.
    UnlockConditionNotAllowed = "unlock-condition-not-allowed",
    /// Unlock conditions are not in ascending order of type. HTTP 400.
    UnlockConditionsUnsorted = "unlock-conditions-unsorted",
    /// An unlock condition type appears twice. HTTP 400.
    UnlockConditionsDuplicate = "unlock-conditions-duplicate",
    /// A basic output has no address unlock condition. HTTP 400.
    BasicMissingAddressUnlockCondition = "basic-missing-address-unlock-condition",
    /// An NFT output has no address unlock condition. HTTP 400.
    NftMissingAddressUnlockCondition = "nft-missing-address-unlock-condition",
    /// An alias output lacks its state controller or governor address. HTTP 400.
    AliasMissingControllerUnlockCondition = "alias-missing-controller-unlock-condition",
    /// A foundry output has no immutable alias address unlock condition. HTTP 400.
    FoundryMissingAliasUnlockCondition = "foundry-missing-alias-unlock-condition",
    /// A foundry's immutable alias address is not an alias address. HTTP 400.
    FoundryNotAliasAddress = "foundry-not-alias-address",
    /// A storage deposit return amount is below the minimum deposit. HTTP 400.
    StorageDepositReturnBelowMinimum = "storage-deposit-return-below-minimum",
    /// A storage deposit return amount exceeds the output's amount. HTTP 400.
    StorageDepositReturnExceedsAmount = "storage-deposit-return-exceeds-amount",
    /// A timelock unlock condition has time 0. HTTP 400.
    TimelockZero = "timelock-zero",
    /// An expiration unlock condition has time 0. HTTP 400.
    ExpirationZero = "expiration-zero",
    /// A feature type is not allowed in this place (features or immutable features of this
    /// output type). HTTP 400.
    FeatureNotAllowed = "feature-not-allowed",
    /// Features are not in ascending order of type. HTTP 400.
    FeaturesUnsorted = "features-unsorted",
    /// A feature type appears twice. HTTP 400.
    FeaturesDuplicate = "features-duplicate",
    /// A metadata feature is empty. HTTP 400.
    MetadataFeatureEmpty = "metadata-feature-empty",
    /// A metadata feature is longer than 8192 bytes. HTTP 400.
    MetadataFeatureTooLong = "metadata-feature-too-long",
    /// A tag feature is empty. HTTP 400.
    TagFeatureEmpty = "tag-feature-empty",
    /// A tag feature is longer than 64 bytes. HTTP 400.
    TagFeatureTooLong = "tag-feature-too-long",

    // ----- Milestone payload rules (validate/milestone.rs, TIP-29) -----

    /// The block carries no milestone payload where one is required.
    NotAMilestoneBlock = "not-a-milestone-block",
    /// A milestone's protocol version is not the one this node speaks.
    MilestoneProtocolVersionMismatch = "milestone-protocol-version-mismatch",
    /// A milestone has index 0.
    MilestoneIndexZero = "milestone-index-zero",
    /// A milestone's parents are not its block's parents.
    MilestoneParentsMismatch = "milestone-parents-mismatch",
    /// A milestone block's nonce is not 0.
    MilestoneNonceNotZero = "milestone-nonce-not-zero",
    /// Milestone metadata is longer than 8192 bytes.
    MetadataTooLong = "metadata-too-long",
    /// Milestone options are not unique and ascending by type.
    MilestoneOptionsDuplicate = "milestone-options-duplicate",
    /// Protocol parameters of a milestone option are longer than 8192 bytes.
    ParamsTooLong = "params-too-long",
    /// A milestone has no signatures.
    MilestoneNoSignatures = "milestone-no-signatures",
    /// Signatures are not unique and ascending by public key.
    MilestoneSignaturesUnsorted = "milestone-signatures-unsorted",
    /// A receipt has no migrated funds entries or more than 128.
    ReceiptFundsCount = "receipt-funds-count",
    /// Receipt entries are not unique and ascending by tail transaction hash.
    ReceiptFundsUnsorted = "receipt-funds-unsorted",
    /// A tail transaction hash is not a valid t5b1-encoded ternary hash.
    InvalidTailTransactionHash = "invalid-tail-transaction-hash",
    /// Migrated funds go to an address that is not Ed25519.
    MigratedFundsAddressNotEd25519 = "migrated-funds-address-not-ed25519",
    /// A migrated deposit is below the minimum.
    MigratedFundsBelowMinimum = "migrated-funds-below-minimum",
    /// A receipt's treasury transaction does not spend a treasury input or create a
    /// treasury output.
    InvalidTreasuryTransaction = "invalid-treasury-transaction",

    // ----- The store: intake, tips and reads (ledger-store) -----

    /// A parent of the block is not stored (gossip holds such a block until its parents
    /// arrive). HTTP 400.
    UnknownParent = "unknown-parent",
    /// Nothing can be accepted, selected or indexed before the first milestone (a
    /// follower waits for it). HTTP 503 (submit, tips, indexer).
    NotReady = "not-ready",
    /// A milestone payload from a client: only this node's coordinator issues them (D16).
    /// HTTP 400.
    MilestoneNotAllowed = "milestone-not-allowed",
    /// RocksDB failed, or a stored record has the wrong size: never the client's fault.
    /// HTTP 500.
    StorageFailure = "storage-failure",
    /// The file system of the data directory has no space left: nothing of the write was
    /// kept. HTTP 503; writes succeed again once space is freed.
    StorageFull = "storage-full",
    /// The UTXO indexer is switched off on this node.
    IndexerDisabled = "indexer-disabled",
    /// An indexer cursor is not 76 hex digits.
    InvalidCursor = "invalid-cursor",
    /// A synthetic ledger change (benchmarks, feature `synthetic-ledger`) consumes an
    /// output that is not unspent.
    SyntheticLedger = "synthetic-ledger",
    /// The unspent outputs and the treasury no longer add up to the token supply: the
    /// store refuses to open, or the milestone is not committed.
    LedgerInvariantBroken = "ledger-invariant-broken",
    /// The check at start after a run that did not end cleanly found the ledger damaged
    /// (records missing, the indexer or the milestones not matching the ledger): the store
    /// refuses to open and names `tool db-health`.
    DatabaseDamaged = "database-damaged",

    // ----- Milestones: issuing and accepting (store/milestones.rs, milestone.rs) -----

    /// The embedded coordinator is disabled, so this node issues no milestone.
    CoordinatorDisabled = "coordinator-disabled",
    /// The coordinator stopped while it was mining a checkpoint.
    CheckpointCancelled = "checkpoint-cancelled",
    /// The store refused the coordinator's own checkpoint block.
    CheckpointRefused = "checkpoint-refused",
    /// A block handed to milestone acceptance carries no milestone payload.
    MilestonePayloadMissing = "milestone-payload-missing",
    /// A milestone's index is not the next one (gossip holds milestones that come early).
    MilestoneIndexMismatch = "milestone-index-mismatch",
    /// A milestone does not name the previous milestone's id.
    MilestonePreviousIdMismatch = "milestone-previous-id-mismatch",
    /// A milestone's timestamp is not after the previous milestone's.
    MilestoneTimestampNotIncreasing = "milestone-timestamp-not-increasing",
    /// The first milestone approves something other than solid entry points (D12, D41).
    MilestoneParentsInvalid = "milestone-parents-invalid",
    /// A parent of a milestone is below max depth.
    MilestoneParentBelowMaxDepth = "milestone-parent-below-max-depth",
    /// A milestone's inclusion or applied Merkle root is not what this node computes (a
    /// fork: gossip halts following).
    MilestoneMerkleRootMismatch = "milestone-merkle-root-mismatch",
    /// Fewer coordinator keys apply at the milestone's index than signatures are required.
    MilestoneKeysMissing = "milestone-keys-missing",
    /// A milestone has fewer signatures than required.
    MilestoneSignaturesTooFew = "milestone-signatures-too-few",
    /// A key that may not sign milestones at this index signed.
    MilestoneSignerNotApplicable = "milestone-signer-not-applicable",
    /// A key signed a milestone twice.
    MilestoneSignatureDuplicate = "milestone-signature-duplicate",
    /// A signature does not verify against the milestone id.
    MilestoneSignatureInvalid = "milestone-signature-invalid",
    /// A milestone's receipt does not spend the unspent treasury output, or leaves the treasury
    /// another amount than the old one less the migrated funds. HTTP 400.
    MilestoneReceiptInvalid = "milestone-receipt-invalid",

    // ----- Opening a data directory (store/mod.rs, genesis.rs, origin.rs, schema.rs) -----

    /// The protocol parameters of the configuration are malformed.
    InvalidProtocol = "invalid-protocol",
    /// The configured protocol parameters are not the ones the data directory was
    /// created with (or the snapshot's network).
    ProtocolMismatch = "protocol-mismatch",
    /// The genesis outputs are too many, none, or do not hold the token supply.
    GenesisInvalid = "genesis-invalid",
    /// `genesis.style` is neither `ledger` nor `hornet`.
    InvalidGenesisStyle = "invalid-genesis-style",
    /// `genesis.style` differs from the style the data directory was created with.
    GenesisStyleMismatch = "genesis-style-mismatch",
    /// The embedded coordinator is enabled without a private key.
    CoordinatorKeysMissing = "coordinator-keys-missing",
    /// The embedded coordinator is enabled on a ledger started from another network's
    /// snapshot.
    CoordinatorNotAllowed = "coordinator-not-allowed",
    /// The data directory has a storage schema version this node does not read.
    StorageVersionUnsupported = "storage-version-unsupported",

    // ----- Snapshots: the Hornet full and delta snapshot files (snapshot/, ledger-store snapshot/) -----

    /// The snapshot's format version is not the one this node reads.
    SnapshotVersionUnsupported = "snapshot-version-unsupported",
    /// The snapshot is not of the type expected where it is given (a delta snapshot as the
    /// full one, a full snapshot as the delta), or of an unknown type.
    SnapshotTypeUnsupported = "snapshot-type-unsupported",
    /// The header's milestone indexes are out of order (target below genesis, ledger below
    /// target).
    SnapshotIndexOrder = "snapshot-index-order",
    /// The header's option is not the protocol parameters option.
    SnapshotOptionInvalid = "snapshot-option-invalid",
    /// A solid entry point is listed twice.
    SnapshotDuplicateEntryPoint = "snapshot-duplicate-entry-point",
    /// An output record carries the treasury output, which belongs in the header.
    SnapshotTreasuryAsOutput = "snapshot-treasury-as-output",
    /// A milestone diff's declared length is not the length of its parts.
    SnapshotDiffLengthMismatch = "snapshot-diff-length-mismatch",
    /// Fewer milestone diffs than rolling the ledger back to the target index needs.
    SnapshotDiffsMissing = "snapshot-diffs-missing",
    /// Milestone diffs are not in descending order from the ledger index.
    SnapshotDiffOrder = "snapshot-diff-order",
    /// A milestone diff contradicts the ledger it rolls back (or its spent treasury output
    /// does not match its receipt).
    SnapshotDiffInconsistent = "snapshot-diff-inconsistent",
    /// An output is listed twice.
    SnapshotDuplicateOutput = "snapshot-duplicate-output",
    /// At the target index the outputs and the treasury do not hold the token supply.
    SnapshotSupplyMismatch = "snapshot-supply-mismatch",
    /// The snapshot's protocol version is not the one this node speaks.
    SnapshotProtocolVersion = "snapshot-protocol-version",
    /// A milestone in the diffs changes the protocol parameters.
    SnapshotProtocolUpgradeUnsupported = "snapshot-protocol-upgrade-unsupported",
    /// A snapshot to write has more entries than its count fields hold.
    SnapshotTooLarge = "snapshot-too-large",
    /// The snapshot file cannot be read.
    SnapshotUnreadable = "snapshot-unreadable",
    /// The snapshot is for another network than the configuration names.
    SnapshotNetworkMismatch = "snapshot-network-mismatch",
    /// The snapshot has no solid entry point for the next milestone to approve.
    SnapshotNoEntryPoints = "snapshot-no-entry-points",
    /// `snapshot write` on a ledger that itself started from a snapshot: only a genesis
    /// can be written.
    SnapshotNotGenesis = "snapshot-not-genesis",
    /// `snapshot write` could not write its file.
    SnapshotWriteFailed = "snapshot-write-failed",
    /// `snapshot write`'s output file exists already.
    FileExists = "file-exists",
    /// `snapshot write` on a data directory that holds no ledger.
    NoLedger = "no-ledger",
    /// `snapshot write` on a ledger created before genesis styles existed.
    LedgerTooOld = "ledger-too-old",
    /// A delta snapshot does not continue the full snapshot given with it (it names another
    /// full snapshot target milestone, or its diffs do not start after that target).
    SnapshotDeltaMismatch = "snapshot-delta-mismatch",
    /// A delta snapshot's solid entry point offset is not where its entry points begin.
    SnapshotSepOffsetMismatch = "snapshot-sep-offset-mismatch",
    /// The milestones of a snapshot's diffs do not form one chain (each naming the previous
    /// one's id) through the target milestone.
    SnapshotMilestoneChainBroken = "snapshot-milestone-chain-broken",

    // ----- History: pruning and snapshots after genesis (store/history.rs) -----

    /// A history task names a milestone the node has not confirmed yet.
    TargetNotConfirmed = "target-not-confirmed",
    /// A history task needs milestones that are pruned or were never stored (the data
    /// directory started from a snapshot after them).
    HistoryMissing = "history-missing",
    /// A snapshot index outside the pruning index … confirmed milestone range.
    SnapshotIndexOutOfRange = "snapshot-index-out-of-range",
    /// A pruning run or a snapshot is in progress already (Hornet: "node is already
    /// creating a snapshot or pruning is running"): the store runs one history task at a
    /// time. HTTP 503 (prune, snapshot creation).
    HistoryTaskRunning = "history-task-running",
    /// The pruning index is at the target already (Hornet's `ErrNoPruningNeeded`), or the
    /// database is below the size asked for. HTTP 500 (prune), as Hornet answers it.
    NoPruningNeeded = "no-pruning-needed",
    /// Not enough history above the entry point index for the target (Hornet's
    /// `ErrNotEnoughHistory`). HTTP 500 (prune).
    NotEnoughHistory = "not-enough-history",
    /// A pruning run stopped between two of its batches (the store closes); the next run,
    /// or the next start, finishes it.
    PruningAborted = "pruning-aborted",
    /// No snapshot target is within reach yet: the confirmed milestone is not far enough past
    /// the pruning index (belowMaxDepth + 5 on either side). REST 500.
    SnapshotNotEnoughHistory = "snapshot-not-enough-history",
    /// A snapshot target less than belowMaxDepth + 5 milestones below the confirmed one. REST 500.
    SnapshotTargetTooNew = "snapshot-target-too-new",
    /// A snapshot target too close to the pruning index, or (periodic, delta) not after the
    /// last snapshot. REST 500.
    SnapshotTargetTooOld = "snapshot-target-too-old",
    /// A milestone or diff a snapshot must carry is not stored. REST 500.
    SnapshotHistoryMissing = "snapshot-history-missing",
    /// A delta snapshot was asked for without a path to write it to.
    SnapshotPathMissing = "snapshot-path-missing",

    // ----- White flag on request: INX ComputeWhiteFlag (store/white_flag_roots.rs) -----

    /// The milestone asked for is not the next one this node would confirm (Hornet's
    /// "node is not synced"). gRPC UNAVAILABLE.
    NotSynced = "not-synced",
    /// A white-flag request names no parents. gRPC INVALID_ARGUMENT.
    WhiteFlagParentsMissing = "white-flag-parents-missing",
    /// A parent of a white-flag request is not (yet) stored on this node. gRPC UNAVAILABLE
    /// once the wait for it ends.
    WhiteFlagParentUnknown = "white-flag-parent-unknown",
    /// A white-flag request's previous milestone id does not fit this node's milestone
    /// chain (wrong id, timestamp not after it, not in the parents' past cone). gRPC INTERNAL.
    WhiteFlagPreviousMilestone = "white-flag-previous-milestone",

    // ----- Proof of work (pow/pool.rs, src/core/mining-pool.ts) -----

    /// The mining queue is full: the job is refused at once. HTTP 503 with Retry-After.
    PowQueueFull = "pow-queue-full",
    /// The mining pool is closed (the node is shutting down). HTTP 503.
    PowPoolClosed = "pow-pool-closed",
    /// Mining was aborted: the client went away or the node is shutting down. Raised in
    /// JavaScript (`MiningPool.mine`). HTTP 503.
    PowAborted = "pow-aborted",
    /// No nonce was found within the timeout. Raised in JavaScript (`MiningPool.mine`).
    /// HTTP 503.
    PowTimeout = "pow-timeout",

    // ----- The binding and the node's services (ledger-napi) -----

    /// An argument from JavaScript is malformed (also napi's own argument type errors,
    /// translated in `src/core/errors.ts`). HTTP 400 from the peer routes.
    InvalidArgument = "invalid-argument",
    /// napi itself failed (a JavaScript value or thread could not be made).
    BindingFailure = "binding-failure",
    /// The store is closed, or no store is open in the data directory to attach to.
    /// HTTP 500.
    StoreClosed = "store-closed",
    /// A listening socket for the HTTP workers could not be opened.
    ListenFailed = "listen-failed",
    /// A connection could not be handed to another thread.
    HandoffFailed = "handoff-failed",
    /// The p2p identity could not be loaded or created.
    GossipIdentity = "gossip-identity",
    /// Gossip could not start (no listen address works, a thread could not be started).
    GossipStart = "gossip-start",
    /// The gossip service is not running.
    GossipStopped = "gossip-stopped",
    /// The INX server could not start (`inx.bindAddress` does not resolve or cannot be
    /// listened on).
    InxStart = "inx-start",
    /// No INX server runs over this store.
    InxStopped = "inx-stopped",
    /// A peer to add has this node's own peer id. HTTP 404 from `POST /api/core/v2/peers`.
    OwnPeerId = "own-peer-id",
}

impl Code {
    /// The code spelled `text`, if there is one.
    pub fn from_code_str(text: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == text)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that is not one of the [`Code`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not an error code", self.0)
    }
}

impl std::error::Error for UnknownCode {}

impl FromStr for Code {
    type Err = UnknownCode;

    fn from_str(text: &str) -> Result<Code, UnknownCode> {
        Code::from_code_str(text).ok_or_else(|| UnknownCode(text.to_string()))
    }
}
