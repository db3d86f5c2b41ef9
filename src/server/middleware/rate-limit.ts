// Per-client rate limit: over the limit is 429 with Retry-After and the D6 body. The
// buckets are kept by whoever `admit` asks (src/http/token-buckets.ts): in this thread,
// or — for the faucet behind several HTTP event loops — on the main thread, so that a
// client's limit is one for the whole node.

import type { Context, Next } from 'koa';
import { HttpError } from '../../http/error';
import { TokenBuckets, type RateLimit } from '../../http/token-buckets';

export type { RateLimit } from '../../http/token-buckets';

/** `admit(ip)`: 0 to let the request through, else the seconds the client must wait. */
export function rateLimit(
  limit: RateLimit,
  admit: (ip: string) => number | Promise<number> = takeFrom(new TokenBuckets(limit)),
) {
  return async function limitRate(ctx: Context, next: Next): Promise<void> {
    const seconds = await admit(ctx.ip);
    if (seconds > 0) {
      throw new HttpError(
        429,
        `rate limit of ${limit.maxRequests} requests per ${limit.period} s exceeded; try again in ${seconds} s`,
        { 'Retry-After': String(seconds) },
      );
    }
    await next();
  };
}

const takeFrom = (buckets: TokenBuckets) => (ip: string) => buckets.take(ip);
