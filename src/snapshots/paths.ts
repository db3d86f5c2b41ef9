// Where the node's snapshot files live (docs/snapshots.md): Hornet's `snapshots.fullPath`
// and `snapshots.deltaPath`; empty means inside the data directory, under `snapshots/`
// (Hornet's defaults are relative to its working directory, `mainnet/snapshots/…`).

import { dirname, join } from 'node:path';
import type { NodeConfig } from '../config/schema';

export interface SnapshotPaths {
  full: string;
  delta: string;
}

export function snapshotPaths(config: Pick<NodeConfig, 'dataDir' | 'snapshots'>): SnapshotPaths {
  const dir = join(config.dataDir, 'snapshots');
  return {
    full: config.snapshots.fullPath || join(dir, 'full_snapshot.bin'),
    delta: config.snapshots.deltaPath || join(dir, 'delta_snapshot.bin'),
  };
}

/** Where `control/snapshots/create` writes a full snapshot of `index`: Hornet's `full_snapshot_<N>.bin` beside `fullPath`. */
export function requestedSnapshotPath(paths: SnapshotPaths, index: number): string {
  return join(dirname(paths.full), `full_snapshot_${index}.bin`);
}
