import { Socket } from 'node:net';
import pg from 'pg';
import { wakeableSleep } from '../wakeable-sleep.js';

/** Advisory-lock namespace of gateway shards (the second key is the shard id). */
const GATEWAY_LOCK_NAMESPACE = 72707370;

export interface GatewayLock {
  /**
   * Resolves with the shards this process now holds: every one of `shardIds`, or with `atMost` the free ones
   * it could take (at least one); rejects only when stopped.
   */
  acquired: Promise<number[]>;
  /**
   * Takes free shards of `shardIds` beside those held, at most `limit` (a holder with room, once another
   * holder died); answers the ones taken. Only once `acquired` resolved.
   */
  takeMore(limit: number): Promise<number[]>;
  /** Lets go of shards taken by `takeMore` that this process will not run after all. */
  giveBack(ids: number[]): Promise<void>;
  /** Calls `handler` on every NOTIFY of `channel` while the lock is held (its own connection listens). */
  listen(channel: string, handler: (payload: string | undefined) => void): Promise<void>;
  /** Called when the lock is lost (the database connection broke): the gateway must stop at once. */
  onLost(handler: () => void): void;
  release(): Promise<void>;
}

/** How often the holder checks that its lock's connection still answers (default; also the check's deadline). */
const LIVENESS_MS = 5_000;

/**
 * The lock's connection. A connection can die without a word (a firewall or NAT dropping it, a server host
 * gone): this process would then keep its gateway while the server, once it notices, frees the shards for
 * another process, and both would act on every event. So the holder asks `select 1` every few seconds and
 * stops its gateway when no answer comes within the deadline (at most about 10 s after the silence began),
 * and the server is told to probe an idle client after 30 s and give up after three unanswered probes 10 s
 * apart: it frees the shards about a minute after the silence began, well after the old holder stopped.
 */
export function gatewayLockClientConfig(databaseUrl: string): pg.ClientConfig {
  return {
    connectionString: databaseUrl,
    application_name: 'vrclink gateway lock',
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options: '-c tcp_keepalives_idle=30 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3',
  };
}

/**
 * Exactly one process holds the Discord gateway for a shard: a PostgreSQL session advisory lock on a
 * dedicated connection, so a process that dies (even killed) frees it with its connection, and a waiting
 * `bot` process takes over on its next try. On embedded PGlite there is only one process: no wait.
 */
