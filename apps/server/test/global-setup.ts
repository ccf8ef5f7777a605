import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { CREATE_EXTENSIONS, PGLITE_EXTENSIONS } from '../src/db/client.js';

const migrations = fileURLToPath(new URL('../drizzle', import.meta.url));

/** What the template depends on: the committed migrations and the PGlite build. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrations, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(migrations, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(path));
  }
  // The PGlite build: its WebAssembly PostgreSQL.
  const pglite = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  hash.update(readFileSync(join(pglite, 'pglite.wasm')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Every test app gets a fresh in-memory PGlite. Running initdb and the migrations costs 2–4 s of CPU each time;
 * this makes one migrated database per change of the migrations, kept in the temp folder, from which each test
 * database starts (openTestDatabase). Its migrations still run there (finding nothing to do).
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return;
  }
  const path = join(tmpdir(), `vrclink-pglite-template-${templateKey()}.tar`);
  if (!existsSync(path)) {
    // The same extensions as openDatabase's PGlite.
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await client.exec(CREATE_EXTENSIONS);
    await migrate(drizzle(client), { migrationsFolder: migrations });
    const dump = await client.dumpDataDir('none');
    await client.close();
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path);
  }
  project.provide('pgliteTemplate', path);
}
