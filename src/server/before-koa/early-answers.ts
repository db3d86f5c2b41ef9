// What the listeners that answer before Koa (reads.ts, submissions.ts) share: the path
// of a request URL, the content type Koa gives JSON, and the bookkeeping Koa's middleware
// does for an answer (the request counters and timers under the route's pattern, and the
// request log line), so that an answer given early counts and logs as one given by Koa.

import type { Logger } from 'pino';
import type { NodeMetrics } from '../lib/node-metrics';
import { JSON_TYPE } from '../middleware/media';
import { RequestCounter } from '../middleware/request-metrics';

export const JSON_CONTENT_TYPE = `${JSON_TYPE}; charset=utf-8`;

/** The URL without its query string. */
export function requestPath(url: string | undefined): string {
  const whole = url ?? '/';
  const query = whole.indexOf('?');
  return query < 0 ? whole : whole.slice(0, query);
}

export class EarlyAnswers {
  private readonly counter: RequestCounter;

  constructor(
    metrics: NodeMetrics,
    private readonly logger: Logger,
  ) {
    this.counter = new RequestCounter(metrics);
  }

  /** Count and log an answer given since `started` (performance.now()). */
  record(method: string, route: string, path: string, status: number, started: number): void {
    const seconds = (performance.now() - started) / 1000;
    this.counter.count(method, route, status, seconds);
    if (this.logger.isLevelEnabled('info'))
      this.logger.info({ method, path, status, ms: Math.round(seconds * 1e6) / 1000 }, 'request');
  }
}
