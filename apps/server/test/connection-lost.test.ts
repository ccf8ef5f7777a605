import { seedGuildIds } from '@vrclink/simulator';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE } from '../src/http/errors.js';
import { waitFor } from '../src/platforms/testing.js';
import { createTestApp, signIn, type TestApp } from './app.js';
import { appWithHangoutOwner } from './factories.js';

describe.skipIf(!process.env.DATABASE_URL)(
  'a database connection dropped during a request (PostgreSQL)',
  () => {
    let t: TestApp;
    let admin: pg.Client;
    let name: string;
    beforeAll(async () => {
      t = await createTestApp();
      admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      name = (await t.ctx.database.executeSql('select current_database() as name')).rows[0]!.name as string;
    });
    afterAll(async () => {
      await admin?.end();
      await t?.close();
    });

    it('answers 503 with a sentence to the request whose transaction lost it, and serves the next request', async () => {
      const user = await signIn(t);
      // Another session holds the user's session rows, so logout's transaction waits on them, in flight.
      const holder = new pg.Client({
        connectionString: new URL(`/${name}`, process.env.DATABASE_URL).toString(),
      });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select 1 from sessions where user_id = $1 for update', [user.id]);
        const logout = t.inject({ method: 'GET', url: '/api/logout', session: user.session });
        let killed = 0;
        for (let i = 0; i < 100 && killed === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const { rows } = await admin.query(
            "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'",
            [name],
          );
          killed = rows.length;
        }
        expect(killed).toBe(1);
        const res = await logout;
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ message: 'The database connection was interrupted. Try again.' });
        await holder.query('rollback');
      } finally {
        await holder.end();
      }
      // The process keeps serving: the session survived the failed logout.
      const me = await t.inject({ method: 'GET', url: '/api/user', session: user.session });
      expect(me.statusCode).toBe(200);
    });
  },
);

const INTERRUPTED = 'The database connection was interrupted. Try again.';

/** A 503 with a sentence and when to retry; the database's, never a platform's words. */
function expectDatabase503(res: LightMyRequestResponse, url: string) {
  expect({ url, status: res.statusCode }).toEqual({ url, status: 503 });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect([DATABASE_UNAVAILABLE, INTERRUPTED]).toContain(res.json().message);
}

describe.skipIf(!process.env.DATABASE_URL)('the database refusing connections (PostgreSQL)', () => {
  let t: TestApp;
  let owner: { id: string; session: string };
  let admin: pg.Client;
  let name: string;
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ simulator: true }));
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    name = (await t.ctx.database.executeSql('select current_database() as name')).rows[0]!.name as string;
  });
  afterAll(async () => {
    await admin?.query(`alter database ${name} allow_connections true`).catch(() => {});
    await admin?.end();
    await t?.close();
  });

  it('answers every API request 503 with a sentence and Retry-After, and serves again once it is back', async () => {
    const hangout = seedGuildIds.hangout.id;
    const urls = [
      '/api/user',
      '/api/guilds',
      `/api/members/${hangout}`,
      `/api/guilds/${hangout}`,
      `/api/guilds/permissions/${hangout}`,
      `/api/guilds/${hangout}/api_keys`,
      '/api/users/profile',
    ];
    for (const url of urls) {
      const res = await t.inject({ method: 'GET', url, session: owner.session });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    }
    // As when PostgreSQL stops or restarts: new connections are refused, the open ones are cut.
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    // The pool notices its cut connections one by one (a request meeting one hears "interrupted"), and the
    // session cache serves sessions until its LISTEN connection is seen gone.
    await waitFor(async () => {
      const res = await t.inject({ method: 'GET', url: '/api/user', session: owner.session });
      if (res.statusCode === 200) return false;
      expectDatabase503(res, '/api/user');
      return res.json().message === DATABASE_UNAVAILABLE;
    }, 15_000);
    for (const url of urls) {
      const res = await t.inject({ method: 'GET', url, session: owner.session });
      expectDatabase503(res, url);
      expect(res.json().message).toBe(DATABASE_UNAVAILABLE);
    }
    const change = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout}/sync`,
      session: owner.session,
    });
    expectDatabase503(change, 'POST sync');
    // Liveness stays 200 (the process is alive; restarting it would not help); readiness says the database is away.
    expect((await t.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(503);

    await admin.query(`alter database ${name} allow_connections true`);
    await waitFor(
      async () =>
        (await t.inject({ method: 'GET', url: '/api/user', session: owner.session })).statusCode === 200,
      15_000,
    );
  });
});
