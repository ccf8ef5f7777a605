import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  bucketOf,
  majorOf,
  type RouteBucketLimits,
  STRICT_ROUTE_BUCKETS,
  uniformRouteBuckets,
} from './route-buckets.js';

/** One lax limit for every route, for tests about something other than Discord's limits. */
export const LAX_DISCORD_RATE = { limit: 100_000, windowSeconds: 1 };

/** A test's "one limit for every route" (`startSimulator({discordRate})`); strict buckets without it. */
export interface RateConfig {
  limit: number;
  windowSeconds: number;
}

interface Bucket {
  count: number;
  resetAt: number;
}

/**
 * Discord's per-route buckets (families and limits in route-buckets.ts): fixed windows keyed by caller
 * (none for a shared bucket) + bucket + major parameter, with Discord's headers on every bucketed
 * response. The bucket hash is one per family (shared across its routes) and the same for every
 * major-parameter value, as on Discord, so clients learn one hash per bucket. Windows are `timeScale`
 * times shorter than the configured seconds (the headers say the real, scaled wait).
 */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private limits: RouteBucketLimits;

  constructor(
    private readonly initial: RateConfig | undefined,
    private readonly timeScale: number,
  ) {
    this.limits = this.initialLimits();
  }

  private initialLimits(): RouteBucketLimits {
    return this.initial ? uniformRouteBuckets(this.initial) : structuredClone(STRICT_ROUTE_BUCKETS);
  }

  async onRequest(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const template = req.routeOptions.url;
    if (!template) return false;
    const bucket = bucketOf(req.method, template);
    const { limit, windowSeconds } = this.limits[bucket.family];
    const hash = createHash('sha1').update(bucket.name).digest('hex').slice(0, 32);
    const who = bucket.shared ? 'shared' : (req.headers.authorization ?? `ip:${req.ip}`);
    const key = `${who}|${hash}|${majorOf((req.params ?? {}) as Record<string, string>)}`;
    const now = Date.now();
    if (this.buckets.size > 10_000) this.prune(now);
    let state = this.buckets.get(key);
    if (!state || state.resetAt <= now) {
      state = { count: 0, resetAt: now + (windowSeconds * 1000) / this.timeScale };
      this.buckets.set(key, state);
    }
    state.count += 1;
    const resetAfter = Math.max(0, state.resetAt - now) / 1000;
    reply.header('X-RateLimit-Limit', String(limit));
    reply.header('X-RateLimit-Remaining', String(Math.max(0, limit - state.count)));
    reply.header('X-RateLimit-Reset', (state.resetAt / 1000).toFixed(3));
    reply.header('X-RateLimit-Reset-After', resetAfter.toFixed(3));
    reply.header('X-RateLimit-Bucket', hash);
    if (state.count <= limit) return false;
    await writeRateLimited(reply, resetAfter, bucket.shared ? 'shared' : 'user');
    return true;
  }

  /** The bucket limits in force (control API). */
  view(): RouteBucketLimits {
    return structuredClone(this.limits);
  }

  /** Changes some families' limits; running windows keep their reset time. */
  configure(next: Partial<RouteBucketLimits>): void {
    Object.assign(this.limits, next);
  }

  /** Back to the limits the simulator started with, every window forgotten. */
  reset(): void {
    this.limits = this.initialLimits();
    this.buckets.clear();
  }

  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}

/**
 * Discord's 429 body. `code: 0` (Discord's general code) because the spec's RatelimitedResponse extends its
 * Error schema, which requires a code; clients read only `retry_after` and `global`.
 */
const rateLimitedBody = (retryAfter: number, global: boolean) => ({
  message: 'You are being rate limited.',
  code: 0,
  retry_after: Number(retryAfter.toFixed(3)),
  global,
});

/** Discord's per-route 429: `Retry-After` in whole seconds, the precise value in the body. */
export function writeRateLimited(
  reply: FastifyReply,
  retryAfter: number,
  scope: 'user' | 'shared' = 'user',
): FastifyReply {
  return reply
    .code(429)
    .header('Retry-After', String(Math.max(1, Math.ceil(retryAfter))))
    .header('X-RateLimit-Scope', scope)
    .header('X-RateLimit-Remaining', '0')
    .send(rateLimitedBody(retryAfter, false));
}

/** Interaction callbacks and interaction webhooks are exempt from the global limit (Discord's docs). */
const interactionRoute = (url: string) => url.includes('/interactions/') || url.includes('/webhooks/');

/**
 * Discord's global limit: N requests per second per bot token (per Authorization value; per IP
 * without one), across all routes, per second divided by `timeScale`. Checked before the per-route buckets, which it leaves untouched.
 */
export class GlobalRateLimiter {
  private windows = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: () => number,
    private readonly timeScale: number,
  ) {}

  async onRequest(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const template = req.routeOptions.url;
    if (!template || interactionRoute(template)) return false;
    const key = req.headers.authorization ?? `ip:${req.ip}`;
    const now = Date.now();
    if (this.windows.size > 10_000) this.prune(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + 1000 / this.timeScale };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.perSecond()) return false;
    const retryAfter = (window.resetAt - now) / 1000;
    await reply
      .code(429)
      .header('Retry-After', String(Math.max(1, Math.ceil(retryAfter))))
      .header('X-RateLimit-Global', 'true')
      .header('X-RateLimit-Scope', 'global')
      .send(rateLimitedBody(retryAfter, true));
    return true;
  }

  reset(): void {
    this.windows.clear();
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/** The 429 an injected `rate_limit` fault produces (a one-second wait, like a tripped bucket). */
export const writeDiscord429 = (reply: FastifyReply) => writeRateLimited(reply, 1);
