// Owns per-client rate limits: a token bucket per client name (capacity one minute's allowance,
// refilled continuously), answering how long to wait when it is empty.

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes one request from `client`'s bucket; returns 0 when allowed, else the seconds to wait. */
  take(client: string, perMinute: number): number {
    const now = this.now();
    const rate = perMinute / 60_000; // tokens per ms
    const bucket = this.buckets.get(client) ?? { tokens: perMinute, updatedAt: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.updatedAt) * rate);
    bucket.updatedAt = now;
    this.buckets.set(client, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000));
  }
}
