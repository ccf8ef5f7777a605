import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/client.js';
import { rateLimits } from '../db/schema/index.js';
import { HttpError } from './errors.js';

/**
 * The routes that write for callers who are not signed in (a login start stores a row, a sign-in creates a
 * session): anonymous calls to them are limited per client address. Every other anonymous call reads, or is
 * refused with 401 before it writes.
 */
export const ANONYMOUS_WRITE_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/sdk-login',
  'GET /api/login',
  'POST /api/login/callback',
  'GET /api/discord_auth',
]);

/**
 * The image bytes a page loads in bulk (a World Images page shows up to 200 previews and every slot): a
 * signed-in user's browser fetching them does not count toward RATE_LIMIT_USER, or a few reloads of one page
 * would lock its manager out of everything for the rest of the window. They are reads with ETags, checked
 * for ViewImages like any route; API keys count them as usual.
 */
export const IMAGE_BYTES_ROUTES: ReadonlySet<string> = new Set([
  '/api/world_images/:guildId/image/:imageId',
  '/api/world_images/:guildId/image/:imageId/preview',
  '/api/world_images/slot_image/:guildId/:worldId/:slotId',
  '/api/world_images/slot_image/:guildId/:worldId/:slotId/preview',
  '/api/world_images/atlas/:worldId/:variation/:atlasIndex',
]);

/**
 * Counts one request for `key` in the current fixed window and answers the count so far and the
 * milliseconds until the window ends. One atomic upsert on the database clock, so every process shares it.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  windowMs: number,
): Promise<{ hits: number; resetMs: number }> {
  const window = sql`${windowMs} * interval '1 millisecond'`;
  const expired = sql`${rateLimits.windowStart} <= now() - ${window}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: sql`now()`, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      resetMs: sql<number>`greatest(0, extract(epoch from (${rateLimits.windowStart} + ${window} - now())) * 1000)`,
    });
  return { hits: Number(row?.hits ?? 1), resetMs: Math.ceil(Number(row?.resetMs ?? windowMs)) };
}

function setHeaders(
  reply: FastifyReply,
  limit: number,
  remaining: number,
  resetSeconds: number,
  windowMs: number,
) {
  reply.header('RateLimit-Policy', `${limit};w=${Math.round(windowMs / 1000)}`);
  reply.header('RateLimit-Limit', String(limit));
  reply.header('RateLimit-Remaining', String(Math.max(0, remaining)));
  reply.header('RateLimit-Reset', String(resetSeconds));
}

/**
 * Limits /api per fixed window (draft-7 RateLimit-* headers, Retry-After on 429): signed-in users and API
 * keys per id over every route (each with its own limit), anonymous callers per client address on the routes that write for them.
 * Runs after registerAuth's hook, which resolves the caller.
 */
export function registerRateLimit(app: FastifyInstance, db: Db, config: AppConfig['rateLimit']): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    let key: string;
    let limit: number;
    if (req.auth) {
      if (req.method === 'GET' && IMAGE_BYTES_ROUTES.has(req.routeOptions.url ?? '')) return;
      key = `user:${req.auth.user.id}`;
      limit = config.user;
    } else if (req.apiKey) {
      // Each key has its own bucket and limit (RATE_LIMIT_API_KEY), so one integration cannot starve another.
      key = `apikey:${req.apiKey.id}`;
      limit = config.apiKey;
    } else if (ANONYMOUS_WRITE_ROUTES.has(`${req.method} ${req.routeOptions.url}`)) {
      key = `ip:${req.ip}`;
      limit = config.anonymous;
    } else return;
    if (limit <= 0) return;
    const { hits, resetMs } = await hitRateLimit(db, `rate:${key}`, config.windowMs);
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    setHeaders(reply, limit, limit - hits, resetSeconds, config.windowMs);
    if (hits > limit) {
      reply.header('Retry-After', String(resetSeconds));
      throw new HttpError(
        429,
        `Too many requests: wait ${resetSeconds} second${resetSeconds === 1 ? '' : 's'} and try again.`,
      );
    }
  });
}
