import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase, PGLITE_EXTENSIONS } from '../src/db/client.js';

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
  if (!adminUrl) {
    const loadDataDir = pgliteTemplate();
    if (!loadDataDir) return openDatabase({ dataDir: 'memory://' });
    const lent = await lendPglite(loadDataDir);
    const database = await openDatabase({ dataDir: 'memory://', pglite: lent.client });
    return {
      ...database,
      async close() {
        await database.close();
        await lent.giveBack();
      },
    };
  }
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

/**
 * Starting a PGlite from the template costs about a second of CPU (untarring 43 MB into its in-memory file
 * system, starting PostgreSQL), and pg-boss's schema a third of one more; 130 test apps paid it. A closed test
 * app's PGlite is reset to the template's state instead and lent to the worker's next test app: its session
 * reset (`discard all`), pg-boss's schema dropped, every table emptied (sequences restarted). One whose schema a
 * test changed (columns, constraints, indexes, functions, triggers, types, schemas, applied migrations) is closed,
 * not lent again. The test app gets a handle that stops answering once given back, so a late query of a closed
 * app fails as it did on a closed database rather than landing in the next test's.
 */
const idle: PGlite[] = [];
const MAX_IDLE = 2;
let templateState: { shape: string; emptyAll: string } | undefined;

const SHAPE_SQL = `
  with user_schemas as (
    select oid, nspname from pg_namespace
    where nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and nspname not like 'pg_temp%'
      and nspname not like 'pg_toast_temp%'
  )
  select md5(string_agg(part, E'\\n' order by part)) as shape from (
    select 'schema ' || nspname as part from user_schemas
    union all
    select 'rel ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || coalesce(a.attname, '') || ' ' ||
      coalesce(format_type(a.atttypid, a.atttypmod), '') || ' ' || coalesce(a.attnotnull::text, '') || ' ' ||
      coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_class c join user_schemas n on n.oid = c.relnamespace
    left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    union all
    select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(c.oid)
    from pg_constraint c join user_schemas n on n.oid = c.connamespace
    union all
    select 'index ' || pg_get_indexdef(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid
    join user_schemas n on n.oid = c.relnamespace
    union all
    select 'function ' || p.oid::regprocedure || ' ' || md5(p.prosrc) from pg_proc p
    join user_schemas n on n.oid = p.pronamespace
    union all
    select 'trigger ' || tgrelid::regclass || ' ' || tgname from pg_trigger where not tgisinternal
    union all
    select 'type ' || t.typname || ' ' || coalesce(e.enumlabel, '') from pg_type t
    join user_schemas n on n.oid = t.typnamespace left join pg_enum e on e.enumtypid = t.oid
    union all
    select 'extension ' || extname || ' ' || extversion from pg_extension
    union all
    select 'migration ' || hash from drizzle.__drizzle_migrations
  ) parts`;

async function shapeOf(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ shape: string }>(SHAPE_SQL);
  return rows[0]!.shape;
}

async function lendPglite(loadDataDir: Blob): Promise<{ client: PGlite; giveBack(): Promise<void> }> {
  let client = idle.pop();
  if (!client) {
    client = new PGlite({ extensions: PGLITE_EXTENSIONS, loadDataDir });
    if (!templateState) {
      const { rows } = await client.query<{ name: string }>(
        `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
      );
      templateState = {
        shape: await shapeOf(client),
        emptyAll: `truncate ${rows.map((r) => r.name).join(', ')} restart identity cascade`,
      };
    }
  }
  const owned = client;
  let given = false;
  // Every method of the handle answers "closed" once given back (a closed PGlite rejects the same way).
  const handle = new Proxy(owned, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        given ? Promise.reject(new Error('PGlite is closed')) : value.apply(target, args);
    },
  });
  return {
    client: handle,
    async giveBack() {
      if (given) return;
      given = true;
      try {
        if (owned.closed || idle.length >= MAX_IDLE || !templateState) throw new Error('not lent again');
        await owned.exec('discard all');
        await owned.exec('drop schema if exists pgboss cascade');
        if ((await shapeOf(owned)) !== templateState.shape) throw new Error('schema changed');
        await owned.exec(templateState.emptyAll);
        idle.push(owned);
      } catch {
        if (!owned.closed) await owned.close().catch(() => {});
      }
    },
  };
}
