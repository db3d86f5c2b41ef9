// The ledger store as the node uses it (implemented natively, src/core/store.ts), as a
// type, so that the server is type-checked against it and tests can see its shape.

import type { ProtocolJson } from './core/types';
import type { StoreEventJs } from '../native/index';

/**
 * One event of the store's feed (events.md §7): the blocks an intake batch stored, or a
 * committed milestone with its referenced blocks and ledger changes in white-flag order.
 */
export type StoreEvent = StoreEventJs;
export type { AppliedTransactionEvent, MilestoneCommittedEvent, OutputChangeEvent, StoredBlockEvent } from '../native/index';

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
  blocksStored: number;
  referencedByLastMilestone: number;
  newBlocksSinceLastMilestone: number;
  /** Blocks no milestone has referenced yet. */
  pendingBlocks: number;
}

export interface IssuedMilestone {
  index: number;
  milestoneId: string;
  blockId: string;
  timestamp: number;
  referencedBlocks: number;
  includedTransactions: number;
}

export interface StoreOptions {
  protocol: ProtocolJson;
  /** Serialized genesis outputs; used once, when the data directory is new. */
  genesisOutputs: Buffer[];
  coordinator: { enabled: boolean; privateKeys: string[]; publicKeys: string[] };
  syncWrites: boolean;
  tips: { maxDeltaYcri: number; maxDeltaOcri: number };
}

export interface LedgerStoreApi {
  close(): void;
  protocol(): ProtocolJson;
  isReady(): boolean;
  selectTips(): string[];
  /** Validates (every syntactic rule, parents known) and stores; LedgerError on rejection. */
  submitBlock(bytes: Buffer): Promise<{ blockId: string; stored: boolean }>;
  getBlock(blockId: string): Buffer | null;
  /** The block metadata object as JSON text. */
  getBlockMetadata(blockId: string): string | null;
  getIncludedBlockId(transactionId: string): string | null;
  getBlocksWithTransaction(transactionId: string): string[];
  /** The output's bytes and its metadata object as JSON text. */
  getOutput(outputId: string): { output: Buffer; metadata: string } | null;
  getMilestoneByIndex(index: number): MilestoneRecord | null;
  getMilestoneById(milestoneId: string): MilestoneRecord | null;
  getUtxoChanges(index: number): { index: number; createdOutputs: string[]; consumedOutputs: string[] } | null;
  status(): StoreStatus;
  issueMilestone(timestamp?: number): Promise<IssuedMilestone>;
  approximateSizeBytes(): number;
  /** Every later event to `listener`, on the event loop, in commit order. */
  onEvents(listener: (event: StoreEvent) => void): void;
  /** Build events only while someone listens. */
  setEventsActive(active: boolean): void;
}

export interface LedgerStoreClass {
  open(dataDir: string, options: StoreOptions): Promise<LedgerStoreApi>;
}
