// /api/core/v2/transactions/{transactionId}/included-block (+ /metadata), api.md §2.10–2.11:
// the block whose transaction a milestone applied (ledger.md §11).

import type Router from '@koa/router';
import type { Context } from 'koa';
import { notFound } from '../../http/error';
import { cachedBlockJsonText } from '../../http/json-text';
import { blockNotFound, transactionNotIncluded } from '../lib/not-found';
import { sendJsonOrBinary, sendJsonText } from '../middleware/media';
import { id32Param } from '../lib/params';
import type { ServerServices } from '../services';

export function transactionsRoutes(router: Router, { store }: ServerServices): void {
  const includedBlockId = (ctx: Context & { params: Record<string, string> }): string => {
    const id = id32Param(ctx.params.transactionId, 'transactionId');
    const blockId = store.getIncludedBlockId(id);
    if (blockId === null) throw notFound(transactionNotIncluded(store, id));
    return blockId;
  };

  router.get('/api/core/v2/transactions/:transactionId/included-block', (ctx) => {
    const blockId = includedBlockId(ctx);
    const bytes = store.getBlock(blockId);
    if (bytes === null) throw notFound(blockNotFound(blockId));
    sendJsonOrBinary(ctx, bytes, () => cachedBlockJsonText(bytes));
  });

  router.get('/api/core/v2/transactions/:transactionId/included-block/metadata', (ctx) => {
    const blockId = includedBlockId(ctx);
    const metadata = store.getBlockMetadata(blockId);
    if (metadata === null) throw notFound(blockNotFound(blockId));
    sendJsonText(ctx, metadata);
  });
}
