import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { rateLimits } from '../db/schema/index.js';
import type { AppConfig } from '../kernel/config.js';
import { limited } from '../kernel/errors.js';
import { metrics } from '../observability/metrics.js';

/**
 * A signed-in user's rate-limit key: a keyed digest of their id (SECRET_KEY), so the shared counters name no
 * Discord id (a counter flushed just after an account deletion must not write it back).
 */
export const userRateKey = (secretKey: Buffer, userId: string) =>
  `user:${createHmac('sha256', secretKey).update(`rate-limit:${userId}`).digest('base64url').slice(0, 22)}`;

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
const IMAGE_BYTES_PREFIX = '/api/world_images/';
export const IMAGE_BYTES_ROUTES: ReadonlySet<string> = new Set(
  [
    ':guildId/image/:imageId',
    ':guildId/image/:imageId/preview',
    'slot_image/:guildId/:worldId/:slotId',
    'slot_image/:guildId/:worldId/:slotId/preview',
    'atlas/:worldId/:variation/:atlasIndex',
  ].map((route) => IMAGE_BYTES_PREFIX + route),
);

/** Whether a signed-in user's request fetches image bytes (the route is looked up only under its prefix). */
function fetchesImageBytes(req: FastifyRequest): boolean {
  return (
    req.method === 'GET' &&
    req.url.startsWith(IMAGE_BYTES_PREFIX) &&
    IMAGE_BYTES_ROUTES.has(req.routeOptions.url ?? '')
  );
}

/**
 * Counts `count` requests for `key` in the current fixed window and answers the count so far and the
 * milliseconds until the window ends. One atomic upsert on the database clock, so every process shares it.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  windowMs: number,
  count = 1,
): Promise<{ hits: number; resetMs: number }> {
  const window = sql`${windowMs} * interval '1 millisecond'`;
  const expired = sql`${rateLimits.windowStart} <= now() - ${window}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: sql`now()`, hits: count })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${expired} then ${count}::int else ${rateLimits.hits} + ${count}::int end`,
        windowStart: sql`case when ${expired} then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      resetMs: sql<number>`greatest(0, extract(epoch from (${rateLimits.windowStart} + ${window} - now())) * 1000)`,
    });
  return { hits: Number(row?.hits ?? count), resetMs: Math.ceil(Number(row?.resetMs ?? windowMs)) };
}

/** A caller's count so far in its window (every process's requests) and the ms until the window ends. */
interface Counted {
  hits: number;
  resetMs: number;
}

/** How often requests counted in memory are added to the shared count. */
const FLUSH_INTERVAL_MS = 1000;

/** A signed-in caller's window as this process knows it. */
interface LocalCount {
  windowEndsAt: number;
  /** The shared count when this process last wrote it (every process's requests). */
  shared: number;
  /** This process's requests since then, not yet sent. */
  pending: number;
  /** This process's requests sent to the shared count, not yet answered (counted as if they had landed). */
  inFlight: number;
  /** When the shared count was read (ms epoch): an older one is read again before counting in memory. */
  syncedAt: number;
}

/**
 * Counts for signed-in users and API keys without a database write on every request: while a caller is under
 * half their limit and this process read the shared count less than a second ago (or a write of it is on its
 * way), it counts in memory and adds its count to the shared one once a second (which reads the shared count
 * again); otherwise (the first request of a window, a count older than a second with no write on its way, half
 * the limit reached) the request is written at once.
 * So a burst costs about one write a second, and what one process counts unseen by the others is at most a
 * second of requests and never more than half the limit. A key's writes go one after another, so each answer
 * includes every earlier one of this process, and requests counted while a write runs include it too.
 * Once a key's count as this process knows it reaches the limit, its requests are refused from memory until
 * the window ends (no write: refused requests are not counted, the count is over anyway); another process
 * learns it from its own next write, then refuses from memory too.
 */
