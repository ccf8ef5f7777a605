import { describe, expect, it } from 'vitest';
import { openTestDatabase } from './db.js';

// The embedded test databases are lent again once given back (test/db.ts): the next test app must find what a
// fresh one from the template holds, and the app that gave it back must not reach it any more. PGlite only (on
// PostgreSQL every test app has a database of its own).
describe.skipIf(!!process.env.DATABASE_URL)('the test database pool', () => {
  // Each open takes the database the previous close gave back (the pool lends the last one given back first).
  const reopen = openTestDatabase;

  it('lends a given-back database emptied, its sequences, session settings and pg-boss schema reset', async () => {
    const first = await reopen();
    await first.executeSql(
      `insert into audit_log (actor_id, action) values ('x', 'test.one'), ('x', 'test.two')`,
    );
    await first.executeSql(`set timezone = 'Pacific/Auckland'`);
    await first.executeSql(`create schema pgboss`);
    await first.executeSql(`create table pgboss.job (id int)`);
    await first.close();

    const next = await reopen();
    try {
      expect((await next.executeSql('select count(*)::int as n from audit_log')).rows[0]?.n).toBe(0);
      await next.executeSql(`insert into audit_log (actor_id, action) values ('x', 'again')`);
      expect((await next.executeSql('select id from audit_log')).rows).toEqual([{ id: 1 }]);
      expect((await next.executeSql('show timezone')).rows[0]?.TimeZone).not.toBe('Pacific/Auckland');
      expect(
        (await next.executeSql(`select count(*)::int as n from pg_namespace where nspname = 'pgboss'`))
          .rows[0]?.n,
      ).toBe(0);
    } finally {
      await next.close();
    }
  });

  it('answers a closed app that still queries as a closed database would, and keeps its query out of the next', async () => {
    const first = await reopen();
    await first.close();
    await expect(
      first.executeSql(`insert into audit_log (actor_id, action) values ('x', 'late')`),
    ).rejects.toThrow('PGlite is closed');
    const next = await reopen();
    try {
      expect((await next.executeSql('select count(*)::int as n from audit_log')).rows[0]?.n).toBe(0);
    } finally {
      await next.close();
    }
  });

  it('does not lend again a database whose schema a test changed', async () => {
    const changed = await reopen();
    await changed.executeSql('alter table audit_log add column test_only text');
    await changed.close();
    const next = await reopen();
    try {
      const { rows } = await next.executeSql(
        `select count(*)::int as n from information_schema.columns where table_name = 'audit_log' and column_name = 'test_only'`,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await next.close();
    }
  });
});
