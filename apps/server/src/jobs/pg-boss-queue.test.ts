import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../test/db.js';
import type { Database } from '../db/client.js';
import type { AppContext } from '../kernel/context.js';
import { missing } from '../kernel/errors.js';
import { type BossDb, bossDb } from './boss-db.js';
import { fetchNextJobSql, readyQueuesSql } from './boss-sql.js';
import { defineJob, type JobDefinition } from './define.js';
import { createJobQueue, type PgBossJobQueue } from './pg-boss-queue.js';
import { runJob, startJobWorker } from './worker.js';

const log = pino({ level: 'silent' });
const seen: number[] = [];
const echo = defineJob({
  name: 'test.echo',
  payload: z.object({ n: z.number().int() }),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 30,
  async run(_ctx, { n }) {
    seen.push(n);
  },
});
const registry = [echo] as JobDefinition[];

async function waitUntil(check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`job queue on pg-boss (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: Database;
  let queue: PgBossJobQueue;
  let stopWorker: () => Promise<void>;
  const rows = async (text: string, values?: unknown[]) => (await database.executeSql(text, values)).rows;

  beforeAll(async () => {
    database = await openTestDatabase();
    queue = createJobQueue(database, log, registry);
    await queue.start();
    const ctx = { db: database.db, database, log, jobs: queue } as unknown as AppContext;
    stopWorker = await startJobWorker(ctx, registry);
  });
  afterAll(async () => {
    await stopWorker?.();
    await queue?.stop();
    await database?.close();
  });

  it('creates the pgboss schema and one queue per registered job', async () => {
    const queues = await rows('select name, policy, retry_limit from pgboss.queue');
    expect(queues).toEqual([{ name: 'test.echo', policy: 'stately', retry_limit: 0 }]);
  });

  it('runs a sent job on the worker with its validated payload', async () => {
    const id = await queue.send(echo, { n: 7 });
    expect(id).toEqual(expect.any(String));
    await waitUntil(() => seen.includes(7));
    await waitUntil(
      async () => (await rows('select state from pgboss.job where id = $1', [id]))[0]?.state === 'completed',
    );
  });

  it('collapses jobs with the same singleton key while one is waiting', async () => {
    await stopWorker();
    const first = await queue.send(echo, { n: 1 }, { singletonKey: 'same' });
    const second = await queue.send(echo, { n: 2 }, { singletonKey: 'same' });
    expect(first).toEqual(expect.any(String));
    expect(second).toBeNull();
    const waiting = await rows(`select count(*)::int as n from pgboss.job where singleton_key = 'same'`);
    expect(waiting[0].n).toBe(1);
  });

  it('refuses unknown jobs and payloads that do not match the schema when sending', async () => {
    await expect(queue.send({ ...echo, name: 'nope' }, { n: 1 })).rejects.toThrow('Unknown job nope');
    await expect(queue.send(echo, { n: 'x' } as never)).rejects.toThrow();
  });

  it('checks the payload again when the job is taken, and gives up (no retry) on a refusal', async () => {
    const ctx = { log } as unknown as AppContext;
    await expect(runJob(ctx, echo as JobDefinition, { id: 'j1', data: { n: 'bad' } })).rejects.toThrow(
      'Job test.echo (j1) has an invalid payload',
    );
    const refusing = { ...echo, run: async () => Promise.reject(missing('World not found.')) };
    await expect(runJob(ctx, refusing as JobDefinition, { id: 'j2', data: { n: 1 } })).resolves.toEqual({
      gaveUp: 'World not found.',
    });
    const broken = { ...echo, run: async () => Promise.reject(new Error('db down')) };
    await expect(runJob(ctx, broken as JobDefinition, { id: 'j3', data: { n: 1 } })).rejects.toThrow(
      'db down',
    );
  });
});

describe('idle job queues', () => {
  const names = ['test.idle.a', 'test.idle.b', 'test.idle.c', 'test.idle.d', 'test.idle.e'];
  const ran: string[] = [];
  const idleRegistry = names.map((name) =>
    defineJob({
      name,
      payload: z.object({}),
      retry: { limit: 0, delaySeconds: 0, backoff: false },
      expireInSeconds: 30,
      async run() {
        ran.push(name);
      },
    }),
  ) as JobDefinition[];
  let database: Database;
  let queue: PgBossJobQueue;
  let stopWorker: () => Promise<void>;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const inner = bossDb(database);
    const counted: BossDb = {
      executeSql(text, values) {
        statements.push(text);
        return inner.executeSql(text, values);
      },
    };
    queue = createJobQueue(database, log, idleRegistry, { bossDb: counted });
    await queue.start();
    const ctx = { db: database.db, database, log, jobs: queue } as unknown as AppContext;
    stopWorker = await startJobWorker(ctx, idleRegistry);
  });
  afterAll(async () => {
    await stopWorker?.();
    await queue?.stop();
    await database?.close();
  });

  it('cost one query a poll for all of them, not a fetch per queue; a delayed job is still taken when due', async () => {
    const count = (sql: string) => statements.filter((text) => text === sql).length;
    await waitUntil(() => count(readyQueuesSql) >= 3);
    // Each loop fetched once when it started, then waited: nothing was due.
    expect(count(fetchNextJobSql)).toBe(names.length);

    // A job sent here is taken at once; a delayed one when its time comes (found by the poll).
    await queue.send(idleRegistry[1]!, {});
    await queue.send(idleRegistry[3]!, {}, { startAfterSeconds: 1 });
    await waitUntil(() => ran.length === 2);
    expect(ran).toEqual(['test.idle.b', 'test.idle.d']);
  });
});

describe('the pg-boss database adapter', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  it('runs several statements without parameters, and one statement with parameters', async () => {
    const db = bossDb(database);
    const res = await db.executeSql(
      'BEGIN; CREATE TABLE boss_probe (n int); INSERT INTO boss_probe VALUES (1), (2); COMMIT; SELECT sum(n)::int AS s FROM boss_probe',
    );
    expect(res.rows).toEqual([{ s: 3 }]);
    const one = await db.executeSql('SELECT n FROM boss_probe WHERE n = $1', [2]);
    expect(one.rows).toEqual([{ n: 2 }]);
  });

  it('rolls a failed multi-statement text back and leaves the connection usable', async () => {
    const db = bossDb(database);
    await expect(
      db.executeSql('BEGIN; INSERT INTO boss_probe VALUES (10); SELECT 1/0; COMMIT'),
    ).rejects.toThrow(/division by zero/);
    const after = await db.executeSql('SELECT count(*)::int AS c FROM boss_probe WHERE n = $1', [10]);
    expect(after.rows).toEqual([{ c: 0 }]);
  });
});
