// The whole Vitest suite as two lanes side by side: the browser journeys (project e2e, whose files run one at a
// time against one shared demo server) next to everything else (server, web, simulator: several files at a
// time). In one `vitest run` the e2e files would only start once all the others had finished, adding their
// minutes to the end. With --postgres, the server files whose behaviour can differ on PostgreSQL
// (apps/server/test/postgres-suite.json) run once the server, web and simulator files passed: the fault suites
// after the journeys too, the rest at once, beside the journeys.
// Exits non-zero when any fails.
// Usage: node scripts/test-suite.mjs [--json-dir DIR] [--postgres URL [--postgres-node BIN_DIR]] [vitest options…]
//   DIR gets main.json, e2e.json (and postgres.json, postgres-faults.json); BIN_DIR: the Node to run the PostgreSQL part with.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter } from 'node:path';

const args = process.argv.slice(2);
/** Takes `--name value` out of the arguments. */
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const jsonDir = option('--json-dir');
const postgresUrl = option('--postgres');
const postgresNode = option('--postgres-node');

const run = (name, projects, { files = [], env = process.env } = {}) =>
  new Promise((resolve) => {
    const report = jsonDir
      ? ['--reporter=default', '--reporter=json', `--outputFile.json=${jsonDir}/${name}.json`]
      : [];
    // A file filter given to `npm test -- …` may name files of one side only: the other then has nothing to run.
    const filtered = args.length ? ['--passWithNoTests'] : [];
    const child = spawn(
      'npx',
      [
        'vitest',
        'run',
        ...projects.flatMap((p) => ['--project', p]),
        ...report,
        ...filtered,
        ...args,
        ...files,
      ],
      { stdio: 'inherit', env },
    );
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const postgresSuite = JSON.parse(readFileSync('apps/server/test/postgres-suite.json', 'utf8'));
const afterJourneys = new Set(postgresSuite.afterJourneys ?? []);
/** Those server files on PostgreSQL, under the Node of --postgres-node, reported as `name`. */
const onPostgres = (name, files) => {
  console.log(`\n== database-sensitive server files on PostgreSQL (${name}: ${files.length}) ==`);
  const path = postgresNode ? `${postgresNode}${delimiter}${process.env.PATH}` : process.env.PATH;
  return run(name, ['server'], {
    files: files.map((f) => `apps/server/${f}`),
    env: { ...process.env, PATH: path, DATABASE_URL: postgresUrl },
  });
};

const failed = [];
const check = (name) => (code) => {
  if (code !== 0) failed.push(name);
  return code;
};
const main = run('main', ['server', 'web', 'simulator']).then(check('server, web, simulator'));
const e2e = run('e2e', ['e2e']).then(check('e2e'));
// The PostgreSQL part runs only once the server, web and simulator files passed: the database-sensitive files
// at once, beside the journeys; the fault suites (postgres-suite.json's afterJourneys) after the journeys too,
// since beside Chromium and the demo server on two cores their recovery deadlines (30 s, 2 minutes) failed
// twice. (From 2 Dec 2026 the whole part waited for the journeys: beside them four timing-sensitive files had
// failed in three CIs; each was a race a busy machine made likelier, and each is fixed at its cause:
// docs/testing.md.)
const postgres = postgresUrl
  ? [
      main.then((code) =>
        code === 0
          ? onPostgres(
              'postgres',
              postgresSuite.files.filter((f) => !afterJourneys.has(f)),
            ).then(check('server on PostgreSQL'))
          : 0,
      ),
      Promise.all([main, e2e]).then(([code]) =>
        code === 0 && afterJourneys.size > 0
          ? onPostgres('postgres-faults', [...afterJourneys]).then(check('fault suites on PostgreSQL'))
          : 0,
      ),
    ]
  : [];
await Promise.all([main, e2e, ...postgres]);
if (failed.length) {
  console.error(`\nVitest failed: ${failed.join(' and ')}.`);
  process.exit(1);
}
