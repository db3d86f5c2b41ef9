// GET /api/routes (api.md §2.2, D32): the API groups this node serves, then those INX
// extensions registered (RegisterAPIRoute), in registration order, as Hornet lists them.

import type Router from '@koa/router';
import type { ServerServices } from '../services';

export function routesRoutes(router: Router, { config, faucet, inx }: ServerServices): void {
  const routes = ['core/v2'];
  if (config.indexer.enabled) routes.push('indexer/v1');
  if (config.events.enabled) routes.push('mqtt/v1');
  routes.push('dashboard-metrics/v1');
  if (faucet !== undefined) routes.push('faucet/v1');
  const body = JSON.stringify({ routes });
  router.get('/api/routes', (ctx) => {
    ctx.type = 'application/json';
    const registered = inx?.routes() ?? [];
    ctx.body = registered.length === 0 ? body : JSON.stringify({ routes: [...routes, ...registered] });
  });
}
