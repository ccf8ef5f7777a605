import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { serverDir } from '../server-dir.js';
import { markConnectFailed } from './connection-lost.js';
import { PGLITE_EXTENSIONS } from './pglite-extensions.js';
import { PgliteRemote } from './pglite-remote.js';
import * as schema from './schema/index.js';

/** Both drivers expose the same query builder; the node-postgres type stands for either. */
export type Db = NodePgDatabase<typeof schema>;

/** Runs raw SQL with parameters; used by pg-boss and by a few maintenance queries. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL server's URL (for locks that need a connection of their own); absent on PGlite. */
  url?: string;
  /**
   * PGlite only: where large bytes (world image uploads) live as files instead of in the embedded database,
   * whose heap is in this process and never shrinks. Absent on PostgreSQL: bytes stay in the database, which
   * every process on every host sees.
   */
  fileDir?: string;
  executeSql: ExecuteSql;
  close(): Promise<void>;
}

const migrationsFolder = join(serverDir, 'drizzle');

/**
 * Extensions the migrations' indexes need that drizzle-kit does not generate: btree_gin gives the text
 * `guild_id` a GIN operator class, so the member search's trigram indexes start from the server. Created
 * before the migrations run (a trusted extension: the database's owner may create it).
 */
export const CREATE_EXTENSIONS = 'create extension if not exists btree_gin';

export { PGLITE_EXTENSIONS };

/**
 * Opens the database and applies committed migrations. `url` undefined = embedded PGlite under `dataDir`
 * (`memory://` for an in-memory one, used by tests).
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  /** Told about PostgreSQL connections that broke, idle or in use (they are replaced on the next query). */
  onConnectionError?: (err: Error) => void;
  /**
   * PGlite only, a new database (in memory; on disk with `ownThread`): start from this data directory (a
   * `dumpDataDir` tarball of a migrated database) instead of running initdb; the migrations still run and apply whatever the tarball lacks. Tests use it:
   * initdb costs seconds of CPU per database.
   */
  loadDataDir?: Blob;
  /**
   * PGlite only: run it in a worker thread of its own (pglite-remote.ts), so its WebAssembly never stalls the
   * thread answering requests. The server's start asks for it; tests and scripts keep it in their thread.
   */
  ownThread?: boolean;
  /** PGlite in its own thread only: told when that thread ended without a close (every query now answers 503). */
  onEmbeddedStopped?: (err: Error) => void;
  /**
   * In-memory PGlite only: an open database to use instead of starting one (tests lend theirs from a pool,
   * test/db.ts); closing the returned database leaves it open for its owner.
   */
  pglite?: PGlite;
}): Promise<Database> {
  if (opts.url) {
    // A connection that cannot be opened in 10 s counts as refused (a host gone from the network would
    // otherwise hold the request until the operating system gives up).
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, connectionTimeoutMillis: 10_000 });
    markConnectFailures(pool);
    // A connection the server drops (restart, failover, admin) must not crash the process. An idle one
    // makes the pool emit 'error'; one checked out (a transaction awaiting something) emits 'error' on
    // the client itself, where nobody listens: listen on every client. The request using it fails
    // (its query rejects, answered 503), the pool discards the client and opens a new one.
    pool.on('connect', (client) => client.on('error', (err) => opts.onConnectionError?.(err)));
    // Already reported by the client's own listener above.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema });
    // Several server processes may start at once: one migrates, the others wait on the lock.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock(72707369)');
      await client.query(CREATE_EXTENSIONS);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(72707369)').catch(() => {});
      client.release();
    }
    return {
      db,
      kind: 'postgres',
      url: opts.url,
      executeSql: async (text, values) => pool.query(text, values as unknown[]),
      close: () => pool.end(),
    };
  }
  const dataDir = opts.dataDir ?? './data';
  // An in-memory database (tests) keeps its files in a temporary folder, removed on close.
  const memory = dataDir.startsWith('memory://');
  const fileDir = memory ? mkdtempSync(join(tmpdir(), 'vrclink-files-')) : join(dataDir, 'files');
  if (!memory) {
    mkdirSync(join(dataDir, 'pglite'), { recursive: true });
    // On a full disk the embedded database fails only after a long initdb (20–60 s): a small write says so at
    // once (ENOSPC, which the start turns into one sentence).
    const probe = join(dataDir, 'pglite', '.write-probe');
    writeFileSync(probe, 'ok');
    rmSync(probe, { force: true });
  }
  // Drizzle's PGlite driver and pg-boss's adapter call query/exec/transaction/listen: the remote has them too.
  const client: PGlite =
    opts.pglite ??
    (opts.ownThread
      ? (new PgliteRemote(
          {
            dataDir: memory ? dataDir : join(dataDir, 'pglite'),
            loadDataDir: await opts.loadDataDir?.arrayBuffer(),
          },
          opts.onEmbeddedStopped,
        ) as unknown as PGlite)
      : memory
        ? new PGlite({ extensions: PGLITE_EXTENSIONS, loadDataDir: opts.loadDataDir })
        : new PGlite(join(dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS }));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await client.exec(CREATE_EXTENSIONS);
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    fileDir,
    executeSql: async (text, values) => {
      const res = await client.query<Record<string, unknown>>(text, values as unknown[]);
      return { rows: res.rows };
    },
    close: async () => {
      if (!opts.pglite) await client.close();
      if (memory) rmSync(fileDir, { recursive: true, force: true });
    },
  };
}

/**
 * Marks the errors of connections the pool could not open (refused, starting up, timed out), so a request
 * failing for them answers 503 "not available" (connection-lost.ts). pg-pool's `query()` opens its
 * connection through `this.connect(callback)`, and Drizzle's transactions through `connect()`: both pass here.
 */
function markConnectFailures(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (
    cb?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((cb?: Parameters<typeof connect>[0]) => {
    if (cb) return connect((err, client, done) => cb(err ? markConnectFailed(err) : err, client, done));
    return (connect() as Promise<pg.PoolClient>).catch((err: unknown) => {
      throw markConnectFailed(err);
    });
  }) as typeof pool.connect;
}

/** A transaction handle; services that may run inside one accept `Queryable`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Queryable = Db | Tx;
