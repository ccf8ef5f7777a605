import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/db.js';
import { isConnectionLost } from './connection-lost.js';

describe.skipIf(!process.env.DATABASE_URL)('the PostgreSQL pool', () => {
  it('survives the server dropping its idle connections, and reconnects on the next query', async () => {
    const database = await openTestDatabase();
    try {
      const before = await database.executeSql('select current_database() as name');
      const name = before.rows[0]!.name as string;
      const admin = await openTestDatabase();
      try {
        // What a PostgreSQL restart or failover does to the pool's idle connections.
        const killed = await admin.executeSql(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
        expect(killed.rows.length).toBeGreaterThan(0);
      } finally {
        await admin.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await database.executeSql('select 1 as ok');
      expect(after.rows[0]!.ok).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('survives the server dropping a connection in the middle of a transaction, and serves the next query', async () => {
    const database = await openTestDatabase();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const transaction = database.db.transaction(async (tx) => {
        const { rows } = await tx.execute(sql`select pg_backend_pid() as pid`);
        // The connection is checked out of the pool and idle in the transaction while this awaits.
        await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`select 1`);
      });
      const err = await transaction.then(
        () => null,
        (e: unknown) => e,
      );
      expect(isConnectionLost(err)).toBe(true);
      const after = await database.executeSql('select 1 as ok');
      expect(after.rows[0]!.ok).toBe(1);
      expect((await database.db.execute(sql`select 2 as ok`)).rows[0]!.ok).toBe(2);
    } finally {
      await admin.end();
      await database.close();
    }
  });

  it('survives the server dropping a connection while a transaction query runs', async () => {
    const database = await openTestDatabase();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const transaction = database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_sleep(5)`);
      });
      const settled = transaction.then(
        () => null,
        (e: unknown) => e,
      );
      const name = (await database.executeSql('select current_database() as name')).rows[0]!.name;
      let killed = 0;
      for (let i = 0; i < 50 && killed === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const { rows } = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query like '%pg_sleep%' and pid <> pg_backend_pid()",
          [name],
        );
        killed = rows.length;
      }
      expect(killed).toBe(1);
      expect(isConnectionLost(await settled)).toBe(true);
      expect((await database.db.execute(sql`select 1 as ok`)).rows[0]!.ok).toBe(1);
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
