// GET /api/routes (api.md §2.2): the API groups this node serves.

import type Router from '@koa/router';

export function routesRoutes(router: Router): void {
  const body = JSON.stringify({ routes: ['core/v2'] });
  router.get('/api/routes', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
}
