// /api/mqtt/v1 as a plain HTTP route (events.md §1): the event API is reached by a
// WebSocket upgrade, which src/events/server.ts takes before Koa sees the request. A GET
// without the upgrade is 400; other methods fall through to 405.

import type Router from '@koa/router';
import { badRequest } from '../../http/error';
import { EVENTS_PATH } from '../../http/paths';

export function mqttRoutes(router: Router): void {
  router.get(EVENTS_PATH, () => {
    throw badRequest('WebSocket upgrade expected');
  });
}
