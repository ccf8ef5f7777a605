import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';
import { bossDb } from './boss-db.js';
import type { JobDefinition } from './define.js';
import type { JobQueue, SendJobOptions } from './queue.js';
import { jobRegistry } from './registry.js';

/** The job a worker is handed: its id and the payload as it was stored. */
export interface QueuedJob {
  id: string;
  data: unknown;
}

/**
 * The JobQueue on pg-boss, in the product's own database (schema `pgboss`). Every process can send;
 * only the worker role calls `work`. Queues are created (and their retry settings updated) at start from
 * the registry, so a job type is declared in one place.
 */
export class PgBossJobQueue implements JobQueue {
  readonly boss: PgBoss;
  private readonly registry: readonly JobDefinition[];

  constructor(
    database: Database,
    private readonly log: FastifyBaseLogger,
    registry: readonly JobDefinition[] = jobRegistry,
  ) {
    this.registry = registry;
    // Our own scheduler fires scheduled tasks (they are shown and toggled on /admin), so no pg-boss cron.
    this.boss = new PgBoss({ db: bossDb(database) as PgBoss.Db, schedule: false, migrate: true });
    this.boss.on('error', (err) => this.log.warn({ err }, 'job queue: pg-boss reported an error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const def of this.registry) {
      const options: PgBoss.Queue = {
        name: def.name,
        // At most one waiting and one running job per singleton key: a timer firing while a run is still
        // going queues one follow-up, never a pile.
        policy: 'stately',
        retryLimit: def.retry.limit,
        retryDelay: def.retry.delaySeconds,
        retryBackoff: def.retry.backoff,
        expireInSeconds: def.expireInSeconds,
      };
      await this.boss.createQueue(def.name, options);
      await this.boss.updateQueue(def.name, options);
    }
  }

  async send(name: string, payload: unknown, opts: SendJobOptions = {}): Promise<string | null> {
    const def = this.registry.find((job) => job.name === name);
    if (!def) throw new Error(`Unknown job ${name}: declare it in jobs/registry.ts`);
    const data = def.payload.parse(payload) as object;
    return this.boss.send(name, data, {
      singletonKey: opts.singletonKey,
      startAfter: opts.startAfterSeconds,
    });
  }

  /** Takes jobs of one queue, one at a time, polling every second; answers the worker's id. */
  work(name: string, handler: (job: QueuedJob) => Promise<unknown>): Promise<string> {
    return this.boss.work(name, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) =>
      handler({ id: job.id, data: job.data }),
    );
  }

  /** Stops taking jobs; a running job may finish within the grace time. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000, close: false });
  }
}

/** Builds the queue (call `start()` before sending). */
export function createJobQueue(
  database: Database,
  log: FastifyBaseLogger,
  registry?: readonly JobDefinition[],
): PgBossJobQueue {
  return new PgBossJobQueue(database, log, registry);
}
