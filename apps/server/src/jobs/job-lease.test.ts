import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../test/db.js';
import type { Database } from '../db/client.js';
import type { AppContext } from '../kernel/context.js';
import { waitFor } from '../platforms/testing.js';
import { bossDb } from './boss-db.js';
import { defineJob, type JobDefinition } from './define.js';
import { createJobQueue, type PgBossJobQueue } from './pg-boss-queue.js';
import { startJobWorker } from './worker.js';

const log = pino({ level: 'silent' });
/** Each run of a job, by its payload's tag. */
const runs: string[] = [];
/** Tags whose handler waits until released (a long run). */
const holds = new Map<string, () => void>();
const work = defineJob({
  name: 'test.lease',
  payload: z.object({ tag: z.string() }),
  retry: { limit: 3, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  async run(_ctx, { tag }) {
    runs.push(tag);
    if (tag.startsWith('hold')) await new Promise<void>((resolve) => holds.set(tag, resolve));
  },
});
const registry = [work] as JobDefinition[];
const LEASE = 2;

describe(`job leases and outcomes (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: Database;
  let queue: PgBossJobQueue;
  let stopWorker: (() => Promise<void>) | undefined;
  /** Fails the next N attempts to record a completion, as a connection terminated (57P01) would. */
  let failCompletions = 0;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const stateOf = async (id: string) =>
    (await database.executeSql('select state from pgboss.job where id = $1', [id])).rows[0]?.state;
  const startWorker = async () => {
    const ctx = { db: database.db, database, log, jobs: queue } as unknown as AppContext;
    stopWorker = await startJobWorker(ctx, registry);
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    database = await openTestDatabase();
    const real = bossDb(database);
    queue = createJobQueue(database, log, registry, {
      leaseSeconds: LEASE,
      sweepMs: 200,
      bossDb: {
        async executeSql(text, values) {
          if (failCompletions > 0 && text.includes('SET completed_on = now()')) {
            failCompletions--;
            throw Object.assign(new Error('terminating connection due to administrator command'), {
              code: '57P01',
            });
          }
          return real.executeSql(text, values);
        },
      },
    });
    await queue.start();
  });
  afterEach(async () => {
    await stopWorker?.();
    stopWorker = undefined;
    for (const release of holds.values()) release();
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await queue?.stop();
    await database?.close();
  });

  it('records a completion that failed once (connection dropped) on the next try, without an unhandled rejection', async () => {
    await startWorker();
    failCompletions = 1;
    const id = (await queue.send(work, { tag: 'once' })) as string;
    await waitFor(async () => (await stateOf(id)) === 'completed', 10_000);
    expect(runs.filter((t) => t === 'once')).toHaveLength(1);
    expect(failCompletions).toBe(0);
    expect(unhandled).toEqual([]);
  });

  it('logs a completion it cannot record at all, and the job runs again once its lease runs out', async () => {
    await startWorker();
    failCompletions = 3;
    const id = (await queue.send(work, { tag: 'unrecorded' })) as string;
    await waitFor(async () => (await stateOf(id)) === 'completed', 15_000);
    expect(runs.filter((t) => t === 'unrecorded')).toHaveLength(2);
    expect(unhandled).toEqual([]);
  });

  it('keeps a job running longer than its lease (renewed), and runs it once', async () => {
    await startWorker();
    const id = (await queue.send(work, { tag: 'hold-long' })) as string;
    await waitFor(() => holds.has('hold-long'), 5000);
    // Three leases long: without renewal it would expire and run a second time.
    await new Promise((r) => setTimeout(r, LEASE * 3 * 1000));
    expect(await stateOf(id)).toBe('active');
    holds.get('hold-long')?.();
    await waitFor(async () => (await stateOf(id)) === 'completed', 5000);
    expect(runs.filter((t) => t === 'hold-long')).toHaveLength(1);
  });

  it("takes a dead worker's job over within its lease, and other keys run meanwhile", async () => {
    // A worker took the job (as pg-boss fetches) and died: nobody renews its lease.
    const dead = (await queue.send(work, { tag: 'dead' }, { singletonKey: 'k' })) as string;
    const [taken] = await queue.boss.fetch('test.lease');
    expect(taken?.id).toBe(dead);
    // A follow-up for the same key waits; another key's job must not wait behind it.
    const follow = (await queue.send(work, { tag: 'follow' }, { singletonKey: 'k' })) as string;
    const other = (await queue.send(work, { tag: 'other' }, { singletonKey: 'l' })) as string;
    await startWorker();
    await waitFor(async () => (await stateOf(other)) === 'completed', 5000);
    // Done while the dead worker's lease still runs: it did not wait behind the busy key.
    expect(await stateOf(dead)).toBe('active');
    await waitFor(
      async () => (await stateOf(dead)) === 'completed' && (await stateOf(follow)) === 'completed',
      15_000,
    );
    expect(runs.filter((t) => t === 'dead')).toHaveLength(1);
    expect(runs.filter((t) => t === 'follow')).toHaveLength(1);
  });
});
