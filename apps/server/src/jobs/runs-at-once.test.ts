import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../test/db.js';
import type { Database } from '../db/client.js';
import type { AppContext } from '../kernel/context.js';
import { waitFor } from '../platforms/testing.js';
import { defineJob, type JobDefinition } from './define.js';
import { syncGuildHandler } from './handlers/sync-guild.js';
import { createJobQueue, type PgBossJobQueue } from './pg-boss-queue.js';
import { startJobWorker } from './worker.js';

const log = pino({ level: 'silent' });
let running = 0;
let mostAtOnce = 0;
let finished = 0;
const release: (() => void)[] = [];
/** A job held until released, counting how many run at once; `runsAtOnce` as the test's context says. */
const held = defineJob({
  name: 'test.held',
  payload: z.object({ key: z.string() }),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  runsAtOnce: (ctx) => (ctx as unknown as { loops: number }).loops,
  async run() {
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((done) => release.push(done));
    running--;
    finished++;
  },
});

/**
 * A queue whose definition runs several jobs at once gets that many loops in one worker process; the sync
 * asks for one per VRChat bot account, so servers served by different accounts sync side by side.
 */
describe('jobs a worker process runs at once', () => {
  let database: Database;
  let queue: PgBossJobQueue;
  beforeAll(async () => {
    database = await openTestDatabase();
    queue = createJobQueue(database, log, [held] as JobDefinition[], { leaseSeconds: 5, sweepMs: 200 });
    await queue.start();
  });
  afterAll(async () => {
    for (const done of release) done();
    await queue?.stop(1000);
    await database?.close();
  });

  const runWith = async (loops: number) => {
    running = 0;
    mostAtOnce = 0;
    finished = 0;
    release.length = 0;
    const ctx = { db: database.db, database, log, jobs: queue, loops } as unknown as AppContext;
    const stop = await startJobWorker(ctx, [held] as JobDefinition[]);
    try {
      for (let i = 0; i < 3; i++)
        await queue.send(held, { key: `k${i}` }, { singletonKey: `loops${loops}-k${i}` });
      await waitFor(() => running === Math.min(loops, 3), 60_000);
      // Released one by one until all three ran: each freed loop takes the next job. (Stopping while the
      // last job had just started held the worker's stop on a job nobody would release.)
      while (finished < 3) {
        await waitFor(() => release.length > 0 || finished === 3, 60_000);
        release.shift()?.();
      }
      expect(mostAtOnce).toBe(Math.min(loops, 3));
    } finally {
      for (const done of release) done();
      await stop();
    }
  };

  // Minutes, not seconds: each loop polls for its job, and the PostgreSQL pass runs beside the fault suites.
  it('runs one job at a time by default', () => runWith(1), 150_000);
  it('runs as many at once as its definition says', () => runWith(2), 150_000);

  it('syncs as many servers at once as there are VRChat bot accounts', () => {
    const withAccounts = (more: number) =>
      ({
        config: {
          vrchat: {
            username: 'bot',
            moreAccounts: Array.from({ length: more }, (_, i) => ({ username: `bot${i}` })),
          },
        },
      }) as unknown as AppContext;
    // One loop per account and one more, which big servers' syncs never take.
    expect(syncGuildHandler.runsAtOnce?.(withAccounts(0))).toBe(2);
    expect(syncGuildHandler.longAtOnce?.(withAccounts(0))).toBe(1);
    expect(syncGuildHandler.runsAtOnce?.(withAccounts(2))).toBe(4);
    expect(syncGuildHandler.longAtOnce?.(withAccounts(2))).toBe(3);
  });
});

/**
 * A big server's sync (`long: true`, its last one took a minute or more) takes at most `longAtOnce` loops over
 * every process, so a small community's sync queued behind big ones starts at once.
 */
describe('long jobs beside short ones', () => {
  let database: Database;
  let queue: PgBossJobQueue;
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const lane = defineJob({
    name: 'test.lane',
    payload: z.object({ key: z.string(), long: z.boolean().optional() }),
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    expireInSeconds: 60,
    // Loops to spare: all of them fetch at once when the worker starts, and only one may take a long job.
    runsAtOnce: () => 4,
    longAtOnce: () => 1,
    async run(_ctx, { key }) {
      started.push(key);
      await new Promise<void>((done) => releases.set(key, done));
    },
  });
  beforeAll(async () => {
    database = await openTestDatabase();
    queue = createJobQueue(database, log, [lane] as JobDefinition[], { leaseSeconds: 5, sweepMs: 200 });
    await queue.start();
  });
  afterAll(async () => {
    for (const done of releases.values()) done();
    await queue?.stop(1000);
    await database?.close();
  });

  it('leaves loops for short jobs while long ones wait, and runs the next long one when the first ends', async () => {
    const ctx = { db: database.db, database, log, jobs: queue } as unknown as AppContext;
    // Ranked, not only sent, in this order: PGlite's clock counts milliseconds, and jobs sent within the same one
    // tie on their age (then their random ids decide, which once started big-3 before big-2).
    for (const [key, priority] of [
      ['big-1', 30],
      ['big-2', 20],
      ['big-3', 10],
    ] as const)
      await queue.send(lane, { key, long: true }, { singletonKey: key, priority });
    const longs = () => started.filter((key) => key.startsWith('big-'));
    const stop = await startJobWorker(ctx, [lane] as JobDefinition[]);
    try {
      await waitFor(() => started.length > 0, 60_000);
      // A small one, sent last and ranked lower, runs beside the first long one; the other long ones wait,
      // though loops are free (every loop had fetched by the time the small one is taken).
      await queue.send(lane, { key: 'small' }, { singletonKey: 'small' });
      await waitFor(() => started.includes('small'), 60_000);
      expect(longs()).toEqual(['big-1']);
      releases.get('small')?.();
      releases.get('big-1')?.();
      await waitFor(() => longs().length === 2, 60_000);
      expect(longs()).toEqual(['big-1', 'big-2']);
    } finally {
      for (const done of releases.values()) done();
      await stop();
    }
  }, 150_000);
});
