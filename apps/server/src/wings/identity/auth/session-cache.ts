import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database, Db, Queryable } from '../../../db/client.js';
import type { ActiveSession } from './session.service.js';

/**
 * Signed-in requests read their session from memory for a few seconds instead of the database each time.
 * A logout, an account deletion or a changed user row forgets the entries at once in this process, and in
 * every other process through PostgreSQL's NOTIFY on SESSIONS_CHANNEL (startSessionInvalidation), so a
 * logout takes effect everywhere within a second. TTL bounds what a lost notification could leave behind;
 * while a process's LISTEN connection is down it reads the database every time.
 */
export const SESSION_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
export const SESSIONS_CHANNEL = 'vrclink_sessions';

interface Entry {
  session: ActiveSession;
  /** When this copy stops being used: the TTL, or the session's own expiry if sooner. */
  until: number;
}

export class SessionCache {
  private entries = new Map<string, Entry>();
  /** Bumped by every forget: a lookup that started before one must not store what it read. */
  private generation = 0;
  /** False while invalidations from other processes could be missed (PostgreSQL LISTEN down). */
  enabled = true;

  get(tokenHash: string, now = Date.now()): ActiveSession | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.until > now && this.enabled) return entry.session;
    this.entries.delete(tokenHash);
    return undefined;
  }

  /** The generation to hand back to `set` once the database answered. */
  begin(): number {
    return this.generation;
  }

  set(session: ActiveSession, expiresAt: Date, startedAt: number, now = Date.now()): void {
    if (!this.enabled || startedAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(session.tokenHash, {
      session,
      until: Math.min(now + SESSION_CACHE_TTL_MS, expiresAt.getTime()),
    });
  }

  /** `user:<id>` forgets the user's sessions, `token:<hash>` one session, anything else all. */
  forget(what: string): void {
    this.generation++;
    if (what.startsWith('token:')) this.entries.delete(what.slice(6));
    else if (what.startsWith('user:')) {
      const userId = what.slice(5);
      for (const [hash, entry] of this.entries)
        if (entry.session.user.id === userId) this.entries.delete(hash);
    } else this.entries.clear();
  }
}

const caches = new WeakMap<Db, SessionCache>();

/** The session cache of a database handle (one per process and database). */
export function sessionCacheOf(db: Db): SessionCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new SessionCache();
    caches.set(db, cache);
  }
  return cache;
}

type Change = `user:${string}` | `token:${string}`;

/**
 * Tells the other processes (NOTIFY; inside a transaction it is sent at commit). A transaction's caller
 * forgets here itself once committed: `sessionCacheOf(db).forget(change)`.
 */
export async function notifySessions(db: Queryable, change: Change): Promise<void> {
  await db.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${change})`);
}

/** After a session or user row changed (outside a transaction): forgets here and everywhere. */
export async function sessionsChanged(db: Db, change: Change): Promise<void> {
  await notifySessions(db, change);
  sessionCacheOf(db).forget(change);
}

/**
 * PostgreSQL: LISTENs on a connection of its own and forgets what other processes changed; reconnects
 * after a break (the cache is off meanwhile, and starts empty). PGlite is one process: nothing to hear.
 * Answers a stop function.
 */
export function startSessionInvalidation(
  database: Database,
  onError: (err: Error) => void,
): () => Promise<void> {
  const cache = sessionCacheOf(database.db);
  if (database.kind !== 'postgres' || !database.url) return async () => {};
  const url = database.url;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    cache.enabled = false;
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('notification', (msg) => cache.forget(msg.payload ?? ''));
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      cache.enabled = false;
      if (stopped) return;
      onError(err);
      void next.end().catch(() => {});
      retry = setTimeout(() => connect().catch(onError), 1000);
    };
    next.on('error', fail);
    try {
      await next.connect();
      await next.query(`listen ${SESSIONS_CHANNEL}`);
      if (stopped) return void (await next.end());
      // Whatever changed while nobody listened is unknown: start empty.
      cache.forget('all');
      cache.enabled = true;
    } catch (err) {
      fail(err as Error);
    }
  };
  connect().catch(onError);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    cache.enabled = false;
    await client?.end().catch(() => {});
  };
}
