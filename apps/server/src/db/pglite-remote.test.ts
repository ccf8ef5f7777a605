import { type MessagePort, Worker } from 'node:worker_threads';
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

/** What a listener heard, in order; `count(n)` resolves once it heard `n`. */
function hearing() {
  const heard: string[] = [];
  const waits: { n: number; resolve: () => void }[] = [];
  return {
    heard,
    add: (payload: string) => {
      heard.push(payload);
      for (const wait of waits) if (heard.length >= wait.n) wait.resolve();
    },
    count: (n: number) =>
      heard.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waits.push({ n, resolve })),
  };
}

/** Whether a promise has settled yet (a call still waiting for the database, or for a lock). */
function settledFlag(promise: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  const mark = () => {
    flag.settled = true;
  };
  promise.then(mark, mark);
  return flag;
}

type Listening = { listen: (c: string, f: (p: string) => void) => Promise<() => Promise<void>> };
const clientOf = (database: Database) => (database.db as unknown as { $client: Listening }).$client;

/**
 * The body of a worker thread with a client attached to the port it is given (pglite-remote.ts loaded through
 * tsx, as pglite-remote.ts boots its own thread): it runs the steps the test asks for, and posts what it hears
 * on its channels and what its onStopped is told.
 */
const ATTACHED_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const url = workerData.remote;
import('tsx/esm/api')
  .then((tsx) => tsx.tsImport(url, url))
  .then(({ PgliteRemote }) => {
    const remote = PgliteRemote.attach(workerData.port, (err) => parentPort.postMessage({ stopped: err.message }));
    const releases = new Map();
    let open;
    const steps = {
      query: async (text) => (await remote.query(text)).rows,
      listen: async (channel) => {
        await remote.listen(channel, (payload) => parentPort.postMessage({ notify: channel, payload }));
      },
      lock: async (name) => {
        releases.set(name, await remote.lock(name));
      },
      unlock: (name) => releases.get(name)(),
      begin: async () => {
        let began;
        let commit;
        const ready = new Promise((resolve) => { began = resolve; });
        const committed = new Promise((resolve) => { commit = resolve; });
        const done = remote.transaction((tx) => { began(tx); return committed; });
        open = { tx: await Promise.race([ready, done]), commit, done };
      },
      txQuery: async (text) => (await open.tx.query(text)).rows,
      commit: async () => {
        open.commit();
        await open.done;
      },
    };
    parentPort.on('message', ({ id, step, arg }) => {
      steps[step](arg).then(
        (value) => parentPort.postMessage({ id, ok: true, value }),
        (err) => parentPort.postMessage({ id, ok: false, error: { message: err.message, code: err.code } }),
      );
    });
    parentPort.postMessage({ ready: true });
  });
