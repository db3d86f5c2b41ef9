// GET /metrics: Prometheus text format. Not public by default (needs a JWT).

import type Router from '@koa/router';
import type { ServerServices } from '../services';

export function metricsRoutes(router: Router, { metrics }: ServerServices): void {
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.text();
  });
}