export function acquireGatewayLock(opts: {
  databaseUrl?: string;
  shardIds: number[];
  /**
   * Take any free shards of `shardIds`, at most this many (at least one), instead of all of them: so several
   * bot processes spread the shards over themselves, each taking what the others left.
   */
  atMost?: number;
  /** How often a waiting process tries again (default 2 s). */
  retryMs?: number;
  /** How often the holder checks its connection, and how long an answer may take (default 5 s). */
  livenessMs?: number;
  onWaiting?: () => void;
}): GatewayLock {
  const lostHandlers: Array<() => void> = [];
  if (!opts.databaseUrl) {
    const all = opts.atMost ? opts.shardIds.slice(0, opts.atMost) : opts.shardIds;
    return {
      acquired: Promise.resolve(all),
      takeMore: async () => [],
      giveBack: async () => {},
      listen: async () => {},
      onLost: () => {},
      release: async () => {},
    };
  }
  const wanted = opts.atMost ? Math.min(opts.atMost, opts.shardIds.length) : opts.shardIds.length;

  let stopped = false;
  let client: pg.Client | undefined;
  let socket: Socket | undefined;
  let lost = false;
  let liveness: NodeJS.Timeout | undefined;
  const heldIds = new Set<number>();
  const { sleep, wake } = wakeableSleep();
  const every = opts.livenessMs ?? LIVENESS_MS;

  /** The connection broke or went silent: tell the holder, and drop it (the server frees its locks). */
  const lose = () => {
    clearInterval(liveness);
    if (lost) return;
    lost = true;
    socket?.destroy();
    if (!stopped) for (const h of lostHandlers) h();
  };

  /** One `select 1` within the deadline; a late answer that was only queued behind a busy event loop counts. */
  const answers = async (c: pg.Client, deadlineMs: number) => {
    let answered = false;
    const ping = c.query('select 1').then(() => {
      answered = true;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, deadlineMs);
    });
    await Promise.race([ping, late]).catch(() => {});
    clearTimeout(timer);
    // Timers run before I/O in Node's loop: let this turn's socket reads land before judging.
    await new Promise((resolve) => setImmediate(resolve));
    return answered;
  };

  /** Takes the locks on one connection; answers the shards held, or null (and lets go of them) when too few. */
  const tryOnce = async (): Promise<number[] | null> => {
    const c = new pg.Client({
      ...gatewayLockClientConfig(opts.databaseUrl as string),
      // Kept, so a silent connection can be dropped at once (ending it politely would wait for the silent peer).
      stream: () => {
        socket = new Socket();
        return socket;
      },
    });
    c.on('error', () => {});
    await c.connect();
    const held: number[] = [];
    for (const id of opts.shardIds) {
      if (held.length === wanted) break;
      const { rows } = await c.query('select pg_try_advisory_lock($1, $2) as ok', [
        GATEWAY_LOCK_NAMESPACE,
        id,
      ]);
      if (rows[0].ok) held.push(id);
      else if (!opts.atMost) break;
    }
    if (held.length === wanted || (opts.atMost && held.length > 0)) {
      client = c;
      c.on('error', lose);
      c.on('end', lose);
      let checking = false;
      liveness = setInterval(() => {
        if (checking || lost || stopped) return;
        checking = true;
        answers(c, every)
          .then((ok) => {
            if (!ok && !stopped) lose();
          })
          .catch(lose)
          .finally(() => {
            checking = false;
          });
      }, every);
      liveness.unref();
      for (const id of held) heldIds.add(id);
      return held;
    }
    await c.end().catch(() => {});
    return null;
  };

  const acquired = (async () => {
    let told = false;
    while (!stopped) {
      const held = await tryOnce().catch(() => null);
      if (held) return held;
      if (!told) opts.onWaiting?.();
      told = true;
      await sleep(opts.retryMs ?? 2000);
    }
    throw new Error('Gateway lock: stopped while waiting');
  })();
  acquired.catch(() => {});

  return {
    acquired,
    async takeMore(limit) {
      const taken: number[] = [];
      for (const id of opts.shardIds) {
        if (!client || stopped || taken.length >= limit) break;
        // Advisory locks count per session: asking again for one held would take it twice.
        if (heldIds.has(id)) continue;
        const { rows } = await client.query('select pg_try_advisory_lock($1, $2) as ok', [
          GATEWAY_LOCK_NAMESPACE,
          id,
        ]);
        if (!rows[0].ok) continue;
        heldIds.add(id);
        taken.push(id);
      }
      return taken;
    },
    async giveBack(ids) {
      for (const id of ids) {
        if (!client || !heldIds.delete(id)) continue;
        await client.query('select pg_advisory_unlock($1, $2)', [GATEWAY_LOCK_NAMESPACE, id]);
      }
    },
    async listen(channel, handler) {
      if (!client) return;
      client.on('notification', (msg) => {
        if (msg.channel === channel) handler(msg.payload);
      });
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    },
    onLost: (h) => lostHandlers.push(h),
    async release() {
      stopped = true;
      wake();
      clearInterval(liveness);
      // A lost connection is already dropped (the server frees its locks when it notices).
      if (lost) return;
      // Let go of the shards before the connection ends, so they are free once this resolves: a closing
      // backend frees its locks only as it exits, one by one (a waiting process then saw one shard of two free).
      const letGo = (async () => {
        await client?.query('select pg_advisory_unlock_all()').catch(() => {});
        await client?.end().catch(() => {});
      })();
      // A connection gone silent since the last check would hold shutdown forever: drop it at the deadline.
      const late = new Promise<boolean>((resolve) => setTimeout(resolve, every, true).unref());
      if (await Promise.race([letGo.then(() => false), late])) socket?.destroy();
    },
  };
}
