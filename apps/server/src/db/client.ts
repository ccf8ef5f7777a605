import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

/** Both drivers expose the same query builder; the node-postgres type stands for either. */
export type Db = NodePgDatabase<typeof schema>;

/** Runs raw SQL with parameters; used by pg-boss and by a few maintenance queries. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  executeSql: ExecuteSql;
  close(): Promise<void>;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/**
 * Opens the database and applies committed migrations. `url` undefined = embedded PGlite under `dataDir`
 * (`memory://` for an in-memory one, used by tests).
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  /** Told about idle PostgreSQL connections that broke (they are replaced on the next query). */
  onConnectionError?: (err: Error) => void;
}): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    // An idle connection the server drops (restart, failover, admin) must not crash the process: the pool
    // discards it and opens a new one on the next query.
    pool.on('error', (err) => opts.onConnectionError?.(err));
    const db = drizzlePg(pool, { schema });
    // Several server processes may start at once: one migrates, the others wait on the lock.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock(72707369)');
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(72707369)').catch(() => {});
      client.release();
    }
    return {
      db,
      kind: 'postgres',
      executeSql: async (text, values) => pool.query(text, values as unknown[]),
      close: () => pool.end(),
    };
  }
  const dataDir = opts.dataDir ?? './data';
  let client: PGlite;
  if (dataDir.startsWith('memory://')) client = new PGlite();
  else {
    const dir = join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    executeSql: async (text, values) => {
      const res = await client.query<Record<string, unknown>>(text, values as unknown[]);
      return { rows: res.rows };
    },
    close: () => client.close(),
  };
}

/** A transaction handle; services that may run inside one accept `Queryable`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Queryable = Db | Tx;
