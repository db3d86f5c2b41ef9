// POST /api/core/v2/whiteflag (TIP-25; Hornet 2.0.1 `components/coreapi/whiteflag.go`): the
// inclusion and applied merkle roots a milestone with the given index, timestamp, parents and
// previous milestone would carry, computed without writing anything. inx-coordinator's quorum
// asks other nodes this to compare with its own node's answer (INX ComputeWhiteFlag, the same
// computation in the store). Not a public route: a JWT, as on Hornet. Answers as Hornet:
// 400 for a body that does not bind or names no parents, 503 when the index is not the next
// milestone's or a parent did not arrive within 2 s, 500 for anything else.

import type Router from '@koa/router';
import { LedgerError } from '../../core/errors';
import { badRequest, HttpError, unavailable } from '../../http/error';
import { readBody } from '../middleware/body';
import type { ServerServices } from '../services';

const MAX_BODY = 64 * 1024;
const ID = /^0x[0-9a-fA-F]{64}$/;

function uint32(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffff_ffff)
    throw badRequest(`invalid parameter, error: ${name} must be an integer 0..4294967295`);
  return value;
}

export function whiteFlagRoutes(router: Router, { store }: ServerServices): void {
  router.post('/api/core/v2/whiteflag', async (ctx) => {
    let body: unknown;
    try {
      body = JSON.parse((await readBody(ctx, MAX_BODY)).toString('utf8'));
    } catch (err) {
      throw badRequest(`invalid parameter, error: ${(err as Error).message}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('invalid parameter, error: the body must be a JSON object');
    const fields = body as { index?: unknown; timestamp?: unknown; parents?: unknown; previousMilestoneId?: unknown };
    const index = uint32(fields.index, 'index');
    const timestamp = uint32(fields.timestamp, 'timestamp');
    const parents = fields.parents ?? [];
    if (!Array.isArray(parents) || !parents.every((p) => typeof p === 'string' && ID.test(p)))
      throw badRequest('invalid parameter, error: parents must be block ids (0x and 64 hex digits)');
    const previous = fields.previousMilestoneId ?? '';
    if (typeof previous !== 'string' || (previous !== '' && !ID.test(previous)))
      throw badRequest('invalid parameter, error: previousMilestoneId must be a milestone id');
    try {
      ctx.body = await store.whiteFlag({ index, timestamp, parents, previousMilestoneId: previous });
    } catch (err) {
      if (!(err instanceof LedgerError)) throw err;
      const message = `failed to compute white flag mutations: ${err.detail}`;
      if (err.code === 'white-flag-parents-missing') throw badRequest(message);
      if (err.code === 'not-synced' || err.code === 'white-flag-parent-unknown') throw unavailable(message);
      throw new HttpError(500, message);
    }
  });
}
