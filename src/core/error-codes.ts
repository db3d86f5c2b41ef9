// The reason codes of LedgerError, generated from the Rust list
// (crates/ledger-core/src/error/code.rs, where each is documented) by
// crates/ledger-core/tests/error_codes.rs, which fails when this file differs. Do not edit;
// after a change to the Rust list, write it anew with
//   LEDGER_WRITE_ERROR_CODES=1 node scripts/cargo-host.js test -p ledger-core --release --test error_codes

/** The reason of a LedgerError: a stable kebab-case string. */
export type ErrorCode =
  | 'truncated-bytes'
  | 'trailing-bytes'
  | 'length-prefix-too-large'
  | 'block-too-large'
  | 'payload-length-mismatch'
  | 'payload-nesting-too-deep'
  | 'invalid-bool'
  | 'invalid-utf8'
  | 'unknown-address-type'
  | 'unknown-essence-type'
  | 'unknown-feature-type'
  | 'unknown-input-type'
  | 'unknown-milestone-option-type'
  | 'unknown-output-type'
  | 'unknown-payload-type'
  | 'unknown-signature-type'
  | 'unknown-token-scheme-type'
  | 'unknown-unlock-condition-type'
  | 'unknown-unlock-type'
  | 'unexpected-payload-type'
  | 'payload-not-allowed-in-receipt'
  | 'invalid-json'
  | 'invalid-type'
  | 'missing-field'
  | 'number-out-of-range'
  | 'missing-0x'
  | 'uppercase-0X-prefix'
  | 'odd-hex-length'
  | 'bad-hex'
  | 'wrong-id-length'
  | 'amount-not-decimal'
  | 'amount-overflow-u64'
  | 'nonce-not-decimal'
  | 'nonce-overflow-u64'
  | 'network-id-not-decimal'
  | 'native-token-amount-not-hex'
  | 'native-token-amount-over-uint256'
  | 'token-amount-not-hex'
  | 'token-amount-over-uint256'
  | 'invalid-bech32'
  | 'wrong-protocol-version'
  | 'parents-too-few'
  | 'parents-too-many'
  | 'parents-unsorted'
  | 'parents-duplicate'
  | 'pow-score-too-low'
  | 'payload-not-allowed-in-block'
  | 'tag-too-long'
  | 'network-id-mismatch'
  | 'no-inputs'
  | 'too-many-inputs'
  | 'duplicate-inputs'
  | 'treasury-input-in-transaction'
  | 'invalid-utxo-output-index'
  | 'no-outputs'
  | 'too-many-outputs'
  | 'treasury-output-in-transaction'
  | 'transaction-amount-sum-exceeds-supply'
  | 'duplicate-output-chain'
  | 'milestone-in-transaction'
  | 'transaction-in-transaction'
  | 'payload-not-allowed-in-transaction'
  | 'unlocks-count-mismatch'
  | 'duplicate-signature-unlock'
  | 'invalid-reference-unlock'
  | 'reference-to-non-signature-unlock'
  | 'invalid-alias-unlock'
  | 'invalid-nft-unlock'
  | 'output-amount-zero'
  | 'output-amount-exceeds-supply'
  | 'storage-deposit-too-low'
  | 'too-many-native-tokens'
  | 'native-tokens-unsorted'
  | 'native-tokens-duplicate'
  | 'native-token-amount-zero'
  | 'state-metadata-too-long'
  | 'alias-zero-id-nonzero-state-index'
  | 'self-controlled-alias'
  | 'self-deposit-nft'
  | 'foundry-supply-invalid'
  | 'unlock-condition-not-allowed'
  | 'unlock-conditions-unsorted'
  | 'unlock-conditions-duplicate'
  | 'basic-missing-address-unlock-condition'
  | 'nft-missing-address-unlock-condition'
  | 'alias-missing-controller-unlock-condition'
  | 'foundry-missing-alias-unlock-condition'
  | 'foundry-not-alias-address'
  | 'storage-deposit-return-below-minimum'
  | 'storage-deposit-return-exceeds-amount'
  | 'timelock-zero'
  | 'expiration-zero'
  | 'feature-not-allowed'
  | 'features-unsorted'
  | 'features-duplicate'
  | 'metadata-feature-empty'
  | 'metadata-feature-too-long'
  | 'tag-feature-empty'
  | 'tag-feature-too-long'
  | 'not-a-milestone-block'
  | 'milestone-protocol-version-mismatch'
  | 'milestone-index-zero'
  | 'milestone-parents-mismatch'
  | 'milestone-nonce-not-zero'
  | 'metadata-too-long'
  | 'milestone-options-duplicate'
  | 'params-too-long'
  | 'milestone-no-signatures'
  | 'milestone-signatures-unsorted'
  | 'receipt-funds-count'
  | 'receipt-funds-unsorted'
  | 'invalid-tail-transaction-hash'
  | 'migrated-funds-address-not-ed25519'
  | 'migrated-funds-below-minimum'
  | 'invalid-treasury-transaction'
  | 'unknown-parent'
  | 'not-ready'
  | 'milestone-not-allowed'
  | 'storage-failure'
  | 'storage-full'
  | 'indexer-disabled'
  | 'invalid-cursor'
  | 'synthetic-ledger'
  | 'ledger-invariant-broken'
  | 'database-damaged'
  | 'coordinator-disabled'
  | 'checkpoint-cancelled'
  | 'checkpoint-refused'
  | 'milestone-payload-missing'
  | 'milestone-index-mismatch'
  | 'milestone-previous-id-mismatch'
  | 'milestone-timestamp-not-increasing'
  | 'milestone-parents-invalid'
  | 'milestone-parent-below-max-depth'
  | 'milestone-merkle-root-mismatch'
  | 'milestone-keys-missing'
  | 'milestone-signatures-too-few'
  | 'milestone-signer-not-applicable'
  | 'milestone-signature-duplicate'
  | 'milestone-signature-invalid'
  | 'milestone-receipt-invalid'
  | 'invalid-protocol'
  | 'protocol-mismatch'
  | 'genesis-invalid'
  | 'invalid-genesis-style'
  | 'genesis-style-mismatch'
  | 'coordinator-keys-missing'
  | 'coordinator-not-allowed'
  | 'storage-version-unsupported'
  | 'snapshot-version-unsupported'
  | 'snapshot-type-unsupported'
  | 'snapshot-index-order'
  | 'snapshot-option-invalid'
  | 'snapshot-duplicate-entry-point'
  | 'snapshot-treasury-as-output'
  | 'snapshot-diff-length-mismatch'
  | 'snapshot-diffs-missing'
  | 'snapshot-diff-order'
  | 'snapshot-diff-inconsistent'
  | 'snapshot-duplicate-output'
  | 'snapshot-supply-mismatch'
  | 'snapshot-protocol-version'
  | 'snapshot-protocol-upgrade-unsupported'
  | 'snapshot-too-large'
  | 'snapshot-unreadable'
  | 'snapshot-network-mismatch'
  | 'snapshot-no-entry-points'
  | 'snapshot-not-genesis'
  | 'snapshot-write-failed'
  | 'file-exists'
  | 'no-ledger'
  | 'ledger-too-old'
  | 'snapshot-delta-mismatch'
  | 'snapshot-sep-offset-mismatch'
  | 'snapshot-milestone-chain-broken'
  | 'target-not-confirmed'
  | 'history-missing'
  | 'snapshot-index-out-of-range'
  | 'history-task-running'
  | 'no-pruning-needed'
  | 'not-enough-history'
  | 'pruning-aborted'
  | 'snapshot-not-enough-history'
  | 'snapshot-target-too-new'
  | 'snapshot-target-too-old'
  | 'snapshot-history-missing'
  | 'snapshot-path-missing'
  | 'not-synced'
  | 'white-flag-parents-missing'
  | 'white-flag-parent-unknown'
  | 'white-flag-previous-milestone'
  | 'pow-queue-full'
  | 'pow-pool-closed'
  | 'pow-aborted'
  | 'pow-timeout'
  | 'invalid-argument'
  | 'binding-failure'
  | 'store-closed'
  | 'listen-failed'
  | 'handoff-failed'
  | 'gossip-identity'
  | 'gossip-start'
  | 'gossip-stopped'
  | 'inx-start'
  | 'inx-stopped'
  | 'own-peer-id';

