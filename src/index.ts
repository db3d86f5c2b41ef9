// The package's JavaScript API: the native Stardust core (codec, identifiers, validation,
// proof of work, Ed25519). The node itself starts from the command line (`ledger-node`).

export { LedgerError } from './core/errors';
export { ERROR_CODES } from './core/error-codes';
export type { ErrorCode } from './core/error-codes';
export {
  encodeBlock,
  encodeBlockWithId,
  decodeBlock,
  decodeBlockWithId,
  encodePayload,
  decodePayload,
  encodeOutput,
  decodeOutput,
} from './core/codec';
export {
  blockId,
  transactionId,
  essenceHash,
  milestoneId,
  inputsCommitment,
  outputId,
  networkId,
  merkleRoot,
  bech32Encode,
  bech32Decode,
} from './core/ids';
export { validateBlock, storageDeposit } from './core/validate';
export { powScore, powScores, mine, powInfo, powHashRate } from './core/pow';
export type { MineOptions, MineResult } from './core/pow';
export { MiningPool } from './core/mining-pool';
export type { MiningPoolOptions, MiningPoolStatus } from './core/mining-pool';
export { publicKey, sign, verify, verifyBatch, ed25519Address } from './core/crypto';
export type * from './core/types';
