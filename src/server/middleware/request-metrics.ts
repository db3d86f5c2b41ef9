// Counts every request by method, route pattern (never the raw path, which would explode
// label cardinality) and status, and times it. The labelled series are looked up once per
// distinct label set and kept: prom-client would otherwise hash the labels every request.

import type { Context, Next } from 'koa';
import type { NodeMetrics } from '../lib/node-metrics';

export function requestMetrics(metrics: NodeMetrics) {
  const counters = new Map<string, { inc(): void }>();
  const timers = new Map<string, { observe(seconds: number): void }>();
  return async function countRequest(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const status = String(ctx.status);
      const key = `${ctx.method} ${route} ${status}`;
      let counter = counters.get(key);
      if (counter === undefined) counters.set(key, (counter = metrics.requests.labels(ctx.method, route, status)));
      counter.inc();
      let timer = timers.get(route);
      if (timer === undefined) timers.set(route, (timer = metrics.requestSeconds.labels(route)));
      timer.observe((performance.now() - start) / 1000);
    }
  };
}
