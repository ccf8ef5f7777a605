import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from './app.js';

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
