// The ledger store as the node uses it (implemented natively, src/core/store.ts), as a
// type, so that the server is type-checked against it and tests can see its shape.

import type { SnapshotRequest, SnapshotStatus, WrittenSnapshot } from './core/snapshot';
import type { ProtocolJson } from './core/types';
import type { StoreEventJs } from '../native/index';

/**
 * One event of the store's feed (events.md §7): the blocks an intake batch stored, or a
 * committed milestone with its referenced blocks and ledger changes in white-flag order.
 */
export type StoreEvent = StoreEventJs;
export type {
  AppliedTransactionEvent,
  MilestoneCommittedEvent,
  OutputChangeEvent,
  StoredBlockEvent,
} from '../native/index';

export interface MilestoneRecord {
  index: number;
  timestamp: number;
  milestoneId: string;
  blockId: string;
  /** The milestone payload's bytes, type code first. */
  payload: Buffer;
}

export interface StoreStatus {
  latestMilestone: { index: number; timestamp?: number; milestoneId?: string };
  ledgerIndex: number;
  /** The target index of the snapshot the ledger started from (0: it began at genesis). */
  pruningIndex: number;
  blocksStored: number;
  /** Blocks in the in-memory graph: not referenced by a milestone, not below max depth. */
  pendingBlocks: number;
  /** Blocks found below max depth (and dropped from memory) since the store was opened. */
  blocksBelowMaxDepth: number;
  /** The last milestone interval; absent until two milestones were applied since opening. */
  lastInterval?: MilestoneInterval;
  /** The last write failed because the data directory's file system is full (storage-full). */
  storageFull: boolean;
}

/**
 * Between milestones `index − 1` and `index` (Hornet's confirmed milestone metric): blocks
 * newly stored (milestone `index`'s own included), blocks milestone `index` referenced,
 * and the seconds between the two milestones' timestamps.
 */
export interface MilestoneInterval {
  index: number;
  newBlocks: number;
  referencedBlocks: number;
  seconds: number;
}

export interface IssuedMilestone {
  index: number;
  milestoneId: string;
  blockId: string;
  timestamp: number;
  referencedBlocks: number;
  includedTransactions: number;
  /** Microseconds in white flag and in the atomic commit. */
  confirmMicros: number;
  commitMicros: number;
}

/**
 * An indexer query (indexer.md §2) with checked values: addresses bech32 in lower case with
 * the network's HRP, the tag 0x-hex of 1 to 64 bytes, the cursor's 76 hex digits, a page
 * size of at least 1. Filters a route does not take are left out.
 */
export interface IndexerQuery {
  route: 'outputs' | 'basic' | 'alias' | 'foundry' | 'nft';
  unlockableByAddress?: string;
  address?: string;
  hasStorageDepositReturn?: boolean;
  storageDepositReturnAddress?: string;
  hasTimelock?: boolean;
  timelockedBefore?: number;
  timelockedAfter?: number;
  hasExpiration?: boolean;
  expiresBefore?: number;
  expiresAfter?: number;
  expirationReturnAddress?: string;
  sender?: string;
  issuer?: string;
  tag?: string;
  stateController?: string;
  governor?: string;
  aliasAddress?: string;
  hasNativeTokens?: boolean;
  minNativeTokenCount?: number;
  maxNativeTokenCount?: number;
  createdBefore?: number;
  createdAfter?: number;
  cursor?: string;
  pageSize: number;
}

export type ChainKind = 'alias' | 'nft' | 'foundry';

/** What to prune to: exactly one of index, depth, targetBytes. */
export interface PruneRequest {
  index?: number;
  depth?: number;
  /** Prune until the database is this size less `thresholdPercentage` %. */
  targetBytes?: number;
  thresholdPercentage: number;
}

/** A finished pruning run: the new pruning index and what it took (microseconds). */
export interface PruneReport {
  from: number;
  index: number;
  blocks: number;
  outputs: number;
  steps: number;
  longestStepMicros: number;
  compactionMicros: number;
  micros: number;
}

/** The background pruning's rules, parsed from `pruning.*`; a rule left out is disabled. */
export interface WhiteFlagRequest {
  index: number;
  timestamp: number;
  parents: string[];
  /** Empty: none (the first milestone). */
  previousMilestoneId: string;
}

export interface WhiteFlagRoots {
  inclusionMerkleRoot: string;
  appliedMerkleRoot: string;
}

export interface StartCheck {
  unspentOutputs: number;
  milestones: number;
  micros: number;
}

export interface PruningRules {
  maxMilestonesToKeep?: number;
  targetBytes?: number;
  thresholdPercentage: number;
  cooldownSeconds: number;
  pruneReceipts: boolean;
  /** The effective `snapshots.depth` while periodic snapshots are enabled. */
  snapshotDepth?: number;
}

