import pg from 'pg';

/** Advisory-lock namespace of identify buckets (the second key is `shard_id % max_concurrency`). */
const IDENTIFY_LOCK_NAMESPACE = 72707371;
/** Discord allows one IDENTIFY per bucket per 5 s; a second too early gets op 9 Invalid Session. */
export const IDENTIFY_WINDOW_MS = 5000;
/**
 * The bucket is held this much longer than Discord's window: the window runs from when Discord received
 * the IDENTIFY, which is a little after the lock was taken.
 */
const IDENTIFY_MARGIN_MS = 1000;
/** How often a waiting shard asks for its bucket again. */
const POLL_MS = 250;

/** discord.js's identify throttler (@discordjs/ws `IIdentifyThrottler`). */
export interface IdentifyThrottler {
  waitForIdentify(shardId: number, signal: AbortSignal): Promise<void>;
}

const aborted = (signal: AbortSignal) => signal.reason ?? new Error('Identify wait aborted');

/**
 * Discord's identify limit across every bot process of the deployment: shards identify in buckets of
 * `shard_id % max_concurrency`, one per bucket per 5 s. discord.js counts that per process only, so two
 * processes starting shards of one bucket together would get op 9 and retry. Here a shard takes its bucket's
 * PostgreSQL advisory lock (on a connection of its own) before it identifies and keeps it for the window, so
 * the next shard of that bucket, in any process, identifies only after the window has passed. While the
 * database cannot be reached it paces this process's own shards only (an op 9 then costs a retry, not the gateway).
 */
export function databaseIdentifyThrottler(
  databaseUrl: string,
  maxConcurrency: number,
  windowMs = IDENTIFY_WINDOW_MS,
): IdentifyThrottler {
  /** When each bucket last identified from this process: the pace kept when the database cannot be reached. */
  const localLast = new Map<number, number>();
  const pause = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(aborted(signal));
        },
        { once: true },
      );
    });

  /** Takes the bucket's lock; resolves with the connection holding it, or null when the database is away. */
  const lockBucket = async (bucket: number, signal: AbortSignal): Promise<pg.Client | null> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', () => {});
    try {
      await client.connect();
      for (;;) {
        if (signal.aborted) throw aborted(signal);
        const { rows } = await client.query('select pg_try_advisory_lock($1, $2) as ok', [
          IDENTIFY_LOCK_NAMESPACE,
          bucket,
        ]);
        if (rows[0].ok) return client;
        await pause(POLL_MS, signal);
      }
    } catch {
      await client.end().catch(() => {});
      if (signal.aborted) throw aborted(signal);
      // The database refuses or broke: identifying paced by this process alone beats not identifying.
      return null;
    }
  };

  return {
    async waitForIdentify(shardId, signal) {
      const bucket = shardId % Math.max(1, maxConcurrency);
      const client = await lockBucket(bucket, signal);
      if (!client) {
        const wait = (localLast.get(bucket) ?? 0) + windowMs + IDENTIFY_MARGIN_MS - Date.now();
        if (wait > 0) await pause(wait, signal);
      }
      localLast.set(bucket, Date.now());
      // Closing the connection lets the bucket go once the window has passed.
      if (client) setTimeout(() => void client.end().catch(() => {}), windowMs + IDENTIFY_MARGIN_MS).unref();
    },
  };
}
