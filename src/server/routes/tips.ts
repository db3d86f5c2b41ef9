// GET /api/core/v2/tips (api.md §2.4): 2..8 sorted IDs from the store's tip selection.

import type Router from '@koa/router';
import type { ServerServices } from '../services';
import { selectTips } from '../pipeline/tips';

export function tipsRoutes(router: Router, services: ServerServices): void {
  router.get('/api/core/v2/tips', (ctx) => {
    ctx.body = { tips: selectTips(services) };
  });
}
