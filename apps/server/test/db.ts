import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';

/**
 * A throw-away database on the PostgreSQL server of `adminUrl`: its URL, and `drop()`, which waits (briefly)
 * for its connections to close before dropping it.
 */
export async function createScratchDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vrclink_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      // pool.end() resolves before its sockets are closed; forcing the drop while they still close
      // sends them an error nobody listens to any more. Wait (briefly) until they are gone.
      for (let i = 0; i < 50; i++) {
        const { rows } = await dropper.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated in-memory PGlite's data directory (tar) from test/global-setup.ts, or '' on PostgreSQL. */
    pgliteTemplate: string;
  }
}

let template: Blob | undefined;
/** The migrated data directory test/global-setup.ts made, read once per test file. */
export function pgliteTemplate(): Blob | undefined {
  // Outside Vitest (the benchmarks build test apps too) there is no template: initdb runs.
  const path = process.env.VITEST ? inject('pgliteTemplate') : '';
  if (path && !template) template = new Blob([readFileSync(path)]);
  return template;
}

/**
 * A fresh, migrated database for one test app: in-memory PGlite by default, or a throw-away database
 * on the PostgreSQL server named by DATABASE_URL (dropped on close).
 */
export async function openTestDatabase(): Promise<Database> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return openDatabase({ dataDir: 'memory://', loadDataDir: pgliteTemplate() });
  const scratch = await createScratchDatabase(adminUrl);
  // A connection broken by the final drop is expected; it must not fail the run.
  const database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}
