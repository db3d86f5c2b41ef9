// /api/core/v2/transactions/{transactionId}/included-block (+ /metadata), api.md §2.10–2.11:
// the block whose transaction a milestone applied (ledger.md §11).

import type Router from '@koa/router';
import type { Context } from 'koa';
import { notFound } from '../lib/http-error';
import { cachedBlockJsonText } from '../lib/json-text';
import { sendJsonOrBinary, sendJsonText } from '../middleware/media';
import { id32Param } from '../lib/params';
import type { ServerServices } from '../services';

export function transactionsRoutes(router: Router, { store }: ServerServices): void {
  const includedBlockId = (ctx: Context & { params: Record<string, string> }): string => {
    const id = id32Param(ctx.params.transactionId, 'transactionId');
    const blockId = store.getIncludedBlockId(id);
    if (blockId === null) {
      // The transaction-id index tells "never seen" apart from "seen, not (yet) included".
      const carriers = store.getBlocksWithTransaction(id).length;
      throw notFound(carriers === 0 ? `transaction ${id} not found` : `transaction ${id} not included (carried by ${carriers} block(s) not confirmed as included)`);
    }
    return blockId;
  };

  router.get('/api/core/v2/transactions/:transactionId/included-block', (ctx) => {
    const blockId = includedBlockId(ctx);
    const bytes = store.getBlock(blockId);
    if (bytes === null) throw notFound(`block ${blockId} not found`);
    sendJsonOrBinary(ctx, bytes, () => cachedBlockJsonText(bytes));
  });

  router.get('/api/core/v2/transactions/:transactionId/included-block/metadata', (ctx) => {
    const blockId = includedBlockId(ctx);
    const metadata = store.getBlockMetadata(blockId);
    if (metadata === null) throw notFound(`block ${blockId} not found`);
    sendJsonText(ctx, metadata);
  });
}
