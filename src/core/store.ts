// The ledger store (crates/ledger-store over RocksDB) behind the LedgerStoreApi contract.
// A thin adapter: ids and JSON text pass through, native failures become LedgerError
// (errors.ts reads them).

import native from '../native';
import type {
  ChainKind,
  IndexerQuery,
  IssuedMilestone,
  LedgerStoreApi,
  MilestoneRecord,
  PruneReport,
  PruneRequest,
  PruningRules,
  StartCheck,
  StoreEvent,
  StoreOptions,
  StoreStatus,
  WhiteFlagRequest,
  WhiteFlagRoots,
} from '../store-contract';
import { failureError, fromNative, fromNativeAsync } from './errors';
import { type SnapshotRequest, type SnapshotStatus, type WrittenSnapshot, writtenSnapshot } from './snapshot';
import { LruCache } from './lru-cache';
import { SubmitBatcher } from './submit-batcher';

/** Recently read blocks kept in memory (stored blocks never change): 32 MiB of bytes. */
const BLOCK_CACHE_BYTES = 32 << 20;
/** Transactions whose including block is known (final once included). */
const INCLUDED_CACHE_ENTRIES = 100_000;
/** Block metadata texts read recently: 16 MiB of text. */
const METADATA_CACHE_BYTES = 16 << 20;

/** A block's metadata text and the latest milestone index it was read at (-1: final). */
interface MetadataText {
  text: string;
  index: number;
}
import type { ProtocolJson } from './types';

type NativeStore = InstanceType<typeof native.LedgerStore>;
type SubmitOutcome = Awaited<ReturnType<NativeStore['submitBlocks']>>[number];

export class LedgerStore implements LedgerStoreApi {
  private readonly submissions: SubmitBatcher<SubmitOutcome>;
  private readonly blocks = new LruCache<Buffer>(BLOCK_CACHE_BYTES, (b) => b.length + 64);
  private readonly includedBlocks = new LruCache<string>(INCLUDED_CACHE_ENTRIES);
  private readonly metadataTexts = new LruCache<MetadataText>(METADATA_CACHE_BYTES, (m) => 2 * m.text.length + 96);
  /** The pruning index the cached blocks and metadata texts were read above. */
  private cachedAbovePruningIndex = -1;

  private constructor(
    private readonly inner: NativeStore,
    private readonly protocolJson: ProtocolJson,
  ) {
    this.submissions = new SubmitBatcher((blocks) => fromNative(() => inner.submitBlocks(blocks)));
  }

  /**
   * The store this process already has open in `dataDir`, for another thread (an HTTP
   * worker): the same RocksDB, closed once its opener and every attached handle closed.
   */
  static attach(dataDir: string): LedgerStore {
    const inner = fromNative(() => native.LedgerStore.attach(dataDir));
    return new LedgerStore(inner, JSON.parse(inner.protocolJson()) as ProtocolJson);
  }

  /** Open or create the ledger in `dataDir` (RocksDB under `dataDir/ledger`), off the event loop. */
  static async open(dataDir: string, options: StoreOptions): Promise<LedgerStore> {
    const inner = await fromNativeAsync(() =>
      native.LedgerStore.open(dataDir, {
        protocolJson: JSON.stringify(options.protocol),
        genesisOutputs: options.genesisOutputs,
        genesisStyle: options.genesisStyle ?? 'ledger',
        snapshotPath: options.snapshotPath,
        snapshotDeltaPath: options.snapshotDeltaPath,
        coordinatorEnabled: options.coordinator.enabled,
        coordinatorPrivateKeys: options.coordinator.privateKeys,
        coordinatorPublicKeys: options.coordinator.publicKeys,
        publicKeyRanges: options.milestoneKeys?.ranges,
        milestonePublicKeyCount: options.milestoneKeys?.count,
        syncWrites: options.syncWrites,
        blockCacheMib: options.blockCacheMiB,
        writeBuffersMib: options.writeBuffersMiB,
        maxDeltaYcri: options.tips.maxDeltaYcri,
        maxDeltaOcri: options.tips.maxDeltaOcri,
        indexerEnabled: options.indexer.enabled,
      }),
    );
    return new LedgerStore(inner, JSON.parse(inner.protocolJson()) as ProtocolJson);
  }

