import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { BossDb } from './boss-db.js';
import { fetchNextJobSql, handBackJobSql, renewLeaseSql } from './boss-sql.js';

/** The job a worker is handed: its id and the payload as it was stored. */
export interface QueuedJob {
  id: string;
  data: unknown;
}

/** A fetched job and what it was before the fetch (to hand it back untouched). */
interface FetchedJob extends QueuedJob {
  wasState: string;
  wasStartedOn: string | null;
  wasOutput: string | null;
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
  /** A run taking longer is told to stop (its signal aborts); see ABORT_GRACE_MS. */
  maxRunSeconds: number;
  /** How many jobs whose payload says `long: true` run at once over every process (undefined: no limit). */
  longAtOnce?: number;
  /** Runs a fetch when the queue's previous fetch in this process ended (queues with a long-job cap). */
  fetchInTurn?<T>(fetch: () => Promise<T>): Promise<T>;
  /** How long a handler may take to return once told to stop (default ABORT_GRACE_MS). */
  abortGraceMs?: number;
  /** Resolves when the queue may have a job due (job-wakeups.ts); the loop then fetches again. */
  waitForJob(): Promise<void>;
  /** Runs one job; `signal` aborts when its time is up or the worker stops: return early then. */
  handler(job: QueuedJob, signal: AbortSignal): Promise<unknown>;
}

/** A handler told to stop has this long to return before its lease is left to run out. */
export const ABORT_GRACE_MS = 10_000;

type Outcome = { what: 'complete' | 'fail'; output: object };

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
  let current: { id: string; done: Promise<void>; abort: AbortController } | undefined;
  let wakeForStop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    wakeForStop = resolve;
  });

  const fetchNext = async (): Promise<FetchedJob | undefined> => {
    try {
      const fetch = () => o.db.executeSql(fetchNextJobSql, [o.name, o.workerName, o.longAtOnce ?? null]);
      const { rows } = await (o.fetchInTurn ? o.fetchInTurn(fetch) : fetch());
      return rows[0] as unknown as FetchedJob | undefined;
    } catch (err) {
      // Two workers racing for one key's jobs collide on pg-boss's unique index: the next poll settles it.
      if ((err as { code?: string }).code !== '23505')
        o.log.warn({ err, queue: o.name }, 'job queue: could not fetch a job');
      return undefined;
    }
  };

  /**
   * A job fetched while the worker was being stopped goes back to the queue unrun: `stop` found no job running
   * and waits for the loop, so running it would hold the stop until the job ended by itself, never told to stop.
   * If the database is away the job's lease runs out and pg-boss retries it, as for a worker that died.
   */
  const handBack = async (job: FetchedJob) => {
    try {
      await o.db.executeSql(handBackJobSql, [o.name, job.id, job.wasState, job.wasStartedOn, job.wasOutput]);
    } catch (err) {
      o.log.warn({ err, queue: o.name, id: job.id }, 'job queue: could not hand a job back while stopping');
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

  /**
   * Runs one job until its handler returns. When its time is up the handler's signal aborts and the run waits
   * for it to return (a pass that stops early completes: the next one resumes). A handler that has not returned
   * within the grace is left holding the job without renewal, so its lease runs out and pg-boss retries it
   * elsewhere; this loop takes no other job of the queue until that handler has returned, so one process never
   * runs two passes of a job at once (the old race with a timer let expired passes pile up).
   */
  const runOne = async (job: QueuedJob, abort: AbortController) => {
    const renewal = setInterval(() => renew(job.id).catch(() => {}), (o.leaseSeconds * 1000) / 3);
    const overtime = setTimeout(
      () => abort.abort(new Error(`The job ran longer than ${o.maxRunSeconds} s`)),
      o.maxRunSeconds * 1000,
    );
    const running = o.handler(job, abort.signal).then(
      (value): Outcome => ({ what: 'complete', output: (value ?? {}) as object }),
      (err): Outcome => ({ what: 'fail', output: { message: (err as Error)?.message ?? String(err) } }),
    );
    let grace: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) =>
      abort.signal.addEventListener(
        'abort',
        () => {
          grace = setTimeout(() => resolve(undefined), o.abortGraceMs ?? ABORT_GRACE_MS);
        },
        { once: true },
      ),
    );
    const outcome = await Promise.race([running, late]);
    clearInterval(renewal);
    clearTimeout(overtime);
    clearTimeout(grace);
    if (outcome) {
      if (abort.signal.aborted && outcome.what === 'complete')
        outcome.output = { ...outcome.output, stopped: String((abort.signal.reason as Error)?.message) };
      await record(job.id, outcome.what, outcome.output);
      return;
    }
    o.log.error(
      { queue: o.name, id: job.id },
      'job queue: the job did not stop when told to; its lease runs out and it is retried',
    );
    await running;
  };

  const loop = (async () => {
    while (!stopping) {
      const job = await fetchNext();
      if (!job) {
        await Promise.race([o.waitForJob(), stopped]);
        continue;
      }
      if (stopping) {
        await handBack(job);
        break;
      }
      const abort = new AbortController();
      current = { id: job.id, done: runOne(job, abort), abort };
      await current.done;
      current = undefined;
    }
  })();

  return {
    async stop(graceMs) {
      stopping = true;
      wakeForStop();
      const running = current;
      if (!running) return loop;
      running.abort.abort(new Error('The worker is stopping'));
      const finished = await Promise.race([
        running.done.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), graceMs)),
      ]);
      // Still running after the grace time: failed now, so another worker retries it without waiting for the lease.
      if (!finished) await record(running.id, 'fail', { message: 'The worker stopped while the job ran' });
    },
  };
}
