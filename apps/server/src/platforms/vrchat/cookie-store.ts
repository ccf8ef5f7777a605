import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from './session-store.js';

/**
 * A Keyv storage adapter over a SessionStore. The SDK keeps its cookie jar (the `auth` and
 * `twoFactorAuth` cookies) under one Keyv key; we keep all keys as one JSON object in the store, so a
 * restart reuses the session instead of creating a new one with a Basic login.
 *
 * The SDK writes to its secondary store without awaiting it, so writes are chained here and `flush()`
 * waits for them (called on close, so the last cookies are on disk before the process ends).
 */
export class SessionKeyvStore {
  /** Keyv reads these two fields; neither matters for a single-blob store. */
  opts: Record<string, unknown> = {};
  namespace: string | undefined;

  private entries: Map<string, unknown> | undefined;
  private loading: Promise<Map<string, unknown>> | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** A login is under way (`hold`): its cookies stay in memory until `settle` stores the jar it ended with. */
  private holding = false;
  /** The jar as last read from or written to the store (undefined: none). */
  private lastSaved: string | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  async get<Value>(key: string): Promise<Value | undefined> {
    return (await this.load()).get(key) as Value | undefined;
  }

  async set(key: string, value: unknown): Promise<boolean> {
    (await this.load()).set(key, value);
    this.persist();
    return true;
  }

  async delete(key: string): Promise<boolean> {
    const had = (await this.load()).delete(key);
    if (had) this.persist();
    return had;
  }

  async clear(): Promise<void> {
    (await this.load()).clear();
    this.lastSaved = undefined;
    this.writes = this.writes
      .then(() => this.store.clear())
      .catch((err) => this.log.error({ err }, 'VRChat: could not clear the stored session'));
    await this.writes;
  }

  async has(key: string): Promise<boolean> {
    return (await this.load()).has(key);
  }

  /** Keyv subscribes to adapter errors; ours are logged where they happen. */
  on(): this {
    return this;
  }

  async disconnect(): Promise<void> {
    await this.flush();
  }

  /** Resolves once every write so far has reached the store. */
  flush(): Promise<void> {
    return this.writes;
  }

  /**
   * Keeps the cookies of the login that starts now out of the store until `settle`: between its password step
   * and its two-factor step the jar holds a session VRChat does not accept yet, and another process that read
   * it then took it for its own and stopped at 'needs_2fa' (shared-session.test.ts, once on PostgreSQL).
   */
  hold(): void {
    this.holding = true;
  }

  /**
   * Like flush, after letting writes the SDK started without awaiting them reach this adapter first; ends a
   * `hold`, storing the jar the login ended with.
   */
  async settle(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.holding) {
      this.holding = false;
      this.persist();
    }
    await this.writes;
  }

  /**
   * Reads the store again: when the jar there is not the one this adapter last read or wrote (another
   * process logged in meanwhile), takes it over and answers true. The SDK's own in-memory copy must then be
   * dropped by the caller.
   */
  async adoptIfChanged(): Promise<boolean> {
    await this.load();
    await this.settle();
    const raw = await this.store.load();
    if ((raw ?? undefined) === this.lastSaved) return false;
    this.entries = this.parse(raw);
    this.lastSaved = raw ?? undefined;
    return true;
  }

  private load(): Promise<Map<string, unknown>> {
    if (this.entries) return Promise.resolve(this.entries);
    this.loading ??= this.store
      .load()
      .then((raw) => {
        this.lastSaved = raw ?? undefined;
        return this.parse(raw);
      })
      .catch((err) => {
        this.log.error({ err }, 'VRChat: could not read the stored session; starting without one');
        return new Map<string, unknown>();
      })
      .then((entries) => {
        this.entries = entries;
        return entries;
      });
    return this.loading;
  }

  private parse(raw: string | null): Map<string, unknown> {
    if (!raw) return new Map();
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return new Map(Object.entries(parsed));
    } catch {
      // Fall through: a damaged blob is the same as none.
    }
    this.log.warn('VRChat: the stored session was unreadable; starting without one');
    return new Map();
  }

  private persist(): void {
    if (this.holding) return;
    const snapshot = JSON.stringify(Object.fromEntries(this.entries ?? []));
    // The SDK re-saves the jar on every answer that sets a cookie; unchanged jars need no write.
    if (snapshot === this.lastSaved) return;
    this.lastSaved = snapshot;
    this.writes = this.writes
      .then(() => this.store.save(snapshot))
      .catch((err) => this.log.error({ err }, 'VRChat: could not store the session cookies'));
  }
}
