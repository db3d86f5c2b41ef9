// GET /health (api.md §2.1): 200 with an empty body, or 503.

import type Router from '@koa/router';
import { isHealthy } from '../lib/node-health';
import { unavailable } from '../../http/error';
import type { ServerServices } from '../services';

export function healthRoutes(router: Router, { store, config, gossip }: ServerServices): void {
  router.get('/health', (ctx) => {
    if (!isHealthy(store, config, gossip)) throw unavailable('node is not healthy');
    ctx.status = 200;
    ctx.body = '';
  });
}
