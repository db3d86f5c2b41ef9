// `snapshots.downloadURLs` (snapshot.md §9; Hornet `pkg/snapshot/download.go`): a new data
// directory with no snapshot files fetches a full (and delta) snapshot from the first of the
// configured sources that offers the newest ledger.
//
// Every entry's full header is fetched (GET, 5 s, only the header's bytes are read, status
// 200), then its delta's; an entry whose full snapshot is of another network is skipped, a
// delta that does not continue its full snapshot (or cannot be read) is left out. Entries are
// tried newest first (the delta's target, else the full's): the full file is downloaded
// (10 min) to `<path>.tmp` and renamed when complete, then the delta the same way (a failed
// delta only warns). What was downloaded is reported so that the caller can remove it if the
// files are then refused.

import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { SnapshotDownloadTarget } from '../config/schema';
import { LedgerError } from '../core/errors';
import { readSnapshotHeader, type SnapshotHeader } from '../core/snapshot';
import type { SnapshotPaths } from './paths';

export const HEADER_TIMEOUT_MS = 5_000;
export const FILE_TIMEOUT_MS = 10 * 60_000;
/** A full header is 106 bytes plus a protocol parameters option of at most 64 KiB. */
const MAX_HEADER_BYTES = 106 + 65_536;

export class SnapshotDownloadError extends Error {}

/** The header at the start of the file at `url`; only as many bytes as it takes are read. */
export async function fetchHeader(url: string, timeoutMs = HEADER_TIMEOUT_MS): Promise<SnapshotHeader> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new SnapshotDownloadError(`download failed, server returned status code ${res.status}`);
  }
  const reader = res.body!.getReader();
  let bytes = Buffer.alloc(0);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value !== undefined) bytes = Buffer.concat([bytes, value]);
      try {
        return readSnapshotHeader(bytes);
      } catch (err) {
        const truncated = err instanceof LedgerError && err.code === 'truncated-bytes';
        if (!truncated || done || bytes.length > MAX_HEADER_BYTES) throw err;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Stream `url` to `<path>.tmp`, rename it to `path` once complete (status 200 only). */
export async function downloadFile(url: string, path: string, timeoutMs = FILE_TIMEOUT_MS): Promise<number> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (res.status !== 200 || res.body === null) {
    await res.body?.cancel();
    throw new SnapshotDownloadError(`download failed, server returned status code ${res.status}`);
  }
  const temp = `${path}.tmp`;
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await mkdir(dirname(path), { recursive: true });
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      count,
      createWriteStream(temp),
    );
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw new SnapshotDownloadError(`download failed: ${(err as Error).message}`);
  }
  return bytes;
}

interface Candidate {
  target: SnapshotDownloadTarget;
  full: SnapshotHeader;
  delta?: SnapshotHeader;
  /** The ledger index the files would give: the delta's target, else the full's. */
  index: number;
}

/** The usable entries, newest first (Hornet's `filterTargets`). */
export async function usableTargets(
  targets: SnapshotDownloadTarget[],
  networkName: string,
  logger: Logger,
  timeoutMs = HEADER_TIMEOUT_MS,
): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const target of targets) {
    let full: SnapshotHeader;
    try {
      full = await fetchHeader(target.full, timeoutMs);
      if (full.kind !== 'full') throw new SnapshotDownloadError('not a full snapshot');
    } catch (err) {
      logger.debug({ url: target.full, err: (err as Error).message }, 'full snapshot header unavailable');
      continue;
    }
    if (full.networkName !== networkName) {
      logger.info(
        { full: target.full, delta: target.delta, network: full.networkName, expected: networkName },
        'snapshot consistency check failed: another network',
      );
      continue;
    }
    let delta: SnapshotHeader | undefined;
    if (target.delta) {
      try {
        delta = await fetchHeader(target.delta, timeoutMs);
        if (delta.kind !== 'delta' || delta.fullSnapshotTargetMilestoneId !== full.targetMilestoneId) {
          logger.info(
            { full: target.full, delta: target.delta },
            'the delta snapshot does not continue the full snapshot: only the full one is used',
          );
          delta = undefined;
        }
      } catch (err) {
        logger.debug({ url: target.delta, err: (err as Error).message }, 'delta snapshot header unavailable');
        delta = undefined;
      }
    }
    found.push({
      target: delta ? target : { full: target.full },
      full,
      delta,
      index: delta?.targetMilestoneIndex ?? full.targetMilestoneIndex,
    });
  }
  // Stable: among equal indexes the configured order stays.
  return found.sort((a, b) => b.index - a.index);
}

export interface Downloaded {
  /** The files now in place (to remove again if they are refused). */
  files: string[];
  source: SnapshotDownloadTarget;
  index: number;
}

/** Download the newest usable full (and delta) snapshot to `paths`; one-line error when none works. */
export async function downloadSnapshots(
  targets: SnapshotDownloadTarget[],
  networkName: string,
  paths: SnapshotPaths,
  logger: Logger,
): Promise<Downloaded> {
  logger.info({ targets }, 'downloading snapshot files from one of the provided sources');
  for (const candidate of await usableTargets(targets, networkName, logger)) {
    const { target } = candidate;
    try {
      const bytes = await downloadFile(target.full, paths.full);
      logger.info({ url: target.full, path: paths.full, bytes }, 'full snapshot downloaded');
    } catch (err) {
      logger.warn({ url: target.full, err: (err as Error).message }, 'full snapshot download failed');
      continue;
    }
    const files = [paths.full];
    if (target.delta) {
      try {
        const bytes = await downloadFile(target.delta, paths.delta);
        files.push(paths.delta);
        logger.info({ url: target.delta, path: paths.delta, bytes }, 'delta snapshot downloaded');
      } catch (err) {
        logger.warn({ url: target.delta, err: (err as Error).message }, 'delta snapshot download failed');
      }
    }
    return {
      files,
      source: target,
      index: files.length > 1 ? candidate.index : candidate.full.targetMilestoneIndex,
    };
  }
  throw new SnapshotDownloadError('no valid source found, snapshot download not possible');
}
