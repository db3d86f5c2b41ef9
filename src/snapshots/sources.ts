// What a new data directory starts from (snapshot.md §9, docs/snapshots.md), in this order:
//   1. `snapshot.loadPath` (a full snapshot), with `snapshots.deltaPath` on top when that file exists;
//   2. `snapshots.fullPath` when that file exists, with `snapshots.deltaPath` when it exists
//      (a delta without its full snapshot is refused, as Hornet refuses it);
//   3. `snapshots.downloadURLs`, downloaded to those two paths (Hornet downloads only when
//      neither file exists);
//   4. the built-in genesis.
// Files downloaded here and then refused by the store are removed again (`discard`), so a
// failed start leaves the data directory as it found it.

import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { NodeConfig } from '../config/schema';
import { downloadSnapshots, SnapshotDownloadError } from './download';
import { snapshotPaths } from './paths';

export class SnapshotSourceError extends Error {}

export interface InitialSnapshot {
  full?: string;
  delta?: string;
  /** Files this start downloaded, and folders it created for them. */
  downloaded: string[];
  createdDirs: string[];
}

export async function initialSnapshot(
  config: NodeConfig,
  networkName: string,
  logger: Logger,
): Promise<InitialSnapshot> {
  const paths = snapshotPaths(config);
  const none: InitialSnapshot = { downloaded: [], createdDirs: [] };
  if (config.snapshot.loadPath !== '') {
    return { ...none, full: config.snapshot.loadPath, ...(existsSync(paths.delta) ? { delta: paths.delta } : {}) };
  }
  const full = existsSync(paths.full);
  const delta = existsSync(paths.delta);
  if (delta && !full)
    throw new SnapshotSourceError(
      `invalid snapshot files availability: there exists a delta snapshot (${paths.delta}) but not a full snapshot file (${paths.full}), delete the delta snapshot file and restart`,
    );
  if (full) return { ...none, full: paths.full, ...(delta ? { delta: paths.delta } : {}) };
  if (config.snapshots.downloadURLs.length === 0) return none;
  const createdDirs = [dirname(paths.full), dirname(paths.delta)].filter(
    (dir, i, all) => !existsSync(dir) && all.indexOf(dir) === i,
  );
  try {
    const got = await downloadSnapshots(config.snapshots.downloadURLs, networkName, paths, logger);
    return {
      full: paths.full,
      ...(got.files.includes(paths.delta) ? { delta: paths.delta } : {}),
      downloaded: got.files,
      createdDirs,
    };
  } catch (err) {
    discard({ ...none, createdDirs });
    if (err instanceof SnapshotDownloadError)
      throw new SnapshotSourceError(`unable to download snapshot files: ${err.message}`);
    throw err;
  }
}

/** Remove what `initialSnapshot` downloaded (the store refused it). */
export function discard(initial: InitialSnapshot): void {
  for (const file of initial.downloaded) rmSync(file, { force: true });
  for (const dir of [...initial.createdDirs].reverse()) {
    try {
      if (readdirSync(dir).length === 0) rmdirSync(dir);
    } catch {
      // already gone
    }
  }
}