  close(): void {
    this.inner.close();
  }

  /** The native store, for the gossip binding (`GossipNode.start`), which runs over it. */
  get native(): NativeStore {
    return this.inner;
  }

  /** The persisted protocol parameters (fixed when the data directory was created). */
  protocol(): ProtocolJson {
    return this.protocolJson;
  }

  isReady(): boolean {
    return fromNative(() => this.inner.isReady());
  }

  selectTips(): string[] {
    return fromNative(() => this.inner.selectTips());
  }

  selectTipsJson(): string {
    return fromNative(() => this.inner.selectTipsJson());
  }

  async submitBlock(bytes: Buffer): Promise<{ blockId: string; stored: boolean }> {
    const outcome = await this.submissions.submit(bytes);
    if (outcome.failure) throw failureError(outcome.failure);
    return { blockId: outcome.blockId!, stored: outcome.stored };
  }

  async precheckBlock(bytes: Buffer): Promise<void> {
    await fromNativeAsync(() => this.inner.precheckBlock(bytes));
  }

  /**
   * Cached blocks and metadata texts are final until pruning deletes them: when the pruning
   * index moved since the last read, both caches start again (pruning is rare; one native
   * read of an integer per lookup tells).
   */
  private forgetPruned(): void {
    const index = fromNative(() => this.inner.pruningIndex());
    if (index === this.cachedAbovePruningIndex) return;
    this.blocks.clear();
    this.metadataTexts.clear();
    this.cachedAbovePruningIndex = index;
  }

  /** The same Buffer object for repeated reads of a cached block (callers must not modify it). */
  getBlock(blockId: string): Buffer | null {
    this.forgetPruned();
    return this.blocks.getOrLoad(blockId, () => fromNative(() => this.inner.getBlock(blockId)) ?? null);
  }

  /**
   * A referenced block's metadata is final until pruned (`forgetPruned`). A solid unreferenced
   * block's changes only with a milestone: its reference, and its tip score, which depends
   * on its cone roots and the confirmed index alone. So texts are kept, the latter until
   * the latest milestone index moves; a block that is not solid yet (gossip) is read anew.
   */
  getBlockMetadata(blockId: string): string | null {
    this.forgetPruned();
    const index = this.latestMilestoneIndex();
    const cached = this.metadataTexts.get(blockId);
    if (cached !== undefined && (cached.index === -1 || cached.index === index)) return cached.text;
    const text = fromNative(() => this.inner.getBlockMetadata(blockId)) ?? null;
    if (text === null) return null;
    if (text.includes('"referencedByMilestoneIndex"')) this.metadataTexts.set(blockId, { text, index: -1 });
    else if (text.includes('"isSolid":true')) this.metadataTexts.set(blockId, { text, index });
    return text;
  }

  getBlockChildren(blockId: string, max: number): string[] | null {
    return fromNative(() => this.inner.getBlockChildren(blockId, max)) ?? null;
  }

