import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/db.js';

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
});
