import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../db/client.js';
import { platformLoginPauses, platformSessions } from '../../db/schema/index.js';
import { decryptWithAny, encrypt } from '../../kernel/crypto.js';
import type { LoginPause } from './login-gate.js';

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
  /**
   * The pause a failed login with these `credentials` set, shared by every holder of this session (so N
   * processes wrongly configured make one failed login per pause, not N); null when the last login did not
   * fail, or failed with other credentials (a corrected password is tried at once).
   */
  loadLoginPause(credentials: string): Promise<LoginPause | null>;
  saveLoginPause(pause: LoginPause | null, credentials: string): Promise<void>;
}

/**
 * The name the VRChat session is stored under. VRChat may refuse a session used from another address than
 * the one that logged in (platforms.md A.4), so processes that leave from different configured addresses
 * (VRCHAT_LOCAL_ADDRESS) keep one session each, shared only with processes leaving from the same address;
 * processes without one share the plain `vrchat` session.
 */
export function vrchatSessionName(localAddress?: string, account?: string): string {
  // The first account keeps the name sessions had before there were several accounts.
  const name = account ? `vrchat:${account.toLowerCase()}` : 'vrchat';
  return localAddress ? `${name}@${localAddress}` : name;
}

/** Which credentials a stored pause is for, without storing them (an HMAC under the server's secret key). */
const fingerprint = (secretKey: Buffer, credentials: string) =>
  createHmac('sha256', secretKey).update(credentials).digest('hex');

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
  opts: { databaseUrl?: string; previousSecretKey?: Buffer } = {},
): SessionStore {
  const local = localLock(db, name);
  const { databaseUrl } = opts;
  // A failed login's pause is about the credentials, not the address: every session of the account shares it.
  const pauseName = name.split('@')[0] as string;
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
      // A session sealed under SECRET_KEY_PREVIOUS is read; the next save seals it under the current key.
      return decryptWithAny([secretKey, opts.previousSecretKey], rows[0].dataEnc);
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
    async loadLoginPause(credentials) {
      const [row] = await db
        .select()
        .from(platformLoginPauses)
        .where(eq(platformLoginPauses.name, pauseName))
        .limit(1);
      if (!row || row.credentials !== fingerprint(secretKey, credentials)) return null;
      return { until: row.until.getTime(), failures: row.failures, lastError: row.lastError };
    },
    async saveLoginPause(pause, credentials) {
      if (!pause) {
        await db.delete(platformLoginPauses).where(eq(platformLoginPauses.name, pauseName));
        return;
      }
      const values = {
        credentials: fingerprint(secretKey, credentials),
        until: new Date(pause.until),
        failures: pause.failures,
        lastError: pause.lastError,
      };
      await db
        .insert(platformLoginPauses)
        .values({ name: pauseName, ...values })
        .onConflictDoUpdate({ target: platformLoginPauses.name, set: values });
    },
  };
}

/** A store that lives as long as the process (tests, or running without a database). */
export function memorySessionStore(initial: string | null = null): SessionStore {
  let data = initial;
  let pause: { pause: LoginPause; credentials: string } | null = null;
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
    loadLoginPause: async (credentials) => (pause?.credentials === credentials ? pause.pause : null),
    saveLoginPause: async (next, credentials) => {
      pause = next ? { pause: next, credentials } : null;
    },
  };
}
