import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../../test/db.js';
import { bossDb } from '../jobs/boss-db.js';
import { type Database, openDatabase } from './client.js';
import { isDatabaseUnavailable } from './connection-lost.js';
import { PgliteRemote } from './pglite-remote.js';
import { users } from './schema/index.js';

/**
 * The embedded database in a thread of its own (what `npm start` runs): everything the product asks of PGlite
 * through Drizzle, pg-boss's adapter and LISTEN behaves as it does with PGlite in the calling thread.
 */
// PGlite's own: the PostgreSQL pass (postgres-suite.json lists every file with transactions) has nothing to run.
const postgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(postgres)('PGlite in its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://', ownThread: true, loadDataDir: pgliteTemplate() });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('migrates, and reads and writes through Drizzle with its column types', async () => {
    const at = new Date('2026-11-30T08:00:00.123Z');
    await database.db.insert(users).values({ id: 'u1', username: 'ada', createdAt: at, lastLoginAt: at });
    const [row] = await database.db.select().from(users).where(eq(users.id, 'u1'));
    expect(row).toMatchObject({ id: 'u1', username: 'ada', globalName: null });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(row!.createdAt.toISOString()).toBe(at.toISOString());
  });

  it('commits a transaction, and rolls back one that throws, with nothing of it left', async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(users).values({ id: 'u2', username: 'bo' });
      await tx.update(users).set({ username: 'bob' }).where(eq(users.id, 'u2'));
    });
    const failed = await database.db
      .transaction(async (tx) => {
        await tx.insert(users).values({ id: 'u3', username: 'cy' });
        throw new Error('changed my mind');
      })
      .catch((err: Error) => err.message);
    expect(failed).toBe('changed my mind');
    const names = await database.db.select({ id: users.id, username: users.username }).from(users);
    expect(names.filter((n) => n.id !== 'u1')).toEqual([{ id: 'u2', username: 'bob' }]);
  });

  it('rolls back a nested transaction to its savepoint and keeps the outer one', async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(users).values({ id: 'u4', username: 'di' });
      await tx
        .transaction(async (inner) => {
          await inner.insert(users).values({ id: 'u5', username: 'ed' });
          inner.rollback();
        })
        .catch(() => {});
    });
    const ids = (await database.db.select({ id: users.id }).from(users)).map((r) => r.id);
    expect(ids).toContain('u4');
    expect(ids).not.toContain('u5');
  });

  it("keeps a database error's code and fields, which the product's checks read", async () => {
    const err = await database.db
      .insert(users)
      .values({ id: 'u1', username: 'again' })
      .then(() => undefined)
      .catch((e: Error) => e);
    const cause = (err as Error & { cause?: Record<string, unknown> }).cause;
    expect(cause).toMatchObject({ code: '23505', severity: 'ERROR', constraint: 'users_pkey' });
    expect(cause).toBeInstanceOf(Error);
  });

  it('runs a query sent while a transaction is open after it ends, as PGlite in one thread does', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tx = database.db.transaction(async (t) => {
      await t.execute(sql`select 1`);
      order.push('tx began');
      await held;
      await t.update(users).set({ username: 'ada2' }).where(eq(users.id, 'u1'));
      order.push('tx done');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const read = database.db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, 'u1'))
      .then((rows) => {
        order.push('read');
        return rows[0]!.username;
      });
    release();
    await tx;
    expect(await read).toBe('ada2');
    expect(order).toEqual(['tx began', 'tx done', 'read']);
  });

  it("runs pg-boss's multi-statement scripts and parameterised calls", async () => {
    const boss = bossDb(database);
    const script = await boss.executeSql(
      'create temp table t (n int); insert into t values (1), (2); select sum(n)::int as s from t',
    );
    expect(script.rows).toEqual([{ s: 3 }]);
    const param = await boss.executeSql('select $1::int + 1 as n', [41]);
    expect(param.rows).toEqual([{ n: 42 }]);
    await expect(boss.executeSql('select * from no_such_table; select 1')).rejects.toMatchObject({
      code: '42P01',
    });
  });

  it('delivers NOTIFY to each listener until it stops listening', async () => {
    const client = (
      database.db as unknown as {
        $client: { listen: (c: string, f: (p: string) => void) => Promise<() => Promise<void>> };
      }
    ).$client;
    const heard: string[] = [];
    const stop = await client.listen('remote_test', (payload) => heard.push(payload));
    await database.executeSql("select pg_notify('remote_test', 'one')");
    expect(heard).toEqual(['one']);
    await stop();
    await database.executeSql("select pg_notify('remote_test', 'two')");
    expect(heard).toEqual(['one']);
  });

  it('leaves the calling thread free while a statement runs (PGlite in the thread froze it)', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await database.executeSql('select pg_sleep(0.5)');
    } finally {
      clearInterval(timer);
    }
    // In the calling thread no timer can fire until the statement ends; a loaded machine may fire fewer.
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it('keeps bytes, numbers and nulls as they are', async () => {
    const bytes = new Uint8Array([0, 1, 254, 255]);
    const { rows } = await database.executeSql(
      'select $1::bytea as b, 12345678901::bigint as big, null as nothing',
      [bytes],
    );
    expect(rows[0]!.b).toEqual(bytes);
    expect(rows[0]).toMatchObject({ nothing: null });
  });
});

describe.skipIf(postgres)('PGlite in its own thread, closed', () => {
  it('answers every call after the close as a database that is not available', async () => {
    const database = await openDatabase({
      dataDir: 'memory://',
      ownThread: true,
      loadDataDir: pgliteTemplate(),
    });
    expect((await database.executeSql('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await database.close();
    const after = await database.executeSql('select 1').catch((e: unknown) => e);
    expect(after).toMatchObject({ message: 'The embedded database is closed.' });
    expect(isDatabaseUnavailable(after)).toBe(true);
  });
});

describe.skipIf(postgres)('PGlite in its own thread, gone', () => {
  it('says so once when its thread ends without a close, and answers every call as not available', async () => {
    const told: Error[] = [];
    const remote = new PgliteRemote(
      { dataDir: 'memory://', loadDataDir: await pgliteTemplate()?.arrayBuffer() },
      (err) => told.push(err),
    );
    expect((await remote.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    // The thread dies (a crash in the WebAssembly ends it the same way).
    await (remote as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const after = await remote.query('select 1').catch((e: unknown) => e);
    expect(after).toMatchObject({
      code: '57P03',
      message: 'The embedded database is not accepting connections: its thread exited with code 1.',
    });
    expect(isDatabaseUnavailable(after)).toBe(true);
    expect(told.map((e) => e.message)).toEqual([(after as Error).message]);
  });

  it('is silent when it was closed', async () => {
    const told: Error[] = [];
    const remote = new PgliteRemote(
      { dataDir: 'memory://', loadDataDir: await pgliteTemplate()?.arrayBuffer() },
      (err) => told.push(err),
    );
    await remote.query('select 1');
    await remote.close();
    expect(told).toEqual([]);
  });
});