export function createLocalRateCounter(db: Db, windowMs: number) {
  const counts = new Map<string, LocalCount>();
  const writeTails = new Map<string, Promise<unknown>>();
  /** Adds `n` requests (already counted in `inFlight`) to the shared count, after this key's earlier writes. */
  const write = (key: string, n: number): Promise<{ hits: number; resetMs: number }> => {
    const run = async () => {
      try {
        const { hits, resetMs } = await hitRateLimit(db, key, windowMs, n);
        const known = counts.get(key);
        const windowEndsAt = Date.now() + resetMs;
        const sameWindow = known && Math.abs(known.windowEndsAt - windowEndsAt) < windowMs / 2;
        counts.set(key, {
          windowEndsAt,
          shared: sameWindow ? Math.max(known.shared, hits) : hits,
          pending: known?.pending ?? 0,
          inFlight: Math.max(0, (known?.inFlight ?? n) - n),
          syncedAt: Date.now(),
        });
        return { hits, resetMs };
      } catch (error) {
        const known = counts.get(key);
        if (known) known.inFlight = Math.max(0, known.inFlight - n);
        throw error;
      }
    };
    const result = (writeTails.get(key) ?? Promise.resolve()).then(run, run);
    const tail = result.catch(() => undefined);
    writeTails.set(key, tail);
    const settled = () => {
      if (writeTails.get(key) === tail) writeTails.delete(key);
    };
    tail.then(settled, settled);
    return result;
  };
  const flush = async () => {
    const now = Date.now();
    const writes: Promise<unknown>[] = [];
    for (const [key, c] of counts) {
      if (now >= c.windowEndsAt && c.inFlight === 0) counts.delete(key);
      else if (c.pending > 0) {
        const n = c.pending;
        c.pending = 0;
        c.inFlight += n;
        writes.push(
          write(key, n).catch(() => {
            // Counted again with the next write (the database may be briefly away).
            const again = counts.get(key);
            if (again) again.pending += n;
          }),
        );
      }
    }
    await Promise.all(writes);
  };
  let flushing: Promise<void> | undefined;
  const flushOnce = () => {
    flushing ??= flush().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  const timer = setInterval(flushOnce, FLUSH_INTERVAL_MS);
  timer.unref();

  return {
    /**
     * Counts one request and answers the count so far (every process's) and the ms until the window ends: at
     * once when counted (or refused) in memory, a promise when the shared count is written first.
     */
    hit(key: string, limit: number): Counted | Promise<Counted> {
      const now = Date.now();
      const c = counts.get(key);
      // Over the limit for the rest of this window: a count only grows within a window, so once the shared
      // count (with this process's requests on their way) reaches the limit every further request is refused,
      // here, without a write; the first request after the window's end is written and starts a new one.
      if (c && now < c.windowEndsAt && c.shared + c.inFlight + c.pending >= limit)
        return {
          hits: Math.max(limit, c.shared + c.inFlight + c.pending) + 1,
          resetMs: c.windowEndsAt - now,
        };
      // A write of this key on its way reads the shared count again: the requests meanwhile wait for none of
      // it (a write each, one after another, was what a busy caller cost whenever the count went stale).
      const fresh =
        c && now < c.windowEndsAt && (now - c.syncedAt < FLUSH_INTERVAL_MS || writeTails.has(key));
      if (c && fresh && c.shared + c.inFlight + c.pending + 1 <= limit / 2) {
        c.pending += 1;
        return { hits: c.shared + c.inFlight + c.pending, resetMs: c.windowEndsAt - now };
      }
      const inWindow = c && now < c.windowEndsAt;
      const n = (inWindow ? c.pending : 0) + 1;
      if (c) {
        c.pending = 0;
        c.inFlight += n;
      }
      return write(key, n);
    },
    /** Sends what is counted in memory now (the timer does it every second). */
    flush: flushOnce,
    /** Writes what is counted in memory (at close, so a restart does not forget it). */
    async close() {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}

/**
 * Whether the answer tells the caller its quota (the RateLimit fields). Programs (an API key, a token in the
 * Authorization header, an anonymous SDK login start) are told on every answer: they pace themselves on it. A
 * browser (a session cookie) is told once it has used half its quota, and on a 429: the web app never reads
 * them (it shows the 429's sentence), and below half they were bytes nobody read on every call a page makes.
 */
function toldQuota(req: FastifyRequest, limit: number, hits: number): boolean {
  return !req.auth || req.viaHeader || hits > limit / 2;
}

/** The policy and limit header values of each limit, written once (they go on every signed-in answer). */
const fixedHeaderValues = new Map<number, { policy: string; limit: string }>();

function setHeaders(
  reply: FastifyReply,
  limit: number,
  remaining: number,
  resetSeconds: number,
  windowMs: number,
) {
  // One number for the pair (a window is under a day, far below 1e9 ms).
  const id = limit * 1e9 + windowMs;
  let fixed = fixedHeaderValues.get(id);
  if (!fixed) {
    fixed = { policy: `${limit};w=${Math.round(windowMs / 1000)}`, limit: String(limit) };
    fixedHeaderValues.set(id, fixed);
  }
  reply.header('RateLimit-Policy', fixed.policy);
  reply.header('RateLimit-Limit', fixed.limit);
  reply.header('RateLimit-Remaining', String(Math.max(0, remaining)));
  reply.header('RateLimit-Reset', String(resetSeconds));
}

/**
 * Limits /api per fixed window (RateLimit-* headers one field each, as the IETF draft's sixth version has them;
 * Retry-After on 429): signed-in users and API keys per id over every route (each with its own limit),
 * anonymous callers per client address on the routes that write for them.
 * Runs after registerAuth's hook, which resolves the caller.
 */
export function registerRateLimit(
  app: FastifyInstance,
  db: Db,
  config: AppConfig['rateLimit'],
  secretKey: Buffer,
): void {
  const local = createLocalRateCounter(db, config.windowMs);
  app.addHook('onClose', () => local.close());
  // The keyed digest once per user, not on every request (bounded: cleared when it grows large).
  const userKeys = new Map<string, string>();
  const userKey = (userId: string) => {
    let key = userKeys.get(userId);
    if (!key) {
      if (userKeys.size >= 10_000) userKeys.clear();
      // Stored as counted, prefix included: no string is built per request.
      key = `rate:${userRateKey(secretKey, userId)}`;
      userKeys.set(userId, key);
    }
    return key;
  };
  // A callback hook: a request nobody counts (anonymous reads, pages), or one counted in memory, passes
  // without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    let counting: Promise<void> | undefined;
    try {
      counting = count(req, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (counting) counting.then(() => done(), done);
    else done();
  });

  /** Counts the request against its caller's limit; undefined when nothing is counted. */
  function count(req: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    if (!req.url.startsWith('/api/')) return;
    let key: string;
    let limit: number;
    if (req.auth) {
      if (fetchesImageBytes(req)) return;
      key = userKey(req.auth.user.id);
      limit = config.user;
    } else if (req.apiKey) {
      // Each key has its own bucket and limit (RATE_LIMIT_API_KEY), so one integration cannot starve another.
      key = `rate:apikey:${req.apiKey.id}`;
      limit = config.apiKey;
    } else if (ANONYMOUS_WRITE_ROUTES.has(`${req.method} ${req.routeOptions.url}`)) {
      key = `rate:ip:${req.ip}`;
      limit = config.anonymous;
    } else return;
    if (limit <= 0) return;
    return countAgainst(req, reply, key, limit);
  }

  /** Counts the request for `key`: undefined when settled at once (in memory), else the write's promise. */
  function countAgainst(req: FastifyRequest, reply: FastifyReply, key: string, limit: number) {
    // Anonymous callers are counted in the database at once: their routes write anyway, and an address is
    // what several processes must agree on exactly.
    const counted = req.auth || req.apiKey ? local.hit(key, limit) : hitRateLimit(db, key, config.windowMs);
    if (counted instanceof Promise) return counted.then((c) => answer(req, reply, limit, c));
    answer(req, reply, limit, counted);
    return undefined;
  }

  /** The RateLimit headers of the answer; over the limit, the refusal. */
  function answer(req: FastifyRequest, reply: FastifyReply, limit: number, { hits, resetMs }: Counted) {
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    if (toldQuota(req, limit, hits)) setHeaders(reply, limit, limit - hits, resetSeconds, config.windowMs);
    if (hits > limit) {
      metrics.rateLimitRefusals.inc({ bucket: req.auth ? 'user' : req.apiKey ? 'api_key' : 'address' });
      reply.header('Retry-After', String(resetSeconds));
      throw limited(
        `Too many requests: wait ${resetSeconds} second${resetSeconds === 1 ? '' : 's'} and try again.`,
      );
    }
  }
}
