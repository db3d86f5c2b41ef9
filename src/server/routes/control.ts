// Control routes (Hornet 2.0.1 `components/coreapi/control.go`, TIP-25), protected like every
// route outside the public list (a JWT, as Hornet requires for `/api/*`). Each request lasts
// as long as its work, which runs off the event loop (the store's tasks on libuv's pool).
//
// POST /api/core/v2/control/database/prune with one of index, depth or targetDatabaseSize:
// the answer is the new pruning index.
//
// POST /api/core/v2/control/snapshots/create — Hornet's spelling — and
// POST /api/core/v2/control/snapshot/create — TIP-25's — with {"index": N}: a full snapshot
// of target N written to `full_snapshot_<N>.bin` beside `snapshots.fullPath`, answered
// {"index": N, "filePath": "<path>"} once it is written (snapshot.md §8). It does not move the
// snapshot index and leaves the node's own snapshot files alone (Hornet's writeToDatabase
// false). Refusals as Hornet words them: 503 while a snapshot or pruning runs, 400 for a body
// that does not bind or has no index, 500 "creating snapshot failed: …" for a target out of
// reach.

import type Router from '@koa/router';
import type { Context } from 'koa';
import { LedgerError } from '../../core/errors';
import { testPace } from '../../core/snapshot';
import { parseSize } from '../../core/sizes';
import { badRequest, HttpError, unavailable } from '../../http/error';
import { requestedSnapshotPath, snapshotPaths } from '../../snapshots/paths';
import type { PruneRequest } from '../../store-contract';
import { readBody } from '../middleware/body';
import type { ServerServices } from '../services';

const BUSY = 'node is already creating a snapshot or pruning is running';
/** Both bodies are a few optional fields. */
const MAX_BODY = 16 * 1024;

/**
 * The request body as Hornet's binder (echo) reads it, for both routes: an empty body binds
 * nothing; otherwise JSON (when a Content-Type is given, it must say so), and an object.
 */
async function bindBody(ctx: Context): Promise<Record<string, unknown>> {
  const text = (await readBody(ctx, MAX_BODY)).toString('utf8');
  if (text.trim() === '') return {};
  const type = ctx.get('Content-Type');
  if (type !== '' && !/^application\/json\b/i.test(type))
    throw badRequest('invalid request, error: code=415, message=Unsupported Media Type');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw badRequest(`invalid request, error: ${(err as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('invalid request, error: the body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Hornet binds `index` and `depth` into uint32 milestone indexes. */
function milestoneIndex(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffff_ffff)
    throw badRequest(`invalid request, error: ${name} must be a milestone index (an integer 0..4294967295)`);
  return value;
}

/** The store refuses a second history task with `history-task-running`: Hornet's 503. */
function historyError(err: unknown, failed: string): unknown {
  if (!(err instanceof LedgerError)) return err;
  if (err.code === 'history-task-running') return unavailable(BUSY);
  return new HttpError(500, `${failed}: ${err.detail}`);
}

export function controlRoutes(router: Router, { store, config }: ServerServices): void {
  router.post('/api/core/v2/control/database/prune', async (ctx) => {
    // Hornet looks before it reads the body.
    if (store.historyTask() !== null) throw unavailable(BUSY);
    const fields = await bindBody(ctx);
    const index = milestoneIndex(fields.index, 'index');
    const depth = milestoneIndex(fields.depth, 'depth');
    const size = fields.targetDatabaseSize ?? undefined;
    if (size !== undefined && typeof size !== 'string')
      throw badRequest('invalid request, error: targetDatabaseSize must be a string such as "20GB"');
    if ([index, depth, size].filter((v) => v !== undefined).length !== 1)
      throw badRequest('either index, depth or size has to be specified');

    const request: PruneRequest = { thresholdPercentage: config.pruning.size.thresholdPercentage };
    if (index !== undefined) request.index = index;
    else if (depth !== undefined) request.depth = depth;
    else {
      try {
        request.targetBytes = parseSize(size as string);
      } catch (err) {
        throw new HttpError(500, `pruning database failed: ${(err as Error).message}`);
      }
    }
    try {
      const report = await store.prune(request);
      ctx.body = { index: report.index };
    } catch (err) {
      throw historyError(err, 'pruning database failed');
    }
  });

  const createSnapshot = async (ctx: Context) => {
    if (store.snapshotStatus().busy) throw unavailable(BUSY);
    const index = milestoneIndex((await bindBody(ctx)).index, 'index') ?? 0;
    if (index === 0) throw badRequest('index needs to be specified');
    const filePath = requestedSnapshotPath(snapshotPaths(config), index);
    try {
      await store.createSnapshot({ kind: 'full', index, fullPath: filePath, record: false, paceMicros: testPace() });
    } catch (err) {
      throw historyError(err, 'creating snapshot failed');
    }
    ctx.body = { index, filePath };
  };
  router.post('/api/core/v2/control/snapshots/create', createSnapshot);
  router.post('/api/core/v2/control/snapshot/create', createSnapshot);
}
