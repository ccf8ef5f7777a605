import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';
import type { JobPayload, JobType } from '../kernel/job-catalog.js';
import { type BossDb, bossDb, withBossInstallLock } from './boss-db.js';
import { jobsOfKeySql, runningNamingSql, runningOfKeySql, stillRunningSql } from './boss-sql.js';
import type { JobDefinition } from './define.js';
import { type QueuedJob, startJobLoop } from './job-loop.js';
import { createJobWakeups, type JobWakeups } from './job-wakeups.js';
import type { JobQueue, KeyedJobState, RunningJobFilter, SendJobOptions } from './queue.js';
import { jobRegistry } from './registry.js';

export type { QueuedJob };

/** A running job's lease: a worker that stops renewing it (killed, cut off) loses the job this soon. */
export const JOB_LEASE_SECONDS = 30;
/** How often expired leases are looked for (pg-boss's own maintenance runs every 2 minutes). */
const EXPIRY_SWEEP_MS = 10_000;
/** How often a wait for running jobs (untilRunningFinish) looks whether they finished. */
const RUNNING_POLL_MS = 250;
/** How often idle queues are looked at for due jobs (a delayed job, a retry, another process's job). */
const JOB_POLL_MS = 1000;

export interface JobQueueOptions {
  /** pg-boss's SQL runner (default: the product's database); tests wrap it to inject faults. */
  bossDb?: BossDb;
  leaseSeconds?: number;
  /** How long a handler told to stop may take to return (default ABORT_GRACE_MS in job-loop.ts). */
  abortGraceMs?: number;
  sweepMs?: number;
  /** This process's name (INSTANCE_NAME), recorded on the jobs its worker holds. */
  workerName?: string;
}

/**
 * The JobQueue on pg-boss, in the product's own database (schema `pgboss`). Every process can send;
 * only the worker role calls `work`. Queues are created (and their retry settings updated) at start from
 * the registry, so a job type is declared in one place.
 */
export class PgBossJobQueue implements JobQueue {
  readonly boss: PgBoss;
  private readonly registry: readonly JobDefinition[];
  private readonly db: BossDb;
  private readonly database: Database;
  private readonly leaseSeconds: number;
  private readonly loops = new Map<string, { stop(graceMs: number): Promise<void> }>();
  /** Per queue with a long-job cap: its loops' fetches, one after another (see fetchInTurn). */
  private readonly fetchTurns = new Map<string, Promise<unknown>>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly wakeups: JobWakeups;

  constructor(
    database: Database,
    private readonly log: FastifyBaseLogger,
    registry: readonly JobDefinition[] = jobRegistry,
    private readonly opts: JobQueueOptions = {},
  ) {
    this.registry = registry;
    this.database = database;
    this.db = opts.bossDb ?? bossDb(database);
    this.leaseSeconds = opts.leaseSeconds ?? JOB_LEASE_SECONDS;
    this.wakeups = createJobWakeups(this.db, log, JOB_POLL_MS);
    // Our own scheduler fires scheduled tasks (they are shown and toggled on /admin), so no pg-boss cron.
    this.boss = new PgBoss({ db: this.db as PgBoss.Db, schedule: false, migrate: true });
    this.boss.on('error', (err) => this.log.warn({ err }, 'job queue: pg-boss reported an error'));
  }

  async start(): Promise<void> {
    await withBossInstallLock(this.database, () => this.install());
  }

