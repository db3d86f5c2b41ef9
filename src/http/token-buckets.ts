// A token bucket per key (a client's IP), as inx-faucet's echo limiter: `maxRequests` per
// `period` seconds on average, up to `maxBurst` at once (docs/faucet.md, `faucet.rateLimit`).
// Buckets that have refilled are forgotten, so memory is bounded by the clients of the
// last period. Kept by the faucet (on the main thread) and by the rate-limit middleware.

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

export class TokenBuckets {
  private readonly perMs: number;
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep: number;

  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = limit.maxRequests / (limit.period * 1000);
    this.lastSweep = now();
  }

  /** Take a token for `key`: 0 when there was one, else the seconds until there is. */
  take(key: string): number {
    const t = this.now();
    if (t - this.lastSweep > this.limit.period * 1000) {
      for (const [k, bucket] of this.buckets) {
        this.refill(bucket, t);
        if (bucket.tokens >= this.limit.maxBurst) this.buckets.delete(k);
      }
      this.lastSweep = t;
    }
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: this.limit.maxBurst, at: t };
      this.buckets.set(key, bucket);
    } else {
      this.refill(bucket, t);
    }
    if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / this.perMs / 1000);
    bucket.tokens -= 1;
    return 0;
  }

  private refill(bucket: Bucket, t: number): void {
    bucket.tokens = Math.min(this.limit.maxBurst, bucket.tokens + (t - bucket.at) * this.perMs);
    bucket.at = t;
  }
}
