/**
 * Token bucket per account (per IP before login). VRChat publishes no limits and sends no rate-limit
 * headers, so clients only learn about the limit from the 429 itself.
 */
export class TokenBuckets {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly rate: () => { capacity: number; perSecond: number }) {}

  /** Takes one token; false when the bucket is empty. */
  take(key: string, now = Date.now()): boolean {
    const { capacity, perSecond } = this.rate();
    const bucket = this.buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  reset(): void {
    this.buckets.clear();
  }
}

export const DEFAULT_VRCHAT_RATE = { capacity: 60, perSecond: 10 };
export const DEFAULT_SESSION_LIMIT = { max: 10, windowSeconds: 3600 };
