import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../test/db.js';
import type { Database } from '../db/client.js';
import { bossDb } from './boss-db.js';
import { fetchNextJobSql } from './boss-sql.js';
import { defineJob, type JobDefinition } from './define.js';
import { startJobLoop } from './job-loop.js';
import { createJobQueue, type PgBossJobQueue } from './pg-boss-queue.js';

const log = pino({ level: process.env.DEBUG_LOOP ? 'debug' : 'silent' });
const parked = defineJob({
  name: 'test.parked',
  payload: z.object({ key: z.string() }),
  retry: { limit: 2, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  async run() {},
});

/**
 * A worker told to stop while its fetch is on the way: the job it then receives goes back to the queue as it
 * was, and the stop ends. (Run instead, with nobody to tell it to stop, it held the stop until it ended by
 * itself: a test whose job waited to be released timed out so, once, on a loaded machine.)
 */
describe('a job fetched while its worker stops', () => {
  let database: Database;
  let queue: PgBossJobQueue;
  const row = async (id: string) =>
    (
      await database.executeSql(
        'select state, retry_count, started_on::text as started_on, output::text as output from pgboss.job where id = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    database = await openTestDatabase();
    queue = createJobQueue(database, log, [parked] as JobDefinition[]);
    await queue.start();
  });
  // Each test's job alone in the queue (the one before put its job back).
  beforeEach(async () => {
    await database.executeSql('delete from pgboss.job where name = $1', [parked.name]);
  });
  afterAll(async () => {
    await queue?.stop(1000);
    await database?.close();
  });

  /** Starts a loop whose first fetch is answered only after the loop was told to stop; answers what ran. */
  const stopDuringFetch = async () => {
    const ran: string[] = [];
    let stopping: Promise<void> | undefined;
    const loop = startJobLoop({
      boss: queue.boss,
      db: bossDb(database),
      log,
      name: parked.name,
      workerName: 'test',
      leaseSeconds: 30,
      maxRunSeconds: 60,
      async fetchInTurn(fetch) {
        const fetched = await fetch();
        stopping ??= loop.stop(1000);
        return fetched;
      },
      waitForJob: () => new Promise(() => {}),
      async handler(job) {
        ran.push(job.id);
        // Told nothing, it would never end: the stop must not wait for it.
        await new Promise(() => {});
      },
    });
    // A flag, not the promise: expect.poll would wait for the promise itself.
    await expect.poll(() => stopping !== undefined, { timeout: 60_000 }).toBe(true);
    const outcome = await Promise.race([
      stopping!.then(() => 'stopped'),
      expect
        .poll(() => ran.length, { timeout: 60_000 })
        .toBe(1)
        .then(() => 'ran'),
    ]);
    return { outcome, ran };
  };
  /** A loop stopped during its fetch ends without running the job, which is back as `before`. */
  const expectHandedBack = async (id: string, before: unknown) => {
    const { outcome, ran } = await stopDuringFetch();
    expect(outcome).toBe('stopped');
    expect(ran).toEqual([]);
    expect(await row(id)).toEqual(before);
  };

  it('puts a fresh job back untouched, unrun, and the stop ends', async () => {
    const id = (await queue.send(parked, { key: 'fresh' }, { singletonKey: 'fresh' })) as string;
    const before = await row(id);
    expect(before?.state).toBe('created');
    await expectHandedBack(id, before);
  });

  it('puts a retry back as a retry, its count, start and last failure as they were', async () => {
    const id = (await queue.send(parked, { key: 'retry' }, { singletonKey: 'retry' })) as string;
    // Taken once and failed: a retry, whose next fetch counts a retry.
    const db = bossDb(database);
    const { rows } = await db.executeSql(fetchNextJobSql, [parked.name, 'earlier', null]);
    expect(rows[0]?.id).toBe(id);
    await queue.boss.fail(parked.name, id, { message: 'the first run failed' });
    const before = await row(id);
    expect(before?.state).toBe('retry');
    await expectHandedBack(id, before);
    // And the next worker takes it as the retry it is.
    const again = await db.executeSql(fetchNextJobSql, [parked.name, 'next', null]);
    expect(again.rows[0]?.id).toBe(id);
    expect((await row(id))?.retry_count).toBe(Number(before?.retry_count) + 1);
  });
});
