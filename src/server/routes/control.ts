// Control routes (Hornet 2.0.1 `components/coreapi/control.go`): POST
// /api/core/v2/control/database/prune. Protected (not in the default public routes). The
// request lasts as long as the run, which happens off the event loop (the store's pruning
// on libuv's pool); the answer is the new pruning index.

import type Router from '@koa/router';
import { LedgerError } from '../../core/errors';
import { parseSize } from '../../core/sizes';
import { badRequest, HttpError, unavailable } from '../../http/error';
import type { PruneRequest } from '../../store-contract';
import { readBody } from '../middleware/body';
import type { ServerServices } from '../services';

/** The body is three optional fields. */
const MAX_PRUNE_BODY = 16 * 1024;

const BUSY = 'node is already creating a snapshot or pruning is running';

/** Hornet binds `index` and `depth` into uint32 milestone indexes. */
function milestoneIndex(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffff_ffff)
    throw badRequest(`invalid request, error: ${name} must be a milestone index`);
  return value;
}

export function controlRoutes(router: Router, { store, config }: ServerServices): void {
  router.post('/api/core/v2/control/database/prune', async (ctx) => {
    // Hornet looks before it reads the body.
    if (store.historyTask() !== null) throw unavailable(BUSY);
    const text = (await readBody(ctx, MAX_PRUNE_BODY)).toString('utf8');
    let body: unknown = {};
    if (text.trim() !== '') {
      const type = ctx.get('Content-Type');
      if (type !== '' && !/^application\/json\b/i.test(type))
        throw badRequest('invalid request, error: the body must be application/json');
      try {
        body = JSON.parse(text);
      } catch (err) {
        throw badRequest(`invalid request, error: ${(err as Error).message}`);
      }
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('invalid request, error: the body must be an object');
    const fields = body as { index?: unknown; depth?: unknown; targetDatabaseSize?: unknown };
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
      if (err instanceof LedgerError) {
        if (err.code === 'history-task-running') throw unavailable(BUSY);
        throw new HttpError(500, `pruning database failed: ${err.detail}`);
      }
      throw err;
    }
  });
}