`;

type StepReply = { id: number } & (
  | { ok: true; value: unknown }
  | { ok: false; error: { message: string; code?: string } }
);

/** A client of the database in a worker thread of its own (ATTACHED_THREAD), driven step by step. */
class OtherThread {
  readonly heard = hearing();
  /** What its onStopped was told. */
  readonly stopped: Promise<string>;
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;

  constructor(port: MessagePort) {
    const remote = new URL('./pglite-remote.ts', import.meta.url).href;
    this.worker = new Worker(ATTACHED_THREAD, {
      eval: true,
      workerData: { port, remote },
      transferList: [port],
    });
    let stopped!: (message: string) => void;
    this.stopped = new Promise((resolve) => {
      stopped = resolve;
    });
    let ready!: () => void;
    let failed!: (err: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    this.worker.on('error', failed);
    this.worker.on(
      'message',
      (msg: StepReply | { ready: true } | { notify: string; payload: string } | { stopped: string }) => {
        if ('ready' in msg) ready();
        else if ('notify' in msg) this.heard.add(msg.payload);
        else if ('stopped' in msg) stopped(msg.stopped);
        else this.answer(msg);
      },
    );
  }

  private answer(reply: StepReply): void {
    const call = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (reply.ok) call?.resolve(reply.value);
    else call?.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
  }

  ask<T = unknown>(step: string, arg?: string): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, step, arg });
    });
  }

  /** Ends the thread (as a crash would: nothing closed first). */
  async end(): Promise<void> {
    await this.worker.terminate();
  }
}

async function otherThread(port: MessagePort): Promise<OtherThread> {
  const other = new OtherThread(port);
  await other.ready;
  return other;
}

describe.skipIf(postgres)('PGlite in its own thread, shared with other threads', () => {
  let owner: Database;
  /** Attached in this thread (a MessageChannel works within one). */
  let sibling: Database;
  /** Attached in a worker thread. */
  let other: OtherThread;
  beforeAll(async () => {
    owner = await openDatabase({ dataDir: 'memory://', ownThread: true, loadDataDir: pgliteTemplate() });
    sibling = await openDatabase({
      attach: { port: owner.openPort!(), dataDir: 'memory://', fileDir: owner.fileDir },
    });
    other = await otherThread(owner.openPort!());
  });
  afterAll(async () => {
    await other?.end();
    await sibling?.close();
    await owner?.close();
  });

  it('answers the owner, a client in the same thread and one in another thread over the same data', async () => {
    expect(sibling).toMatchObject({ kind: 'pglite', fileDir: owner.fileDir });
    expect(sibling.embeddedLock).toBeTypeOf('function');
    expect(sibling.openPort).toBeUndefined();
    expect(owner.embeddedLock).toBeTypeOf('function');
    await owner.db.insert(users).values({ id: 's1', username: 'ada' });
    const [row] = await sibling.db.select().from(users).where(eq(users.id, 's1'));
    expect(row).toMatchObject({ id: 's1', username: 'ada' });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(await other.ask('query', "select username from users where id = 's1'")).toEqual([
      { username: 'ada' },
    ]);
    await other.ask('query', "insert into users (id, username) values ('s2', 'bo')");
    expect((await sibling.executeSql("select username from users where id = 's2'")).rows).toEqual([
      { username: 'bo' },
    ]);
  });

  it("keeps one thread's open transaction from the others until it commits", async () => {
    await other.ask('begin');
    await other.ask('txQuery', "insert into users (id, username) values ('s3', 'cy')");
    const bySibling = sibling.executeSql("select username from users where id = 's3'");
    const byOwner = owner.executeSql("select username from users where id = 's3'");
    const siblingRead = settledFlag(bySibling);
    const ownerRead = settledFlag(byOwner);
    // The transaction sees its row; the others' reads wait for its end (PGlite runs one at a time).
    expect(await other.ask('txQuery', "select username from users where id = 's3'")).toEqual([
      { username: 'cy' },
    ]);
    expect([siblingRead.settled, ownerRead.settled]).toEqual([false, false]);
    await other.ask('commit');
    expect((await bySibling).rows).toEqual([{ username: 'cy' }]);
    expect((await byOwner).rows).toEqual([{ username: 'cy' }]);
  });

  it('leaves nothing of a transaction rolled back in another thread', async () => {
    const failed = await sibling.db
      .transaction(async (tx) => {
        await tx.insert(users).values({ id: 's4', username: 'di' });
        throw new Error('changed my mind');
      })
      .catch((err: Error) => err.message);
    expect(failed).toBe('changed my mind');
    expect(await other.ask('query', "select id from users where id = 's4'")).toEqual([]);
  });

  it('delivers a notification to every thread listening on its channel', async () => {
    const byOwner = hearing();
    const bySibling = hearing();
    const stopOwner = await clientOf(owner).listen('shared_test', byOwner.add);
    const stopSibling = await clientOf(sibling).listen('shared_test', bySibling.add);
    await other.ask('listen', 'shared_test');
    await other.ask('query', "select pg_notify('shared_test', 'one')");
    await Promise.all([byOwner.count(1), bySibling.count(1), other.heard.count(1)]);
    await stopSibling();
    await sibling.executeSql("select pg_notify('shared_test', 'two')");
    await Promise.all([byOwner.count(2), other.heard.count(2)]);
    await stopOwner();
    expect(byOwner.heard).toEqual(['one', 'two']);
    expect(bySibling.heard).toEqual(['one']);
    expect(other.heard.heard).toEqual(['one', 'two']);
  });

  it('keeps the channel LISTENed while any thread listens, and UNLISTENs after the last', async () => {
    const channels = async () =>
      (await owner.executeSql('select pg_listening_channels() as c')).rows.map((r) => r.c);
    const stopOwner = await clientOf(owner).listen('solo_test', () => {});
    const stopSibling = await clientOf(sibling).listen('solo_test', () => {});
    await stopSibling();
    expect(await channels()).toContain('solo_test');
    await stopOwner();
    expect(await channels()).not.toContain('solo_test');
  });

  it('makes a thread wait for a named lock another thread holds, until it is released', async () => {
    const releaseSibling = await sibling.embeddedLock!('mirror');
    const byOther = other.ask('lock', 'mirror');
    const otherLock = settledFlag(byOther);
    await other.ask('query', 'select 1');
    expect(otherLock.settled).toBe(false);
    await releaseSibling();
    await byOther;
    const byOwner = owner.embeddedLock!('mirror');
    const ownerLock = settledFlag(byOwner);
    await owner.executeSql('select 1');
    expect(ownerLock.settled).toBe(false);
    await other.ask('unlock', 'mirror');
    await (await byOwner)();
  });

  it("grants one client's waits for a lock in the order it asked", async () => {
    const releaseOwner = await owner.embeddedLock!('queue');
    const order: string[] = [];
    const first = sibling.embeddedLock!('queue').then((release) => {
      order.push('first');
      return release;
    });
    const second = sibling.embeddedLock!('queue').then((release) => {
      order.push('second');
      return release;
    });
    await releaseOwner();
    await (await first)();
    await (await second)();
    expect(order).toEqual(['first', 'second']);
  });

  it('rolls back, unlistens and unlocks what a client left when its port closes', async () => {
    const leaving = PgliteRemote.attach(owner.openPort!());
    await leaving.lock('leaving');
    await leaving.listen('leaving_test', () => {});
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const tx = leaving
      .transaction(async (t) => {
        await t.query("insert into users (id, username) values ('s9', 'zed')");
        inserted();
        await finished;
      })
      .catch((err: unknown) => err);
    await didInsert;
    const granted = owner.embeddedLock!('leaving');
    const read = owner.executeSql("select id from users where id = 's9'");
    await leaving.close();
    // Granted when the database thread saw the port close, which also rolled back and unlistened.
    const release = await granted;
    expect((await read).rows).toEqual([]);
    const { rows } = await owner.executeSql('select pg_listening_channels() as c');
    expect(rows).not.toContainEqual({ c: 'leaving_test' });
    await release();
    finish();
    expect(await tx).toMatchObject({ code: '57P03', message: 'The embedded database is closed.' });
  });

  it('passes a lock on when the thread holding it ends', async () => {
    const doomed = await otherThread(owner.openPort!());
    await doomed.ask('lock', 'doomed');
    const granted = owner.embeddedLock!('doomed');
    await doomed.end();
    await (await granted)();
  });
});

describe.skipIf(postgres)('PGlite in its own thread, shared, closed', () => {
  it("fails every attached client's waiting and later calls once the owner closes it", async () => {
    const told: string[] = [];
    const owner = await openDatabase({
      dataDir: 'memory://',
      ownThread: true,
      loadDataDir: pgliteTemplate(),
    });
    const sibling = await openDatabase({
      attach: { port: owner.openPort!(), dataDir: 'memory://', fileDir: owner.fileDir },
      onEmbeddedStopped: (err) => told.push(err.message),
    });
    const other = await otherThread(owner.openPort!());
    try {
      // An open transaction in the other thread does not hold the close up: it is rolled back.
      await other.ask('begin');
      await other.ask('txQuery', "insert into users (id, username) values ('c1', 'cy')");
      await owner.embeddedLock!('held');
      const waiting = sibling.embeddedLock!('held').catch((e: unknown) => e);
      await owner.close();
      const closed = { code: '57P03', message: 'The embedded database is closed.' };
      expect(await waiting).toMatchObject(closed);
      const after = await sibling.executeSql('select 1').catch((e: unknown) => e);
      expect(after).toMatchObject(closed);
      expect(isDatabaseUnavailable(after)).toBe(true);
      await expect(other.ask('query', 'select 1')).rejects.toMatchObject(closed);
      expect(await other.stopped).toBe(closed.message);
      expect(told).toEqual([closed.message]);
      await sibling.close();
    } finally {
      await other.end();
    }
  });
});

describe.skipIf(postgres)('PGlite in its own thread, shared, gone', () => {
  it('fails the waiting and later calls of an attached client when the thread ends, and says so once', async () => {
    const told: Error[] = [];
    const remote = new PgliteRemote({
      dataDir: 'memory://',
      loadDataDir: await pgliteTemplate()?.arrayBuffer(),
    });
    const attached = PgliteRemote.attach(remote.openPort(), (err) => told.push(err));
    expect((await attached.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await remote.lock('held');
    const waiting = attached.lock('held').catch((e: unknown) => e);
    await (remote as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const gone = {
      code: '57P03',
      message: 'The embedded database is not accepting connections: its thread ended.',
    };
    expect(await waiting).toMatchObject(gone);
    const after = await attached.query('select 1').catch((e: unknown) => e);
    expect(after).toMatchObject(gone);
    expect(isDatabaseUnavailable(after)).toBe(true);
    expect(told.map((e) => e.message)).toEqual([gone.message]);
  });
});
