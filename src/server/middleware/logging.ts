// One structured log line per request: method, path, status, duration in ms.

import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

export function requestLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        const ms = Math.round((performance.now() - start) * 1000) / 1000;
        logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
      }
    }
  };
}
