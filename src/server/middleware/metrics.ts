// Counts every request by method, route pattern (never the raw path, which would explode
// label cardinality) and status, and times it.

import type { Context, Next } from 'koa';
import type { NodeMetrics } from '../metrics';

export function requestMetrics(metrics: NodeMetrics) {
  return async function countRequest(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      metrics.requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      metrics.requestSeconds.observe({ route }, (performance.now() - start) / 1000);
    }
  };
}
