// Periodic snapshots with Hornet's rules (snapshot.md §9; Hornet `pkg/snapshot/snapshot.go`
// `HandleNewConfirmedMilestoneEvent`, `shouldTakeSnapshot`, `optimalSnapshotType`). On the
// main thread, beside the coordinator: whenever the confirmed milestone moved and the node is
// synced, a snapshot is due once the confirmed index is `interval` milestones past the last
// snapshot + `depth`; it targets confirmed − `depth` (depth at least BMD + 5). Full or delta:
//   percentage 0 → always a delta; no full file → full; no delta file → delta; a delta up to
//   the minimum size → delta; a delta larger than percentage % of the full file → full;
//   otherwise delta.
// A full snapshot goes to `snapshots.fullPath` and removes the delta; a delta extends the one
// at `snapshots.deltaPath`. The write itself runs in the store off the event loop and takes
// no lock (snapshot.md §8). While it runs, confirmed milestones are not queued: the next look
// after it ends sees the newest index, as Hornet drops the events it gets meanwhile.

import { statSync } from 'node:fs';
import type { Logger } from 'pino';
import { parseByteSize } from '../config/load';
import type { NodeConfig } from '../config/schema';
import { LedgerError } from '../core/errors';
import { type SnapshotKind, testPace } from '../core/snapshot';
import type { LedgerStoreApi } from '../store-contract';
import { snapshotPaths } from './paths';

/** How often the confirmed index is looked at (a milestone is a second apart at the fastest). */
const LOOK_MS = 500;

export interface PeriodicRules {
  depth: number;
  interval: number;
  /** BMD + 5. */
  thresholdPast: number;
}

/** `snapshots.depth`, raised to BMD + 5 like Hornet does. */
export function effectiveDepth(depth: number, belowMaxDepth: number): number {
  return Math.max(depth, belowMaxDepth + 5);
}

/** Hornet's `shouldTakeSnapshot`. */
export function shouldTakeSnapshot(
  confirmed: number,
  rules: PeriodicRules,
  snapshotIndex: number,
  pruningIndex: number,
): boolean {
  const { depth, interval, thresholdPast } = rules;
  if (confirmed < depth + interval || confirmed - depth < pruningIndex + 1 + thresholdPast) return false;
  return confirmed - (depth + interval) >= snapshotIndex;
}

/** Hornet's `optimalSnapshotType` from the two files' sizes (undefined: no such file). */
export function optimalSnapshotType(
  percentage: number,
  minSizeBytes: number,
  fullBytes: number | undefined,
  deltaBytes: number | undefined,
): SnapshotKind {
  if (percentage === 0) return 'delta';
  if (fullBytes === undefined) return 'full';
  if (deltaBytes === undefined) return 'delta';
  if (deltaBytes <= minSizeBytes) return 'delta';
  if (Math.floor((fullBytes * percentage) / 100) < deltaBytes) return 'full';
  return 'delta';
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

export class PeriodicSnapshots {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastLooked = -1;
  private readonly rules: PeriodicRules;
  private readonly minSize: number;

  constructor(
    private readonly store: LedgerStoreApi,
    private readonly config: NodeConfig,
    belowMaxDepth: number,
    private readonly logger: Logger,
    /** Hornet snapshots only while synced. */
    private readonly synced: () => boolean,
  ) {
    const s = config.snapshots;
    const depth = effectiveDepth(s.depth, belowMaxDepth);
    if (depth !== s.depth)
      logger.warn({ depth: s.depth, raised: depth }, `parameter 'snapshots.depth' is too small: value was changed`);
    this.rules = { depth, interval: s.interval, thresholdPast: belowMaxDepth + 5 };
    this.minSize = parseByteSize(s.deltaSizeThresholdMinSize);
  }

  start(): void {
    this.timer = setInterval(() => this.look(), LOOK_MS);
    this.timer.unref();
  }

  /** Stop looking and wait for a snapshot being written. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private look(): void {
    if (this.running !== undefined) return;
    const confirmed = this.store.latestMilestoneIndex();
    if (confirmed === this.lastLooked) return;
    this.lastLooked = confirmed;
    if (!this.synced()) return;
    const { snapshotIndex, busy } = this.store.snapshotStatus();
    if (busy) return;
    if (!shouldTakeSnapshot(confirmed, this.rules, snapshotIndex, this.store.status().pruningIndex)) return;
    const paths = snapshotPaths(this.config);
    const s = this.config.snapshots;
    const kind = optimalSnapshotType(
      s.deltaSizeThresholdPercentage,
      this.minSize,
      sizeOf(paths.full),
      sizeOf(paths.delta),
    );
    const index = confirmed - this.rules.depth;
    this.logger.info({ kind, index }, `creating ${kind} snapshot`);
    this.running = this.store
      .createSnapshot({
        kind,
        index,
        fullPath: paths.full,
        deltaPath: paths.delta,
        record: true,
        paceMicros: testPace(),
      })
      .then(
        (w) =>
          this.logger.info(
            { kind, index, path: w.filePath, bytes: w.bytes, ms: Math.round(w.micros / 1000) },
            `created ${kind} snapshot for target index ${index}`,
          ),
        (err: unknown) => {
          const detail = err instanceof LedgerError ? `${err.detail} (${err.code})` : String(err);
          this.logger.warn({ kind, index }, `creating snapshot failed: ${detail}`);
        },
      )
      .finally(() => {
        this.running = undefined;
      });
  }
}
