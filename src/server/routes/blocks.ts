// /api/core/v2/blocks: submit (api.md §2.5, pipeline in submit.ts), the block by ID
// (§2.6, JSON or raw), its metadata (§2.7) and its children (Hornet's route, docs/dashboard.md).

import type Router from '@koa/router';
import { notFound } from '../../http/error';
import { blockNotFound } from '../lib/not-found';
import { cachedBlockJsonText } from '../../http/json-text';
import { sendJsonOrBinary, sendJsonText } from '../middleware/media';
import { id32Param } from '../lib/params';
import type { ServerServices } from '../services';
import { BlockSubmitter } from '../pipeline/submit';

/** Hornet's default `restAPI.limits.maxResults`: the most children one answer lists. */
const MAX_CHILDREN = 1000;

export function blocksRoutes(router: Router, services: ServerServices): void {
  const { store } = services;
  const submitter = new BlockSubmitter(services);

  router.post('/api/core/v2/blocks', async (ctx) => {
    const blockId = await submitter.submit(ctx);
    ctx.status = 201;
    ctx.set('Location', blockId);
    ctx.type = 'application/json';
    ctx.body = `{"blockId":"${blockId}"}`;
  });

  router.get('/api/core/v2/blocks/:blockId', (ctx) => {
    const id = id32Param(ctx.params.blockId, 'blockId');
    const bytes = store.getBlock(id);
    if (bytes === null) throw notFound(blockNotFound(id));
    sendJsonOrBinary(ctx, bytes, () => cachedBlockJsonText(bytes));
  });

  router.get('/api/core/v2/blocks/:blockId/metadata', (ctx) => {
    const id = id32Param(ctx.params.blockId, 'blockId');
    const metadata = store.getBlockMetadata(id);
    if (metadata === null) throw notFound(blockNotFound(id));
    sendJsonText(ctx, metadata);
  });

  router.get('/api/core/v2/blocks/:blockId/children', (ctx) => {
    const id = id32Param(ctx.params.blockId, 'blockId');
    const children = store.getBlockChildren(id, MAX_CHILDREN);
    if (children === null) throw notFound(blockNotFound(id));
    ctx.body = { blockId: id, maxResults: MAX_CHILDREN, count: children.length, children };
  });
}
