// The Koa application (api.md), the second of the HTTP API's two doors into one pipeline:
//   1. before-koa/listener.ts, the request listener in front of this app, answers the hot
//      reads (info, tips, blocks, metadata, included blocks, outputs) and the submissions
//      that get stored before Koa sees them, through the same pipeline (docs/performance.md);
//   2. everything else goes through this Koa chain, whose middleware order is the request's
//      life:
//   log → metrics → error body → CORS/preflight → auth (before routing, D19) → routes INX
//   extensions registered (proxied to them) → routes → unmatched: 405 for a known path with
//   another method, else 404.

import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { HttpError } from '../http/error';
import { auth } from './middleware/auth';
import { cors } from './middleware/cors';
import { errors } from './middleware/errors';
import { extensionProxy } from './middleware/extension-proxy';
import { requestLog } from './middleware/logging';
import { requestMetrics } from './middleware/request-metrics';
import { blocksRoutes } from './routes/blocks';
import { controlRoutes } from './routes/control';
import { whiteFlagRoutes } from './routes/whiteflag';
import { dashboardRoutes } from './routes/dashboard';
import { dashboardMetricsRoutes } from './routes/dashboard-metrics';
import { faucetRoutes } from './routes/faucet';
import { healthRoutes } from './routes/health';
import { indexerRoutes } from './routes/indexer';
import { infoRoutes } from './routes/info';
import { metricsRoutes } from './routes/metrics';
import { milestonesRoutes } from './routes/milestones';
import { mqttRoutes } from './routes/mqtt';
import { outputsRoutes } from './routes/outputs';
import { peersRoutes } from './routes/peers';
import { routesRoutes } from './routes/routes';
import { tipsRoutes } from './routes/tips';
import { transactionsRoutes } from './routes/transactions';
import { treasuryRoutes } from './routes/treasury';
import type { ServerServices } from './services';

export function createApp(services: ServerServices, jwtSecret: string): Koa {
  const app = new Koa();
  app.proxy = false;
  // Errors are answered by the error middleware; Koa's own handler would only log twice.
  app.silent = true;

  const router = new Router();
  healthRoutes(router, services);
  routesRoutes(router, services);
  infoRoutes(router, services);
  tipsRoutes(router, services);
  blocksRoutes(router, services);
  transactionsRoutes(router, services);
  outputsRoutes(router, services);
  milestonesRoutes(router, services);
  treasuryRoutes(router, services);
  indexerRoutes(router, services);
  peersRoutes(router, services);
  controlRoutes(router, services);
  whiteFlagRoutes(router, services);
  metricsRoutes(router, services);
  if (services.config.events.enabled) mqttRoutes(router);
  dashboardMetricsRoutes(router, services);
  if (services.config.dashboard.enabled) dashboardRoutes(router);
  if (services.faucet !== undefined) faucetRoutes(router, { ...services, faucet: services.faucet });

  app.use(requestLog(services.logger));
  app.use(requestMetrics(services.metrics));
  app.use(errors(services.logger));
  app.use(cors);
  app.use(auth(services.config.restApi.publicRoutes, jwtSecret));
  if (services.inx !== undefined) app.use(extensionProxy(services.inx, services.config.restApi.maxBodyBytes));
  app.use(router.routes());
  app.use(async (ctx: Context) => {
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length > 0 && !match.route) throw new HttpError(405);
    throw new HttpError(404, `no route ${ctx.path}`);
  });
  return app;
}
