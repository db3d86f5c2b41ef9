// Per-client rate limit (a token bucket per remote IP, as inx-faucet's echo limiter):
// `maxRequests` per `period` seconds on average, up to `maxBurst` at once. Over the limit
// is 429 with Retry-After and the D6 body. Buckets that have refilled are forgotten, so
// memory is bounded by the clients of the last period.

import type { Context, Next } from 'koa';
import { HttpError } from '../lib/http-error';

export interface RateLimit {
  maxRequests: number;
  /** Seconds. */
  period: number;
  maxBurst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function rateLimit(limit: RateLimit, now: () => number = Date.now) {
  const perMs = limit.maxRequests / (limit.period * 1000);
  const buckets = new Map<string, Bucket>();
  let lastSweep = now();

  const refill = (bucket: Bucket, t: number) => {
    bucket.tokens = Math.min(limit.maxBurst, bucket.tokens + (t - bucket.at) * perMs);
    bucket.at = t;
  };

  return async function limitRate(ctx: Context, next: Next): Promise<void> {
    const t = now();
    if (t - lastSweep > limit.period * 1000) {
      for (const [ip, bucket] of buckets) {
        refill(bucket, t);
        if (bucket.tokens >= limit.maxBurst) buckets.delete(ip);
      }
      lastSweep = t;
    }
    const ip = ctx.ip;
    let bucket = buckets.get(ip);
    if (bucket === undefined) {
      bucket = { tokens: limit.maxBurst, at: t };
      buckets.set(ip, bucket);
    } else {
      refill(bucket, t);
    }
    if (bucket.tokens < 1) {
      const seconds = Math.ceil((1 - bucket.tokens) / perMs / 1000);
      throw new HttpError(429, `rate limit of ${limit.maxRequests} requests per ${limit.period} s exceeded; try again in ${seconds} s`, { 'Retry-After': String(seconds) });
    }
    bucket.tokens -= 1;
    await next();
  };
}