/** Every ErrorCode, in the order of the Rust list. */
export const ERROR_CODES: readonly ErrorCode[] = [
  'truncated-bytes',
  'trailing-bytes',
  'length-prefix-too-large',
  'block-too-large',
  'payload-length-mismatch',
  'payload-nesting-too-deep',
  'invalid-bool',
  'invalid-utf8',
  'unknown-address-type',
  'unknown-essence-type',
  'unknown-feature-type',
  'unknown-input-type',
  'unknown-milestone-option-type',
  'unknown-output-type',
  'unknown-payload-type',
  'unknown-signature-type',
  'unknown-token-scheme-type',
  'unknown-unlock-condition-type',
  'unknown-unlock-type',
  'unexpected-payload-type',
  'payload-not-allowed-in-receipt',
  'invalid-json',
  'invalid-type',
  'missing-field',
  'number-out-of-range',
  'missing-0x',
  'uppercase-0X-prefix',
  'odd-hex-length',
  'bad-hex',
  'wrong-id-length',
  'amount-not-decimal',
  'amount-overflow-u64',
  'nonce-not-decimal',
  'nonce-overflow-u64',
  'network-id-not-decimal',
  'native-token-amount-not-hex',
  'native-token-amount-over-uint256',
  'token-amount-not-hex',
  'token-amount-over-uint256',
  'invalid-bech32',
  'wrong-protocol-version',
  'parents-too-few',
  'parents-too-many',
  'parents-unsorted',
  'parents-duplicate',
  'pow-score-too-low',
  'payload-not-allowed-in-block',
  'tag-too-long',
  'network-id-mismatch',
  'no-inputs',
  'too-many-inputs',
  'duplicate-inputs',
  'treasury-input-in-transaction',
  'invalid-utxo-output-index',
  'no-outputs',
  'too-many-outputs',
  'treasury-output-in-transaction',
  'transaction-amount-sum-exceeds-supply',
  'duplicate-output-chain',
  'milestone-in-transaction',
  'transaction-in-transaction',
  'payload-not-allowed-in-transaction',
  'unlocks-count-mismatch',
  'duplicate-signature-unlock',
  'invalid-reference-unlock',
  'reference-to-non-signature-unlock',
  'invalid-alias-unlock',
  'invalid-nft-unlock',
  'output-amount-zero',
  'output-amount-exceeds-supply',
  'storage-deposit-too-low',
  'too-many-native-tokens',
  'native-tokens-unsorted',
  'native-tokens-duplicate',
  'native-token-amount-zero',
  'state-metadata-too-long',
  'alias-zero-id-nonzero-state-index',
  'self-controlled-alias',
  'self-deposit-nft',
  'foundry-supply-invalid',
  'unlock-condition-not-allowed',
  'unlock-conditions-unsorted',
  'unlock-conditions-duplicate',
  'basic-missing-address-unlock-condition',
  'nft-missing-address-unlock-condition',
  'alias-missing-controller-unlock-condition',
  'foundry-missing-alias-unlock-condition',
  'foundry-not-alias-address',
  'storage-deposit-return-below-minimum',
  'storage-deposit-return-exceeds-amount',
  'timelock-zero',
  'expiration-zero',
  'feature-not-allowed',
  'features-unsorted',
  'features-duplicate',
  'metadata-feature-empty',
  'metadata-feature-too-long',
  'tag-feature-empty',
  'tag-feature-too-long',
  'not-a-milestone-block',
  'milestone-protocol-version-mismatch',
  'milestone-index-zero',
  'milestone-parents-mismatch',
  'milestone-nonce-not-zero',
  'metadata-too-long',
  'milestone-options-duplicate',
  'params-too-long',
  'milestone-no-signatures',
  'milestone-signatures-unsorted',
  'receipt-funds-count',
  'receipt-funds-unsorted',
  'invalid-tail-transaction-hash',
  'migrated-funds-address-not-ed25519',
  'migrated-funds-below-minimum',
  'invalid-treasury-transaction',
  'unknown-parent',
  'not-ready',
  'milestone-not-allowed',
  'storage-failure',
  'storage-full',
  'indexer-disabled',
  'invalid-cursor',
  'synthetic-ledger',
  'ledger-invariant-broken',
  'database-damaged',
  'coordinator-disabled',
  'checkpoint-cancelled',
  'checkpoint-refused',
  'milestone-payload-missing',
  'milestone-index-mismatch',
  'milestone-previous-id-mismatch',
  'milestone-timestamp-not-increasing',
  'milestone-parents-invalid',
  'milestone-parent-below-max-depth',
  'milestone-merkle-root-mismatch',
  'milestone-keys-missing',
  'milestone-signatures-too-few',
  'milestone-signer-not-applicable',
  'milestone-signature-duplicate',
  'milestone-signature-invalid',
  'milestone-receipt-invalid',
  'invalid-protocol',
  'protocol-mismatch',
  'genesis-invalid',
  'invalid-genesis-style',
  'genesis-style-mismatch',
  'coordinator-keys-missing',
  'coordinator-not-allowed',
  'storage-version-unsupported',
  'snapshot-version-unsupported',
  'snapshot-type-unsupported',
  'snapshot-index-order',
  'snapshot-option-invalid',
  'snapshot-duplicate-entry-point',
  'snapshot-treasury-as-output',
  'snapshot-diff-length-mismatch',
  'snapshot-diffs-missing',
  'snapshot-diff-order',
  'snapshot-diff-inconsistent',
  'snapshot-duplicate-output',
  'snapshot-supply-mismatch',
  'snapshot-protocol-version',
  'snapshot-protocol-upgrade-unsupported',
  'snapshot-too-large',
  'snapshot-unreadable',
  'snapshot-network-mismatch',
  'snapshot-no-entry-points',
  'snapshot-not-genesis',
  'snapshot-write-failed',
  'file-exists',
  'no-ledger',
  'ledger-too-old',
  'snapshot-delta-mismatch',
  'snapshot-sep-offset-mismatch',
  'snapshot-milestone-chain-broken',
  'target-not-confirmed',
  'history-missing',
  'snapshot-index-out-of-range',
  'history-task-running',
  'no-pruning-needed',
  'not-enough-history',
  'pruning-aborted',
  'snapshot-not-enough-history',
  'snapshot-target-too-new',
  'snapshot-target-too-old',
  'snapshot-history-missing',
  'snapshot-path-missing',
  'not-synced',
  'white-flag-parents-missing',
  'white-flag-parent-unknown',
  'white-flag-previous-milestone',
  'pow-queue-full',
  'pow-pool-closed',
  'pow-aborted',
  'pow-timeout',
  'invalid-argument',
  'binding-failure',
  'store-closed',
  'listen-failed',
  'handoff-failed',
  'gossip-identity',
  'gossip-start',
  'gossip-stopped',
  'inx-start',
  'inx-stopped',
  'own-peer-id',
];
