import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from '../db/client.js';

/** What pg-boss needs from a database: one function running SQL, with or without parameters. */
export interface BossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

type Rows = { rows: Record<string, unknown>[] };
/** node-postgres answers an array of results for several statements; pg-boss reads the last. */
const lastRows = (res: Rows | Rows[]): Rows => ({
  rows: (Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows) as Record<string, unknown>[],
});

/**
 * pg-boss's SQL through the product's own connections. Parameterless text may hold several statements
 * (pg-boss's schema creation and migrations run between BEGIN and COMMIT): on PostgreSQL it runs on one
 * pooled connection that is rolled back if it fails, so no connection goes back to the pool inside an
 * aborted transaction; on PGlite, whose `query` prepares a single statement, it goes through `exec` inside
 * PGlite's exclusive transaction, so a failure is rolled back before anything else runs on its one
 * connection.
 */
export function bossDb(database: Database): BossDb {
  // Drizzle keeps the driver it was built on: the node-postgres pool, or the PGlite instance.
  const driver = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'postgres') {
    const pool = driver as pg.Pool;
    return {
      async executeSql(text, values) {
        if (values && values.length > 0) return lastRows(await pool.query(text, values));
        const client = await pool.connect();
        try {
          return lastRows((await client.query(text)) as unknown as Rows | Rows[]);
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        } finally {
          client.release();
        }
      },
    };
  }
  const client = driver as PGlite;
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const res = await client.query<Record<string, unknown>>(text, values);
        return { rows: res.rows };
      }
      const results = await client.transaction((tx) => tx.exec(text));
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
  };
}

/** Any fixed key, this product's own: serialises pg-boss's install and queue set-up across processes. */
const BOSS_INSTALL_LOCK = 72707372;

/**
 * Runs `install` while holding a session advisory lock on PostgreSQL, so processes started at once on a fresh
 * database install pg-boss's schema one after the other. pg-boss's own lock does not cover it: two `CREATE SCHEMA IF
 * NOT EXISTS pgboss` at once fail one process with a unique violation pg-boss does not take for its race (seen
 * starting `api` and `bot,worker` together, as docs/deploy.md does). PGlite has one process: no lock.
 */
export async function withBossInstallLock<T>(database: Database, install: () => Promise<T>): Promise<T> {
  if (database.kind !== 'postgres') return install();
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [BOSS_INSTALL_LOCK]);
    try {
      return await install();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [BOSS_INSTALL_LOCK]).catch(() => {});
    }
  } finally {
    client.release();
  }
}
