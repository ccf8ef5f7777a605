import pg from 'pg';
import { wakeableSleep } from '../wakeable-sleep.js';

/** Advisory-lock namespace of gateway shards (the second key is the shard id). */
const GATEWAY_LOCK_NAMESPACE = 72707370;

export interface GatewayLock {
  /** Resolves once this process holds every shard's lock; rejects only when stopped. */
  acquired: Promise<void>;
  /** Called when the lock is lost (the database connection broke): the gateway must stop at once. */
  onLost(handler: () => void): void;
  release(): Promise<void>;
}

/**
 * Exactly one process holds the Discord gateway for a shard: a PostgreSQL session advisory lock on a
 * dedicated connection, so a process that dies (even killed) frees it with its connection, and a waiting
 * `bot` process takes over on its next try. On embedded PGlite there is only one process: no wait.
 */
export function acquireGatewayLock(opts: {
  databaseUrl?: string;
  shardIds: number[];
  /** How often a waiting process tries again (default 2 s). */
  retryMs?: number;
  onWaiting?: () => void;
}): GatewayLock {
  const lostHandlers: Array<() => void> = [];
  if (!opts.databaseUrl) return { acquired: Promise.resolve(), onLost: () => {}, release: async () => {} };

  let stopped = false;
  let client: pg.Client | undefined;
  const { sleep, wake } = wakeableSleep();

  const tryOnce = async (): Promise<boolean> => {
    const c = new pg.Client({ connectionString: opts.databaseUrl });
    c.on('error', () => {});
    await c.connect();
    const held: number[] = [];
    for (const id of opts.shardIds) {
      const { rows } = await c.query('select pg_try_advisory_lock($1, $2) as ok', [
        GATEWAY_LOCK_NAMESPACE,
        id,
      ]);
      if (!rows[0].ok) break;
      held.push(id);
    }
    if (held.length === opts.shardIds.length) {
      client = c;
      let lost = false;
      const onLost = () => {
        if (stopped || lost) return;
        lost = true;
        for (const h of lostHandlers) h();
      };
      c.on('error', onLost);
      c.on('end', onLost);
      return true;
    }
    await c.end().catch(() => {});
    return false;
  };

  const acquired = (async () => {
    let told = false;
    while (!stopped) {
      const ok = await tryOnce().catch(() => false);
      if (ok) return;
      if (!told) opts.onWaiting?.();
      told = true;
      await sleep(opts.retryMs ?? 2000);
    }
    throw new Error('Gateway lock: stopped while waiting');
  })();
  acquired.catch(() => {});

  return {
    acquired,
    onLost: (h) => lostHandlers.push(h),
    async release() {
      stopped = true;
      wake();
      await client?.end().catch(() => {});
    },
  };
}
