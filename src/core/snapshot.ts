// Hornet snapshots from the native core (snapshot.md §6–§8): the genesis of a data directory,
// full and delta snapshots of the running store or of a data directory, a file's header,
// the store's snapshot status. Loading a snapshot is part of opening the store (store.ts).

import native from '../native';
import { fromNative } from './errors';

export interface WrittenGenesis {
  bytes: number;
  outputs: number;
  solidEntryPoints: number;
  genesisStyle: 'ledger' | 'hornet';
}

/** Write the genesis of the ledger in `dataDir` to `outFile` (which must not exist); LedgerError on failure. */
export function writeGenesisSnapshot(dataDir: string, outFile: string): WrittenGenesis {
  const written = fromNative(() => native.writeGenesisSnapshot(dataDir, outFile));
  return { ...written, genesisStyle: written.genesisStyle as WrittenGenesis['genesisStyle'] };
}

export type SnapshotKind = 'full' | 'delta';

export interface SnapshotRequest {
  kind: SnapshotKind;
  /** The target milestone index. */
  index: number;
  /** The full snapshot to write, or the one a delta continues. */
  fullPath: string;
  /** The delta to write or extend; after a recorded full snapshot, the delta to remove. */
  deltaPath?: string;
  /** Written to the node's snapshot paths (periodic): the snapshot index moves. */
  record: boolean;
  /** Test hook: microseconds to pause after every record. */
  paceMicros?: number;
}

export interface WrittenSnapshot {
  kind: SnapshotKind;
  filePath: string;
  index: number;
  targetMilestoneTimestamp: number;
  targetMilestoneId: string;
  ledgerIndex: number;
  bytes: number;
  outputs: number;
  milestoneDiffs: number;
  solidEntryPoints: number;
  micros: number;
  finishedAtMs: number;
}

export interface SnapshotStatus {
  /** A snapshot or a pruning run (the store's one history task) is in progress. */
  busy: boolean;
  snapshotIndex: number;
  last?: WrittenSnapshot;
}

/**
 * The pause the test hook asks for (`LEDGER_NODE_TEST_SNAPSHOT_PACE_US`, microseconds after
 * every record of a snapshot file): lets a test see the temporary file grow and kill the
 * writer in the middle. Unset in normal operation.
 */
export function testPace(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.LEDGER_NODE_TEST_SNAPSHOT_PACE_US;
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

export function writtenSnapshot(w: Omit<WrittenSnapshot, 'kind'> & { kind: string }): WrittenSnapshot {
  return { ...w, kind: w.kind as SnapshotKind };
}

/** A snapshot of the ledger in `dataDir` without a running node (opened read-only). */
export function createSnapshotFromDirectory(dataDir: string, request: SnapshotRequest): WrittenSnapshot {
  return writtenSnapshot(fromNative(() => native.createSnapshotFromDirectory(dataDir, request)));
}

export interface SnapshotHeader {
  kind: SnapshotKind;
  version: number;
  targetMilestoneIndex: number;
  targetMilestoneTimestamp: number;
  /** Full: its target milestone id. */
  targetMilestoneId?: string;
  /** Delta: the target milestone id of the full snapshot it continues. */
  fullSnapshotTargetMilestoneId?: string;
  genesisMilestoneIndex?: number;
  ledgerMilestoneIndex?: number;
  treasuryOutput?: { milestoneId: string; amount: string };
  protocolParameters?: unknown;
  networkName?: string;
  outputCount?: number;
  milestoneDiffCount: number;
  solidEntryPointsCount: number;
  solidEntryPointsFileOffset?: number;
  headerLength: number;
}

/** The header at the start of `bytes`; LedgerError `truncated-bytes` while more bytes are needed. */
export function readSnapshotHeader(bytes: Buffer): SnapshotHeader {
  const h = fromNative(() => native.readSnapshotHeaderBytes(bytes));
  const header: SnapshotHeader = {
    kind: h.kind as SnapshotKind,
    version: h.version,
    targetMilestoneIndex: h.targetMilestoneIndex,
    targetMilestoneTimestamp: h.targetMilestoneTimestamp,
    milestoneDiffCount: h.milestoneDiffCount,
    solidEntryPointsCount: h.solidEntryPointsCount,
    headerLength: h.headerLength,
  };
  if (h.targetMilestoneId != null) header.targetMilestoneId = h.targetMilestoneId;
  if (h.fullSnapshotTargetMilestoneId != null) header.fullSnapshotTargetMilestoneId = h.fullSnapshotTargetMilestoneId;
  if (h.genesisMilestoneIndex != null) header.genesisMilestoneIndex = h.genesisMilestoneIndex;
  if (h.ledgerMilestoneIndex != null) header.ledgerMilestoneIndex = h.ledgerMilestoneIndex;
  if (h.treasuryOutputJson != null) header.treasuryOutput = JSON.parse(h.treasuryOutputJson);
  if (h.protocolParametersJson != null) header.protocolParameters = JSON.parse(h.protocolParametersJson);
  if (h.networkName != null) header.networkName = h.networkName;
  if (h.outputCount != null) header.outputCount = h.outputCount;
  if (h.solidEntryPointsFileOffset != null) header.solidEntryPointsFileOffset = h.solidEntryPointsFileOffset;
  return header;
}
