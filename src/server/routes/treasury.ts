// The treasury and receipts (TIP-25; Hornet `components/coreapi/utxo.go`, `receipts.go`):
// GET /api/core/v2/treasury — the unspent treasury output {"milestoneId", "amount"} (a
// network without migration has the zero one, which Hornet answers too); GET
// /api/core/v2/receipts and /receipts/{migratedAt} — {"receipts": […]}, an empty list when
// there are none. Public routes, as in Hornet.

import type Router from '@koa/router';
import { indexParam } from '../lib/params';
import type { ServerServices } from '../services';

export function treasuryRoutes(router: Router, { store }: ServerServices): void {
  router.get('/api/core/v2/treasury', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = store.treasuryJson();
  });
  router.get('/api/core/v2/receipts', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = store.receiptsJson();
  });
  router.get('/api/core/v2/receipts/:migratedAt', (ctx) => {
    const migratedAt = indexParam(ctx.params.migratedAt);
    ctx.type = 'application/json';
    ctx.body = store.receiptsJson(migratedAt);
  });
}
