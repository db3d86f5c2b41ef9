// The part of the native store (src/core/store.ts, STORE-CONTRACT.md) that the node uses,
// as a type. The class itself is loaded by node.ts; this file only lets the server be
// type-checked against the contract.

import type { ProtocolJson } from './core/types';

export interface MilestoneRecord {
  index: number;
  timestamp: number;
  milestoneId: string;
  blockId: string;
  payload: Buffer;
}

export interface StoreStatus {
  latestMilestone: { index: number; timestamp?: number; milestoneId?: string };
  ledgerIndex: number;
  blocksStored: number;
  referencedByLastMilestone: number;
  newBlocksSinceLastMilestone: number;
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
  genesisAddress: string;
  coordinator: { enabled: boolean; privateKeys: string[]; publicKeys?: string[] };
  syncWrites?: boolean;
}

export interface LedgerStoreApi {
  close(): void;
  protocol(): ProtocolJson;
  coordinatorPublicKeys(): string[];
  isReady(): boolean;
  selectTips(): string[];
  submitBlock(bytes: Buffer): Promise<{ blockId: string; stored: boolean }>;
  getBlock(blockId: string): Buffer | null;
  getBlockMetadata(blockId: string): object | null;
  getIncludedBlockId(transactionId: string): string | null;
  getOutput(outputId: string): { output: Buffer; metadata: object } | null;
  getMilestoneByIndex(index: number): MilestoneRecord | null;
  getMilestoneById(milestoneId: string): MilestoneRecord | null;
  getUtxoChanges(index: number): { index: number; createdOutputs: string[]; consumedOutputs: string[] } | null;
  status(): StoreStatus;
  issueMilestone(timestamp?: number): Promise<IssuedMilestone>;
  approximateSizeBytes(): number;
}

export interface LedgerStoreClass {
  open(dataDir: string, options: StoreOptions): LedgerStoreApi;
}