export interface StoreOptions {
  protocol: ProtocolJson;
  /** Serialized genesis outputs; used once, when the data directory is new. */
  genesisOutputs: Buffer[];
  /** The built-in genesis style (D41; default `ledger`); fixed when the data directory is new. */
  genesisStyle?: 'ledger' | 'hornet';
  /** A Hornet full snapshot to create a new ledger from instead of the built-in genesis. */
  snapshotPath?: string;
  /** A delta snapshot applied on top of `snapshotPath`. */
  snapshotDeltaPath?: string;
  coordinator: { enabled: boolean; privateKeys: string[]; publicKeys: string[] };
  /**
   * D42: the keys a followed coordinator signs with, per milestone index (`end` 0 = open;
   * none: `coordinator.publicKeys` or the own keys from 0), and how many must sign (0 = all
   * applicable).
   */
  milestoneKeys?: { count: number; ranges: { key: string; start: number; end: number }[] };
  syncWrites: boolean;
  /** RocksDB memory bounds, MiB. */
  blockCacheMiB: number;
  writeBuffersMiB: number;
  tips: { maxDeltaYcri: number; maxDeltaOcri: number };
  indexer: { enabled: boolean };
}

export interface LedgerStoreApi {
  close(): void;
  protocol(): ProtocolJson;
  isReady(): boolean;
  selectTips(): string[];
  /** The body of GET /tips, `{"tips":[…]}`, from the same selection. */
  selectTipsJson(): string;
  /** Validates (every syntactic rule, parents known) and stores; LedgerError on rejection. */
  submitBlock(bytes: Buffer): Promise<{ blockId: string; stored: boolean }>;
  /** Every rule of submitBlock but the proof of work, nothing stored: run before mining. LedgerError on rejection. */
  precheckBlock(bytes: Buffer): Promise<void>;
  getBlock(blockId: string): Buffer | null;
  /** The block metadata object as JSON text. */
  getBlockMetadata(blockId: string): string | null;
  /** Up to `max` ids of blocks that name this block as a parent, in id order; null for unknown blocks. */
  getBlockChildren(blockId: string, max: number): string[] | null;
  getIncludedBlockId(transactionId: string): string | null;
  getBlocksWithTransaction(transactionId: string): string[];
  /** The output's bytes and its metadata object as JSON text. */
  getOutput(outputId: string): { output: Buffer; metadata: string } | null;
  getMilestoneByIndex(index: number): MilestoneRecord | null;
  getMilestoneById(milestoneId: string): MilestoneRecord | null;
  getUtxoChanges(index: number): { index: number; createdOutputs: string[]; consumedOutputs: string[] } | null;
  status(): StoreStatus;
  /** `status().latestMilestone.index` without building the status object: to see cheaply whether it changed. */
  latestMilestoneIndex(): number;
  /** `status().storageFull` without building the status object. */
  storageFull(): boolean;
  /** The ledger check this open made because the last run did not close the data directory
   * (a crash, kill -9); null after a clean close. A damaged ledger refuses to open instead. */
  startCheck(): StartCheck | null;
  /** The merkle roots a milestone with these fields would carry, nothing written (POST
   * /whiteflag); LedgerError `not-synced`, `white-flag-parents-missing`,
   * `white-flag-parent-unknown` (not here within 2 s) or another white-flag code. */
  whiteFlag(request: WhiteFlagRequest): Promise<WhiteFlagRoots>;
  /**
   * The coordinator's checkpoint blocks before a milestone: none while at most 7 healthy tips
   * wait; else blocks without payload that approve the oldest tips, so that the milestone
   * confirms all of them (ledger-store `checkpoints.rs`). Resolves to how many were stored.
   */
  issueCheckpoints(): Promise<number>;
  issueMilestone(timestamp?: number): Promise<IssuedMilestone>;
  /** One page of unspent output IDs: the response body of indexer.md §3.1 as JSON (UTF-8 bytes). */
  queryOutputs(query: IndexerQuery): Promise<Buffer>;
  /** The body of a by-ID indexer route (§3.4) as JSON text; null when the chain has no unspent output. */
  getChainOutput(kind: ChainKind, id: string): string | null;
  approximateSizeBytes(): number;
  /**
   * Prune the history to a target (Hornet's `PruneDatabaseBy*`, docs/configuration.md
   * `pruning`), off the event loop; LedgerError with Hornet's reason when refused.
   */
  prune(request: PruneRequest): Promise<PruneReport>;
  /** Start the background pruning with these rules (the store's own thread). */
  startPruning(config: PruningRules): void;
  /** The history task running now: a pruning run or a snapshot (the prune route answers 503 then). */
  historyTask(): 'pruning' | 'snapshot' | null;
  /** `status().pruningIndex` without building the status object. */
  pruningIndex(): number;
  /** approximateSizeBytes per RocksDB column family. */
  approximateSizes(): { name: string; bytes: number }[];
  /** Every later event to `listener`, on the event loop, in commit order. */
  onEvents(listener: (event: StoreEvent) => void): void;
  /** Build events only while someone listens. */
  setEventsActive(active: boolean): void;
  /** Memory RocksDB holds now (block cache contents and memtables). */
  storageMemoryBytes(): number;
  /** The body of `/treasury` (TIP-25) as JSON text. */
  treasuryJson(): string;
  /** The body of `/receipts` (TIP-25), all or of one migratedAt index, as JSON text. */
  receiptsJson(migratedAt?: number): string;
  /**
   * A full or delta snapshot at a target within reach (snapshot.md §8), written off the event
   * loop without the ledger lock; LedgerError on refusal (`history-task-running` while a snapshot or a pruning run is in progress).
   */
  createSnapshot(request: SnapshotRequest): Promise<WrittenSnapshot>;
  snapshotStatus(): SnapshotStatus;
}

export interface LedgerStoreClass {
  open(dataDir: string, options: StoreOptions): Promise<LedgerStoreApi>;
}
