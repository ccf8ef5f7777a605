import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * CI runs the server suite on PGlite, then again on PostgreSQL only for the files listed in
 * postgres-suite.json: those where the two databases can differ (raw SQL, transactions, locks, LISTEN/NOTIFY,
 * a PostgreSQL of their own, several processes). This keeps the list honest: a test file that uses one of
 * these, or imports a module that does, must be on it.
 */
const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const suite: { files: string[]; afterJourneys: string[] } = JSON.parse(
  readFileSync(join(serverRoot, 'test/postgres-suite.json'), 'utf8'),
);
const listed = suite.files;
const afterJourneys = suite.afterJourneys;

const DATABASE_SENSITIVE = [
  /(?<!\.)\bsql`/, // drizzle's sql`…` (not a file name such as `${tag}.sql`)
  /executeSql\(/,
  /\.transaction\(/,
  /pg_advisory|for update|skip locked|pg_notify|\blisten\b/i,
  /DATABASE_URL/,
  /startServerProcess/,
];
const sensitive = (text: string) => DATABASE_SENSITIVE.some((m) => m.test(text));

function testFiles(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) testFiles(path, found);
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/** The product modules a test file imports itself (the test harness under test/ imports everything). */
function importedSources(file: string, text: string): string[] {
  return [...text.matchAll(/from '(\.[^']+)\.js'/g)]
    .map((m) => resolve(dirname(file), `${m[1]}.ts`))
    .filter((path) => existsSync(path) && !path.includes('/test/'));
}

describe('the PostgreSQL pass (postgres-suite.json)', () => {
  const self = fileURLToPath(import.meta.url);
  const files = [...testFiles(join(serverRoot, 'src')), ...testFiles(join(serverRoot, 'test'))].filter(
    (file) => file !== self,
  );

  it('lists every test file that touches raw SQL, transactions, locks or processes, itself or through a module it imports', () => {
    const missing = files
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return sensitive(text) || importedSources(file, text).some((s) => sensitive(readFileSync(s, 'utf8')));
      })
      .map((file) => relative(serverRoot, file))
      .filter((file) => !listed.includes(file));
    expect(missing).toEqual([]);
  });

  it('lists only test files that exist', () => {
    expect(listed.filter((file) => !existsSync(join(serverRoot, file)))).toEqual([]);
  });

  it('holds back for after the journeys only files it runs (afterJourneys, scripts/test-suite.mjs)', () => {
    expect(afterJourneys.length).toBeGreaterThan(0);
    expect(afterJourneys.filter((file) => !listed.includes(file))).toEqual([]);
  });
});
