import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../../kernel/context.js';
import { isAppError } from '../../../kernel/errors.js';
import { listenWorldData, notifyWorldData, type WorldDataListener } from './world-data-notify.js';
import {
  deleteStoredBody,
  makeWorldBody,
  readWorldAndBody,
  storeWorldBody,
  type WorldBody,
} from './world-data-store.js';
import { WORLD_REQUESTS_FLUSH_MS, WorldRequestCounter } from './world-requests.js';
import type { WorldRow } from './worlds.service.js';

/** The home page promises updates every minute from the website: no body served is older (unless a platform is down). */
export const WORLD_DATA_FRESH_MS = 60_000;
/** A body this old is rebuilt in the background while it is still served, so it never reaches the minute. */
const REFRESH_AFTER_MS = 45_000;
/** After a failed build, the last body is served this long before the next attempt (no build per request). */
export const RETRY_AFTER_FAILURE_MS = 2_000;
/** While the LISTEN connection is down, a body is checked against the database at most this often. */
const UNLISTENED_LIFETIME_MS = 5_000;
/** A body nobody downloaded for this many flushes (minutes) leaves memory. */
const IDLE_FLUSHES = 10;

interface WorldState {
  body?: WorldBody;
  /** The body matches the world's current settings (built or checked since the last change heard of). */
  current: boolean;
  checkedAt: number;
  /** Bumped by every change heard of: a check or build started before it does not make the body current. */
  generation: number;
  /**
   * The updated_at (ms) the last change heard of moved to, when its notice named it: a check or build that
   * started before the notice but read those very settings still makes its body current.
   */
  heardStamp?: number;
  retryAt: number;
  /** Request-count flushes in a row without a request: a world nobody downloads is let go. */
  idleFlushes: number;
  /** The bot is not in the world's server: answered 404 without asking the database or Discord until then. */
  goneUntil: number;
}

export type BuildWorldText = (world: WorldRow) => Promise<string>;

/**
 * Each process's world data bodies, in memory. The fast path answers from `ready()` without any I/O; a
 * miss goes to `serve()`, which reads the world once and takes the stored body or builds. Changes come
 * from LISTEN world_data (world-data-notify.ts): a settings change makes the next answer a fresh build,
 * a deletion stops serving at once, a body built by another process is taken from the database.
 */
export class WorldDataCache {
  readonly states = new Map<string, WorldState>();
  private readonly building = new Map<string, { stamp: number; promise: Promise<WorldBody> }>();
  private readonly process = randomBytes(6).toString('hex');
  private listener?: WorldDataListener;
  private flushTimer?: NodeJS.Timeout;
  /** Downloads per world, flushed to the database each minute. */
  readonly requests = new WorldRequestCounter();

  constructor(
    private readonly ctx: AppContext,
    private readonly buildText: BuildWorldText,
  ) {}

  /** Serving (the api role): listens for changes, keeps the bodies it serves and flushes the counts. */
  async start(): Promise<void> {
    this.listener = await listenWorldData(
      this.ctx.database,
      { message: (payload) => this.heard(payload), resync: () => this.resync() },
      this.ctx.log,
    );
    this.flushTimer = setInterval(() => this.flush().catch(() => {}), WORLD_REQUESTS_FLUSH_MS);
    this.flushTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush();
    await this.listener?.close();
    this.listener = undefined;
    this.states.clear();
  }

  /** Adds the request counts to the database and lets go of bodies nobody downloads. */
  async flush(): Promise<void> {
    try {
      const requested = await this.requests.flush(this.ctx.db, this.ctx.log);
      for (const [worldId, s] of this.states) {
        s.idleFlushes = requested.has(worldId) ? 0 : s.idleFlushes + 1;
        if (s.idleFlushes >= IDLE_FLUSHES) this.states.delete(worldId);
      }
    } catch (err) {
      this.ctx.log.warn({ err }, 'World data: request counts not stored');
    }
  }

