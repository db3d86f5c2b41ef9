// GET /api/core/v2/info (api.md §2.3), built once per milestone (lib/node-info.ts).

import type Router from '@koa/router';
import { NodeInfo } from '../lib/node-info';
import { sendJsonText } from '../middleware/media';
import type { ServerServices } from '../services';

export function infoRoutes(router: Router, { store, config, protocol, version, gossip }: ServerServices): void {
  const info = new NodeInfo(store, config, protocol, version, gossip);
  router.get('/api/core/v2/info', (ctx) => {
    sendJsonText(ctx, info.jsonText());
  });
}
