import { eq } from 'drizzle-orm';
import pg from 'pg';
import { decrypt, encrypt } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import { platformSessions } from '../../db/schema/index.js';

/** Where the VRChat cookie jar lives between restarts; one opaque string. */
export interface SessionStore {
  load(): Promise<string | null>;
  save(data: string): Promise<void>;
  clear(): Promise<void>;
  /**
   * Runs `fn` while no other holder of this session runs one: every adapter using this store, in this
   * process or (on PostgreSQL) in any process sharing the database. Logins run inside, so N adapters make one.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

/** Advisory-lock namespace of shared platform sessions (the second key is the session's name hashed). */
const SESSION_LOCK_NAMESPACE = 72707372;

/** Runs the functions given to it one after another (an in-process lock). */
export function createMutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn);
    tail = run.catch(() => {});
    return run;
  };
}

/** One in-process lock per database handle and session name, shared by every store made on them. */
const localLocks = new WeakMap<object, Map<string, ReturnType<typeof createMutex>>>();
function localLock(db: object, name: string): ReturnType<typeof createMutex> {
  const byName = localLocks.get(db) ?? new Map<string, ReturnType<typeof createMutex>>();
  localLocks.set(db, byName);
  const lock = byName.get(name) ?? createMutex();
  byName.set(name, lock);
  return lock;
}

/**
 * The jar encrypted in `platform_sessions`. A row that no longer decrypts (the secret key changed) reads
 * as no session: the adapter then logs in once and overwrites it.
 *
 * `exclusive` takes an in-process lock, and on PostgreSQL (several processes may share the database) also a
 * session advisory lock on a connection of its own, opened for that one login: no transaction stays open
 * while VRChat is called, and a process that dies frees the lock with its connection. Embedded PGlite has a
 * single process: the in-process lock is enough.
 */
export function dbSessionStore(
  db: Db,
  secretKey: Buffer,
  name = 'vrchat',
  opts: { databaseUrl?: string } = {},
): SessionStore {
  const local = localLock(db, name);
  const { databaseUrl } = opts;
  return {
    exclusive(fn) {
      if (!databaseUrl) return local(fn);
      return local(async () => {
        const client = new pg.Client({ connectionString: databaseUrl });
        client.on('error', () => {});
        await client.connect();
        try {
          await client.query('select pg_advisory_lock($1, hashtext($2))', [SESSION_LOCK_NAMESPACE, name]);
          return await fn();
        } finally {
          await client.end().catch(() => {});
        }
      });
    },
    async load() {
      const rows = await db.select().from(platformSessions).where(eq(platformSessions.name, name)).limit(1);
      if (!rows[0]) return null;
      try {
        return decrypt(secretKey, rows[0].dataEnc);
      } catch {
        return null;
      }
    },
    async save(data) {
      const dataEnc = encrypt(secretKey, data);
      await db
        .insert(platformSessions)
        .values({ name, dataEnc })
        .onConflictDoUpdate({ target: platformSessions.name, set: { dataEnc, updatedAt: new Date() } });
    },
    async clear() {
      await db.delete(platformSessions).where(eq(platformSessions.name, name));
    },
  };
}

/** A store that lives as long as the process (tests, or running without a database). */
export function memorySessionStore(initial: string | null = null): SessionStore {
  let data = initial;
  const local = createMutex();
  return {
    exclusive: local,
    load: async () => data,
    save: async (next) => {
      data = next;
    },
    clear: async () => {
      data = null;
    },
  };
}