  /** The body to send now, or undefined when `serve()` must decide. Synchronous: the fast path's check. */
  ready(worldId: string): WorldBody | undefined {
    const s = this.states.get(worldId);
    if (!s?.body || !this.listener) return undefined;
    const now = Date.now();
    // A failed build: the last body meanwhile (a platform is down).
    if (!s.current) return now < s.retryAt ? s.body : undefined;
    if (!this.listener.connected() && now - s.checkedAt > UNLISTENED_LIFETIME_MS) return undefined;
    if (now - s.body.builtAt >= REFRESH_AFTER_MS && now >= s.retryAt) this.refreshInBackground(worldId, s);
    return s.body;
  }

  /** The world's body: current if it can be built, else the last one; null when the world is gone. */
  async serve(guid: string): Promise<WorldBody | null> {
    // Kept under the database's spelling, which is what NOTIFY names.
    const worldId = guid.toLowerCase();
    const ready = this.ready(worldId);
    if (ready) return ready;
    const s = this.stateOf(worldId);
    if (s.goneUntil > Date.now()) return null;
    const generation = s.generation;
    const found = await readWorldAndBody(this.ctx.db, worldId);
    if (!found) {
      this.states.delete(worldId);
      return null;
    }
    const { world, stored } = found;
    const stamp = world.updatedAt.getTime();
    const fresher = [s.body, stored].filter((b): b is WorldBody => b?.stamp === stamp);
    const best = fresher.sort((a, b) => b.builtAt - a.builtAt)[0];
    // Built from these settings (by this or another process): served, and rebuilt behind it when old, so no
    // download waits on Discord or VRChat while a body exists (after a restart it may be older than a minute once).
    if (best && (s.generation === generation || best.stamp === s.heardStamp)) {
      this.settle(s, best, generation);
      if (Date.now() - best.builtAt >= REFRESH_AFTER_MS) this.refreshInBackground(worldId, s);
      return best;
    }
    try {
      return await this.build(world, s, generation);
    } catch (err) {
      if (isGone(err)) {
        await this.forget(worldId);
        return null;
      }
      const last = best ?? s.body ?? stored;
      if (!last) throw err;
      this.ctx.log.warn({ err, worldId }, 'World data: rebuild failed; serving the last body');
      s.body = last;
      s.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
      return last;
    }
  }

  /**
   * Builds the world's body now and stores it (the worlds.rebuild job); joins a build already running.
   * Null when the world cannot be served any more (the bot left its server).
   */
  async rebuild(world: WorldRow): Promise<WorldBody | null> {
    try {
      // The row was read before this call: the body refreshes what is served, never decides it is current.
      return await this.build(world, this.states.get(world.id), -1);
    } catch (err) {
      if (!isGone(err)) throw err;
      await this.forget(world.id);
      return null;
    }
  }

  /**
   * Stops serving a world the bot cannot build any more, here and (through the stored body) elsewhere; for a
   * minute (or until its settings change) it is answered 404 without a build per request.
   */
  private async forget(worldId: string): Promise<void> {
    this.states.delete(worldId);
    if (this.listener) {
      const s = this.stateOf(worldId);
      s.goneUntil = Date.now() + WORLD_DATA_FRESH_MS;
    }
    await deleteStoredBody(this.ctx.db, worldId);
  }

  private stateOf(worldId: string): WorldState {
    const known = this.states.get(worldId);
    if (known) return known;
    const s: WorldState = {
      current: false,
      checkedAt: 0,
      generation: 0,
      retryAt: 0,
      idleFlushes: 0,
      goneUntil: 0,
    };
    // Only a serving process keeps bodies; elsewhere (a worker building for the GitHub mirror) they pass through.
    if (this.listener) this.states.set(worldId, s);
    return s;
  }

  /** Offers a body: kept unless older than the one held; current when nothing changed since `generation`. */
  private settle(s: WorldState, body: WorldBody, generation: number): void {
    const held = s.body;
    const older =
      held !== undefined &&
      (body.stamp < held.stamp || (body.stamp === held.stamp && body.builtAt < held.builtAt));
    if (!older) s.body = body;
    const fromLastHeard = generation >= 0 && body.stamp === s.heardStamp;
    if ((s.generation === generation || fromLastHeard) && s.body?.stamp === body.stamp) {
      s.current = true;
      s.checkedAt = Date.now();
    } else if (!older && held && held.stamp !== body.stamp) s.current = false;
  }