  /** pg-boss's schema, then the registry's queues with their settings. */
  private async install(): Promise<void> {
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
        // A job's expiry is its lease, renewed while it runs (def.expireInSeconds caps the run instead).
        expireInSeconds: this.leaseSeconds,
      };
      await this.boss.createQueue(def.name, options);
      await this.boss.updateQueue(def.name, options);
    }
  }

  async send<T extends JobType>(
    job: T,
    payload: JobPayload<T>,
    opts: SendJobOptions = {},
  ): Promise<string | null> {
    const def = this.registry.find((known) => known.name === job.name);
    if (!def) throw new Error(`Unknown job ${job.name}: bind it in jobs/registry.ts`);
    const data = def.payload.parse(payload) as object;
    const id = await this.boss.send(job.name, data, {
      singletonKey: opts.singletonKey,
      startAfter: opts.startAfterSeconds,
      ...(opts.priority === undefined ? {} : { priority: Math.round(opts.priority) }),
    });
    // This process's idle workers of the queue take it now; a delayed one is found by the poll when due.
    if (id && !opts.startAfterSeconds) this.wakeups.wake(job.name);
    return id;
  }

  async jobsOfKey(job: JobType, singletonKey: string): Promise<KeyedJobState> {
    const { rows } = await this.db.executeSql(jobsOfKeySql, [job.name, singletonKey]);
    const waiting = rows
      .filter((r) => r.state !== 'active')
      .map((r) => new Date(r.startAfter as string | Date).getTime());
    return {
      running: rows.some((r) => r.state === 'active'),
      startsAt: waiting.length > 0 ? new Date(Math.max(Date.now(), Math.min(...waiting))) : null,
    };
  }

  async untilRunningFinish(
    which: RunningJobFilter,
    opts: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<number> {
    const { rows } =
      'job' in which
        ? await this.db.executeSql(runningOfKeySql, [which.job.name, which.singletonKey])
        : await this.db.executeSql(runningNamingSql, [which.naming, which.exceptJob.name]);
    const ids = rows.map((r) => String(r.id));
    if (ids.length === 0) return 0;
    // Polled: a finished job tells no one (a background job's wait, so a quarter second is polite enough).
    const end = Date.now() + opts.timeoutMs;
    while (Date.now() < end && !opts.signal?.aborted) {
      const { rows: left } = await this.db.executeSql(stillRunningSql, [ids]);
      if (Number(left[0]?.n ?? 0) === 0) break;
      await sleep(RUNNING_POLL_MS, undefined, { signal: opts.signal }).catch(() => undefined);
    }
    return ids.length;
  }

  /**
   * Takes jobs of one queue, one at a time, woken when it has one due (job-wakeups.ts), each held by a renewed lease (see
   * job-loop.ts); answers the worker's id. Expired leases are swept while any queue is worked.
   */
  work(
    name: string,
    handler: (job: QueuedJob, signal: AbortSignal) => Promise<unknown>,
    opts: { longAtOnce?: number } = {},
  ): string {
    const def = this.registry.find((job) => job.name === name);
    const id = `${name}:${this.loops.size}:${Date.now()}`;
    this.loops.set(
      id,
      startJobLoop({
        boss: this.boss,
        db: this.db,
        log: this.log,
        name,
        workerName: this.opts.workerName ?? 'worker',
        leaseSeconds: this.leaseSeconds,
        maxRunSeconds: def?.expireInSeconds ?? 15 * 60,
        abortGraceMs: this.opts.abortGraceMs,
        longAtOnce: opts.longAtOnce,
        fetchInTurn: opts.longAtOnce === undefined ? undefined : (fetch) => this.fetchInTurn(name, fetch),
        waitForJob: () => this.wakeups.waitForJob(name),
        handler,
      }),
    );
    this.sweeper ??= setInterval(
      () =>
        void this.boss
          .expire()
          .catch((err: unknown) => this.log.warn({ err }, 'job queue: could not expire lapsed leases')),
      this.opts.sweepMs ?? EXPIRY_SWEEP_MS,
    );
    return id;
  }

  /**
   * Runs a fetch of a queue with a long-job cap after this process's previous one ended: fetches running at
   * once each count the long jobs as their statement starts and could all take one (all loops fetch together
   * when the worker starts). Across processes they still may pass the cap by one each.
   */
  private fetchInTurn<T>(name: string, fetch: () => Promise<T>): Promise<T> {
    const previous = this.fetchTurns.get(name) ?? Promise.resolve();
    const mine = previous.then(fetch, fetch);
    this.fetchTurns.set(
      name,
      mine.catch(() => undefined),
    );
    return mine;
  }

  /** Stops one worker; its running job may finish within the grace time, else it is failed (and retried). */
  async offWork(id: string, graceMs = 10_000): Promise<void> {
    const loop = this.loops.get(id);
    this.loops.delete(id);
    if (this.loops.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
    await loop?.stop(graceMs);
    if (this.loops.size === 0) this.wakeups.stop();
  }

  /** Stops taking jobs; a running job may finish within the grace time, else it is handed back. */
  async stop(graceMs = 10_000): Promise<void> {
    await Promise.all([...this.loops.keys()].map((id) => this.offWork(id, graceMs)));
    await this.boss.stop({ graceful: true, timeout: Math.max(1, graceMs), close: false });
  }
}

/** Builds the queue (call `start()` before sending). */
export function createJobQueue(
  database: Database,
  log: FastifyBaseLogger,
  registry?: readonly JobDefinition[],
  opts?: JobQueueOptions,
): PgBossJobQueue {
  return new PgBossJobQueue(database, log, registry, opts);
}
