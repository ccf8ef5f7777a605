import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../test/db.js';
import type { Database } from '../db/client.js';
import type { AppContext } from '../kernel/context.js';
import { waitFor } from '../platforms/testing.js';
import { defineJob, type JobDefinition } from './define.js';
import { createJobQueue, type PgBossJobQueue } from './pg-boss-queue.js';
import { startJobWorker } from './worker.js';

const log = pino({ level: 'silent' });
/** Each run's tag, when it started, and whether its signal aborted. */
const runs: { tag: string; aborted: boolean }[] = [];
let running = 0;
let mostAtOnce = 0;
/** Tags whose handler ignores its signal and waits until released. */
const holds = new Map<string, () => void>();
const pass = defineJob({
  name: 'test.pass',
  payload: z.object({ tag: z.string() }),
  retry: { limit: 3, delaySeconds: 0, backoff: false },
  // A pass's time limit, far shorter than the lease: an expired pass must not be retried beside itself.
  expireInSeconds: 0.3,
  async run(_ctx, { tag }, signal) {
    const run = { tag, aborted: false };
    runs.push(run);
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    try {
      if (tag.startsWith('ignores')) {
        signal?.addEventListener('abort', () => (run.aborted = true));
        await new Promise<void>((resolve) => holds.set(`${tag}#${runs.length}`, resolve));
      } else {
        // A well-behaved pass: works item after item until told to stop.
        await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
        run.aborted = true;
      }
    } finally {
      running--;
    }
  },
});
/** A long pass (within its time), held until released; `passRuns` counts its runs by worker. */
const passRuns: string[] = [];
const longPass = defineJob({
  name: 'test.longPass',
  payload: z.object({ worker: z.string().optional() }),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  async run() {
    passRuns.push('run');
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((resolve) => holds.set(`long#${passRuns.length}`, resolve));
    running--;
  },
});
const registry = [pass, longPass] as JobDefinition[];
const LEASE = 2;

describe(`jobs stop when their time is up (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: Database;
  let queue: PgBossJobQueue;
  let stopWorker: (() => Promise<void>) | undefined;
  const job = async (id: string) =>
    (await database.executeSql('select state, output from pgboss.job where id = $1', [id])).rows[0] as {
      state: string;
      output: Record<string, unknown>;
    };

  beforeAll(async () => {
    database = await openTestDatabase();
    queue = createJobQueue(database, log, registry, { leaseSeconds: LEASE, sweepMs: 200, abortGraceMs: 200 });
    await queue.start();
  });
  afterEach(async () => {
    for (const release of holds.values()) release();
    await stopWorker?.();
    stopWorker = undefined;
  });
  afterAll(async () => {
    await queue?.stop();
    await database?.close();
  });
  const startWorker = async () => {
    const ctx = { db: database.db, database, log, jobs: queue } as unknown as AppContext;
    stopWorker = await startJobWorker(ctx, registry);
  };

  it('never runs two passes of one scheduled job at once, even with two worker processes', async () => {
    mostAtOnce = 0;
    // A second process: its own queue and worker on the same database.
    const other = createJobQueue(database, log, registry, { leaseSeconds: LEASE, sweepMs: 200 });
    await other.start();
    const otherCtx = { db: database.db, database, log, jobs: other } as unknown as AppContext;
    const stopOther = await startJobWorker(otherCtx, registry);
    try {
      await startWorker();
      // The scheduler sends a scheduled job under its name as singleton key; the timer fires again meanwhile.
      const first = (await queue.send(longPass, {}, { singletonKey: longPass.name })) as string;
      await waitFor(() => passRuns.length === 1, 10_000);
      const second = (await other.send(longPass, {}, { singletonKey: longPass.name })) as string;
      expect(second).toBeTruthy();
      // Longer than a lease: renewed, the first pass keeps the job and neither worker starts the second.
      await waitFor(async () => (await job(first)).output?.worker !== undefined, 5000);
      const renewedPast = Date.now() + LEASE * 1.5 * 1000;
      await waitFor(() => Date.now() > renewedPast || passRuns.length > 1, 10_000);
      expect(passRuns).toHaveLength(1);
      expect((await job(second)).state).toBe('created');
      holds.get('long#1')?.();
      await waitFor(() => passRuns.length === 2, 10_000);
      expect(mostAtOnce).toBe(1);
    } finally {
      for (const release of holds.values()) release();
      await stopOther();
      await other.stop();
    }
  });

  it('tells a pass its time is up, and records it completed once it has returned (the next pass resumes)', async () => {
    await startWorker();
    const id = (await queue.send(pass, { tag: 'stops' })) as string;
    await waitFor(async () => (await job(id)).state === 'completed', 10_000);
    expect(runs.filter((r) => r.tag === 'stops')).toEqual([{ tag: 'stops', aborted: true }]);
    expect((await job(id)).output).toMatchObject({ stopped: 'The job ran longer than 0.3 s' });
  });

  it('starts no second pass while a pass that ignores its time still runs: its lease runs out, and the retry waits for it', async () => {
    runs.length = 0;
    mostAtOnce = 0;
    await startWorker();
    const id = (await queue.send(pass, { tag: 'ignores' })) as string;
    await waitFor(() => runs.length === 1, 10_000);
    // Told to stop, past the grace, the job is left to its lease, which runs out: pg-boss makes it a retry.
    // This process, still running the first pass, must not take it (a timer racing the handler did at once).
    await waitFor(async () => runs.length > 1 || (await job(id)).state !== 'active', 15_000);
    expect(runs).toEqual([{ tag: 'ignores', aborted: true }]);
    // Once the stuck pass returns, the worker goes on and runs the retry: never two at once.
    holds.get('ignores#1')?.();
    await waitFor(() => runs.length === 2, 15_000);
    expect(mostAtOnce).toBe(1);
  });
});