  getIncludedBlockId(transactionId: string): string | null {
    // Only a positive answer is final (and cached): a pending transaction may be included later.
    return this.includedBlocks.getOrLoad(
      transactionId,
      () => fromNative(() => this.inner.getIncludedBlockId(transactionId)) ?? null,
    );
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

  latestMilestoneIndex(): number {
    return fromNative(() => this.inner.latestMilestoneIndex());
  }

  storageFull(): boolean {
    return fromNative(() => this.inner.storageFull());
  }

  whiteFlag(request: WhiteFlagRequest): Promise<WhiteFlagRoots> {
    return fromNativeAsync(() => this.inner.whiteFlag(request));
  }

  startCheck(): StartCheck | null {
    return fromNative(() => this.inner.startCheck()) ?? null;
  }

  status(): StoreStatus {
    const s = fromNative(() => this.inner.status());
    const latest = s.latestMilestone;
    // Right after a snapshot was loaded the latest milestone is its target, which the node
    // does not have: Hornet shows it as {"index": T} alone (snapshot.md §4, its §4.4).
    const unknown =
      latest.timestamp == null ||
      (latest.index > 0 && latest.index === s.pruningIndex && this.getMilestoneByIndex(latest.index) === null);
    return {
      latestMilestone: unknown
        ? { index: latest.index }
        : { index: latest.index, timestamp: latest.timestamp!, milestoneId: latest.milestoneId ?? undefined },
      ledgerIndex: s.ledgerIndex,
      pruningIndex: s.pruningIndex,
      blocksStored: s.blocksStored,
      pendingBlocks: s.pendingBlocks,
      blocksBelowMaxDepth: s.blocksBelowMaxDepth,
      ...(s.lastInterval ? { lastInterval: s.lastInterval } : {}),
      storageFull: s.storageFull,
    };
  }

  issueCheckpoints(): Promise<number> {
    return fromNativeAsync(() => this.inner.issueCheckpoints());
  }

  issueMilestone(timestamp?: number): Promise<IssuedMilestone> {
    return fromNativeAsync(() => this.inner.issueMilestone(timestamp));
  }

  queryOutputs(query: IndexerQuery): Promise<Buffer> {
    return fromNativeAsync(() => this.inner.queryOutputs(query));
  }

  getChainOutput(kind: ChainKind, id: string): string | null {
    return fromNative(() => this.inner.getChainOutput(kind, id)) ?? null;
  }

  approximateSizeBytes(): number {
    return fromNative(() => this.inner.approximateSizeBytes());
  }

  prune(request: PruneRequest): Promise<PruneReport> {
    return fromNativeAsync(() => this.inner.prune(request));
  }

  startPruning(config: PruningRules): void {
    fromNative(() => this.inner.startPruning(config));
  }

  historyTask(): 'pruning' | 'snapshot' | null {
    return (fromNative(() => this.inner.historyTask()) as 'pruning' | 'snapshot' | null) ?? null;
  }

  pruningIndex(): number {
    return fromNative(() => this.inner.pruningIndex());
  }

  approximateSizes(): { name: string; bytes: number }[] {
    return fromNative(() => this.inner.approximateSizes());
  }

  onEvents(listener: (event: StoreEvent) => void): void {
    fromNative(() =>
      this.inner.onEvents((event) => {
        // Called from native code: an exception here would be uncaught and end the process.
        try {
          listener(event);
        } catch (err) {
          process.emitWarning(`store event listener failed: ${(err as Error).stack ?? String(err)}`);
        }
      }),
    );
  }

  setEventsActive(active: boolean): void {
    fromNative(() => this.inner.setEventsActive(active));
  }

  storageMemoryBytes(): number {
    return fromNative(() => this.inner.storageMemoryBytes());
  }

  /** `{"milestoneId":…,"amount":…}`: the unspent treasury output (TIP-25 `/treasury`). */
  treasuryJson(): string {
    return fromNative(() => native.treasuryJson(this.inner));
  }

  /** `{"receipts":[…]}`: all receipts, or those of one migratedAt index (TIP-25 `/receipts`). */
  receiptsJson(migratedAt?: number): string {
    return fromNative(() => native.receiptsJson(this.inner, migratedAt));
  }

  /** A full or delta snapshot of this store, off the event loop (snapshot.md §8). */
  async createSnapshot(request: SnapshotRequest): Promise<WrittenSnapshot> {
    return writtenSnapshot(await fromNativeAsync(() => native.createSnapshot(this.inner, request)));
  }

  /** Whether a snapshot is being written, the snapshot index, the last one written. */
  snapshotStatus(): SnapshotStatus {
    const s = fromNative(() => native.snapshotStatus(this.inner));
    return {
      busy: s.busy,
      snapshotIndex: s.snapshotIndex,
      ...(s.last ? { last: writtenSnapshot(s.last) } : {}),
    };
  }
}
