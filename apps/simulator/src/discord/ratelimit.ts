import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface RateConfig {
  limit: number;
  windowSeconds: number;
}

/** Generous enough that ordinary use never trips it; tests pass a tight one through `discordRate`. */
export const DEFAULT_RATE: RateConfig = { limit: 50, windowSeconds: 1 };

/** Path parameters Discord treats as "major": each value gets its own bucket. */
const MAJOR_PARAMS = ['guild_id', 'channel_id', 'webhook_id', 'interaction_id'] as const;

interface Bucket {
  count: number;
  resetAt: number;
}

/**
 * Per-route fixed-window buckets keyed by caller + method + route template + major parameter, with
 * Discord's headers on every response. The bucket hash is the same for every major-parameter value
 * (as on Discord), so clients learn one hash per route.
 */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();

  constructor(private readonly config: RateConfig) {}

  async onRequest(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const template = req.routeOptions.url;
    if (!template) return false;
    const params = (req.params ?? {}) as Record<string, string>;
    const major = MAJOR_PARAMS.map((p) => params[p] ?? '').join(':');
    const who = req.headers.authorization ?? req.ip;
    const hash = createHash('sha1').update(`${req.method} ${template}`).digest('hex').slice(0, 32);
    const key = `${who}|${hash}|${major}`;
    const now = Date.now();
    if (this.buckets.size > 10_000) this.prune(now);
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      bucket = { count: 0, resetAt: now + this.config.windowSeconds * 1000 };
      this.buckets.set(key, bucket);
    }
    bucket.count += 1;
    const resetAfter = Math.max(0, bucket.resetAt - now) / 1000;
    reply.header('X-RateLimit-Limit', String(this.config.limit));
    reply.header('X-RateLimit-Remaining', String(Math.max(0, this.config.limit - bucket.count)));
    reply.header('X-RateLimit-Reset', (bucket.resetAt / 1000).toFixed(3));
    reply.header('X-RateLimit-Reset-After', resetAfter.toFixed(3));
    reply.header('X-RateLimit-Bucket', hash);
    if (bucket.count <= this.config.limit) return false;
    await writeRateLimited(reply, resetAfter);
    return true;
  }

  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}

/** Discord's per-route 429: `Retry-After` in whole seconds, the precise value in the body. */
export function writeRateLimited(reply: FastifyReply, retryAfter: number): FastifyReply {
  return reply
    .code(429)
    .header('Retry-After', String(Math.max(1, Math.ceil(retryAfter))))
    .header('X-RateLimit-Scope', 'user')
    .header('X-RateLimit-Remaining', '0')
    .send({
      message: 'You are being rate limited.',
      retry_after: Number(retryAfter.toFixed(3)),
      global: false,
    });
}

/** Interaction callbacks and interaction webhooks are exempt from the global limit (Discord's docs). */
const interactionRoute = (url: string) => url.includes('/interactions/') || url.includes('/webhooks/');

/**
 * Discord's global limit: N requests per second per bot token (per Authorization value; per IP
 * without one), across all routes. Checked before the per-route buckets, which it leaves untouched.
 */
export class GlobalRateLimiter {
  private windows = new Map<string, Bucket>();

  constructor(private readonly perSecond: () => number) {}

  async onRequest(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const template = req.routeOptions.url;
    if (!template || interactionRoute(template)) return false;
    const key = req.headers.authorization ?? `ip:${req.ip}`;
    const now = Date.now();
    if (this.windows.size > 10_000) this.prune(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + 1000 };
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
      .send({
        message: 'You are being rate limited.',
        retry_after: Number(retryAfter.toFixed(3)),
        global: true,
      });
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
