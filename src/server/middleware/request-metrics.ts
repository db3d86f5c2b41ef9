// Counts every request by method, route pattern (never the raw path, which would explode
// label cardinality) and status, and times it. The labelled series are looked up once per
// distinct label set and kept: prom-client would otherwise hash the labels every request.

import type { Context, Next } from 'koa';
import type { NodeMetrics } from '../lib/node-metrics';

/** Counts and times requests by method, route pattern and status, keeping each labelled series. */
export class RequestCounter {
  private readonly counters = new Map<string, { inc(): void }>();
  private readonly timers = new Map<string, { observe(seconds: number): void }>();

  constructor(private readonly metrics: NodeMetrics) {}

  count(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let counter = this.counters.get(key);
    if (counter === undefined)
      this.counters.set(key, (counter = this.metrics.requests.labels(method, route, String(status))));
    counter.inc();
    let timer = this.timers.get(route);
    if (timer === undefined) this.timers.set(route, (timer = this.metrics.requestSeconds.labels(route)));
    timer.observe(seconds);
  }
}

export function requestMetrics(metrics: NodeMetrics) {
  const counter = new RequestCounter(metrics);
  return async function countRequest(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      counter.count(ctx.method, route, ctx.status, (performance.now() - start) / 1000);
    }
  };
}