  /** One build per world and settings at a time; stored and announced so other processes take it. */
  private build(world: WorldRow, s: WorldState | undefined, generation: number): Promise<WorldBody> {
    const stamp = world.updatedAt.getTime();
    const running = this.building.get(world.id);
    if (running?.stamp === stamp) return running.promise;
    const promise = (async () => {
      const text = await this.buildText(world);
      const body = makeWorldBody(world.id, text, stamp, Date.now());
      if (s && this.states.get(world.id) === s) this.settle(s, body, generation);
      try {
        await storeWorldBody(this.ctx.db, body);
        await notifyWorldData(this.ctx.database, `b:${this.process}:${world.id}`);
      } catch (err) {
        // Deleted meanwhile (the body's row has nothing to point at): the answer to this request still stands.
        this.ctx.log.warn({ err, worldId: world.id }, 'World data: body not stored');
      }
      return body;
    })().finally(() => {
      if (this.building.get(world.id)?.promise === promise) this.building.delete(world.id);
    });
    this.building.set(world.id, { stamp, promise });
    return promise;
  }

  private refreshInBackground(worldId: string, s: WorldState): void {
    if (this.building.has(worldId)) return;
    s.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
    const generation = s.generation;
    void (async () => {
      const found = await readWorldAndBody(this.ctx.db, worldId);
      if (!found) {
        this.states.delete(worldId);
        return;
      }
      await this.build(found.world, s, generation);
    })().catch(async (err) => {
      if (isGone(err)) return this.forget(worldId).catch(() => {});
      this.ctx.log.warn({ err, worldId }, 'World data: background rebuild failed; serving the last body');
    });
  }

  /** The world's settings changed here: as its NOTIFY would say, without waiting for it. */
  changed(worldId: string): void {
    this.heard(`u:${worldId.toLowerCase()}`);
  }

  /** A message on the world_data channel. */
  private heard(payload: string): void {
    const [kind, a, b] = payload.split(':');
    const worldId = kind === 'b' ? b : a;
    const s = worldId ? this.states.get(worldId) : undefined;
    if (!s || !worldId) return;
    if (kind === 'd') this.states.delete(worldId);
    else if (kind === 'u') {
      // The notice may come after this process built the body from those very settings: it names the updated_at
      // they moved to (ms, as a body's stamp), and that body stays current. Equal, not older: two writers'
      // clocks may move updated_at back.
      const stamp = b === undefined ? undefined : Number(b);
      if (s.current && s.body?.stamp === stamp) return;
      s.heardStamp = stamp;
      s.generation += 1;
      s.current = false;
      s.retryAt = 0;
      s.goneUntil = 0;
    } else if (kind === 'b' && a !== this.process) this.takeStored(worldId, s);
  }

  /** Another process built the world's body: take it from the database (one read per build, not per request). */
  private takeStored(worldId: string, s: WorldState): void {
    const generation = s.generation;
    readWorldAndBody(this.ctx.db, worldId)
      .then((found) => {
        if (!found) {
          this.states.delete(worldId);
          return;
        }
        const { world, stored } = found;
        if (stored && stored.stamp === world.updatedAt.getTime()) this.settle(s, stored, generation);
      })
      .catch((err) => this.ctx.log.warn({ err, worldId }, 'World data: could not take a stored body'));
  }

  /** Listening again after a break: every body is checked against the database before it is served. */
  private resync(): void {
    for (const s of this.states.values()) {
      s.generation += 1;
      s.current = false;
      s.retryAt = 0;
    }
  }
}

/** The build's answer that the world cannot be served at all: the bot is not in its server any more. */
function isGone(err: unknown): boolean {
  return isAppError(err, 'missing');
}
