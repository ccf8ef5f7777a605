import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { wakeableSleep } from '../wakeable-sleep.js';
import type { BossDb } from './boss-db.js';
import { fetchNextJobSql, renewLeaseSql } from './boss-sql.js';

/** The job a worker is handed: its id and the payload as it was stored. */
export interface QueuedJob {
  id: string;
  data: unknown;
}

export interface JobLoopOptions {
  boss: PgBoss;
  db: BossDb;
  log: FastifyBaseLogger;
  name: string;
  /** This process (its instance name), recorded on the jobs it holds. */
  workerName: string;
  /** A running job's lease: renewed every third of it; a worker that stops renewing loses the job. */
  leaseSeconds: number;
  /** A run taking longer fails (and is retried). */
  maxRunSeconds: number;
  pollMs: number;
  handler(job: QueuedJob): Promise<unknown>;
}

/** How often recording a job's outcome is tried before leaving it to the lease (the database is away). */
const RECORD_ATTEMPTS = 3;

/**
 * One queue's worker: takes one job at a time, holds it by a lease it renews while the handler runs, and
 * records the outcome awaited (pg-boss 10's own worker records it without awaiting, so a database error
 * there was an unhandled rejection that ended the process). An outcome that cannot be recorded is logged;
 * the job's lease then runs out and pg-boss retries it, as it does a job whose worker died.
 */
export function startJobLoop(o: JobLoopOptions): { stop(graceMs: number): Promise<void> } {
  let stopping = false;
  let current: { id: string; done: Promise<void> } | undefined;
  const { sleep, wake } = wakeableSleep();

  const fetchNext = async (): Promise<QueuedJob | undefined> => {
    try {
      const { rows } = await o.db.executeSql(fetchNextJobSql, [o.name, o.workerName]);
      return rows[0] as unknown as QueuedJob | undefined;
    } catch (err) {
      // Two workers racing for one key's jobs collide on pg-boss's unique index: the next poll settles it.
      if ((err as { code?: string }).code !== '23505')
        o.log.warn({ err, queue: o.name }, 'job queue: could not fetch a job');
      return undefined;
    }
  };

  const renew = async (id: string) => {
    try {
      const { rows } = await o.db.executeSql(renewLeaseSql, [o.name, id, o.leaseSeconds]);
      if (rows.length === 0)
        o.log.warn({ queue: o.name, id }, 'job queue: the job is no longer ours (its lease ran out)');
    } catch (err) {
      o.log.warn({ err, queue: o.name, id }, 'job queue: could not renew the job lease');
    }
  };

  const record = async (id: string, what: 'complete' | 'fail', output: object) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await (what === 'complete' ? o.boss.complete(o.name, id, output) : o.boss.fail(o.name, id, output));
        return;
      } catch (err) {
        if (attempt >= RECORD_ATTEMPTS) {
          o.log.error(
            { err, queue: o.name, id },
            `job queue: could not record the job's outcome (${what}); it runs again when its lease runs out`,
          );
          return;
        }
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  };

  const runOne = async (job: QueuedJob) => {
    const renewal = setInterval(() => renew(job.id).catch(() => {}), (o.leaseSeconds * 1000) / 3);
    let timer: NodeJS.Timeout | undefined;
    const overtime = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`The job ran longer than ${o.maxRunSeconds} s`)),
        o.maxRunSeconds * 1000,
      );
    });
    let outcome: { what: 'complete' | 'fail'; output: object };
    try {
      const value = await Promise.race([o.handler(job), overtime]);
      outcome = { what: 'complete', output: (value ?? {}) as object };
    } catch (err) {
      outcome = { what: 'fail', output: { message: (err as Error)?.message ?? String(err) } };
    } finally {
      clearInterval(renewal);
      clearTimeout(timer);
    }
    await record(job.id, outcome.what, outcome.output);
  };

  const loop = (async () => {
    while (!stopping) {
      const job = await fetchNext();
      if (!job) {
        await sleep(o.pollMs);
        continue;
      }
      current = { id: job.id, done: runOne(job) };
      await current.done;
      current = undefined;
    }
  })();

  return {
    async stop(graceMs) {
      stopping = true;
      wake();
      const running = current;
      if (!running) return loop;
      const finished = await Promise.race([
        running.done.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), graceMs)),
      ]);
      // Still running after the grace time: failed now, so another worker retries it without waiting for the lease.
      if (!finished) await record(running.id, 'fail', { message: 'The worker stopped while the job ran' });
    },
  };
}
