// The ledger store (crates/ledger-store over RocksDB) behind the LedgerStoreApi contract.
// A thin adapter: ids and JSON text pass through, native failures become LedgerError.

import native from '../native';
import type { IssuedMilestone, LedgerStoreApi, MilestoneRecord, StoreOptions, StoreStatus } from '../store-contract';
import { fromNative, LedgerError } from './errors';
import type { ProtocolJson } from './types';

type NativeStore = InstanceType<typeof native.LedgerStore>;
type Failure = { code: string; path: string; detail: string } | null | undefined;

function throwFailure(failure: Failure): void {
  if (failure) throw new LedgerError(failure.code, failure.path, failure.detail);
}

export class LedgerStore implements LedgerStoreApi {
  private constructor(
    private readonly inner: NativeStore,
    private readonly protocolJson: ProtocolJson,
  ) {}

  /** Open or create the ledger in `dataDir` (RocksDB under `dataDir/ledger`). */
  static open(dataDir: string, options: StoreOptions): LedgerStore {
    const inner = fromNative(() =>
      native.LedgerStore.open(dataDir, {
        protocolJson: JSON.stringify(options.protocol),
        genesisOutputs: options.genesisOutputs,
        coordinatorEnabled: options.coordinator.enabled,
        coordinatorPrivateKeys: options.coordinator.privateKeys,
        coordinatorPublicKeys: options.coordinator.publicKeys,
        syncWrites: options.syncWrites,
        maxDeltaYcri: options.tips.maxDeltaYcri,
        maxDeltaOcri: options.tips.maxDeltaOcri,
      }),
    );
    return new LedgerStore(inner, JSON.parse(inner.protocolJson()) as ProtocolJson);
  }

  close(): void {
    this.inner.close();
  }

  /** The persisted protocol parameters (fixed when the data directory was created). */
  protocol(): ProtocolJson {
    return this.protocolJson;
  }

  coordinatorPublicKeys(): string[] {
    return fromNative(() => this.inner.coordinatorPublicKeys());
  }

  isReady(): boolean {
    return fromNative(() => this.inner.isReady());
  }

  selectTips(): string[] {
    return fromNative(() => this.inner.selectTips());
  }

  async submitBlock(bytes: Buffer): Promise<{ blockId: string; stored: boolean }> {
    const outcome = await fromNative(() => this.inner.submitBlock(bytes));
    throwFailure(outcome.failure);
    return { blockId: outcome.blockId!, stored: outcome.stored };
  }

  getBlock(blockId: string): Buffer | null {
    return fromNative(() => this.inner.getBlock(blockId)) ?? null;
  }

  getBlockMetadata(blockId: string): string | null {
    return fromNative(() => this.inner.getBlockMetadata(blockId)) ?? null;
  }

  getIncludedBlockId(transactionId: string): string | null {
    return fromNative(() => this.inner.getIncludedBlockId(transactionId)) ?? null;
  }

  getBlocksWithTransaction(transactionId: string): string[] {
    return fromNative(() => this.inner.getBlocksWithTransaction(transactionId));
  }

  getOutput(outputId: string): { output: Buffer; metadata: string } | null {
    const found = fromNative(() => this.inner.getOutput(outputId));
    return found ? { output: found.output, metadata: found.metadataJson } : null;
  }

  getMilestoneByIndex(index: number): MilestoneRecord | null {
    return fromNative(() => this.inner.getMilestoneByIndex(index)) ?? null;
  }

  getMilestoneById(milestoneId: string): MilestoneRecord | null {
    return fromNative(() => this.inner.getMilestoneById(milestoneId)) ?? null;
  }

  getUtxoChanges(index: number) {
    return fromNative(() => this.inner.getUtxoChanges(index)) ?? null;
  }

  status(): StoreStatus {
    const s = fromNative(() => this.inner.status());
    const latest = s.latestMilestone;
    return {
      latestMilestone: latest.timestamp == null ? { index: latest.index } : { index: latest.index, timestamp: latest.timestamp, milestoneId: latest.milestoneId ?? undefined },
      ledgerIndex: s.ledgerIndex,
      blocksStored: s.blocksStored,
      referencedByLastMilestone: s.referencedByLastMilestone,
      newBlocksSinceLastMilestone: s.newBlocksSinceLastMilestone,
      pendingBlocks: s.pendingBlocks,
    };
  }

  async issueMilestone(timestamp?: number): Promise<IssuedMilestone> {
    const outcome = await fromNative(() => this.inner.issueMilestone(timestamp));
    throwFailure(outcome.failure);
    const { failure: _, ...issued } = outcome;
    return issued;
  }

  unspentTotal(): bigint {
    return BigInt(fromNative(() => this.inner.unspentTotal()));
  }

  approximateSizeBytes(): number {
    return fromNative(() => this.inner.approximateSizeBytes());
  }
}
