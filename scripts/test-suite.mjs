// The whole Vitest suite as two lanes side by side: the browser journeys (project e2e, whose files run one at a
// time against one shared demo server) next to everything else (server, web, simulator: several files at a
// time). In one `vitest run` the e2e files would only start once all the others had finished, adding their
// minutes to the end. With --postgres, the server files whose behaviour can differ on PostgreSQL
// (apps/server/test/postgres-suite.json) run after both, once the server, web and simulator files passed.
// Exits non-zero when any fails.
// Usage: node scripts/test-suite.mjs [--json-dir DIR] [--postgres URL [--postgres-node BIN_DIR]] [vitest options…]
//   DIR gets main.json, e2e.json (and postgres.json); BIN_DIR: the Node to run the PostgreSQL part with.
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

const onPostgres = () => {
  const { files } = JSON.parse(readFileSync('apps/server/test/postgres-suite.json', 'utf8'));
  console.log(`\n== database-sensitive server files on PostgreSQL (${files.length}) ==`);
  const path = postgresNode ? `${postgresNode}${delimiter}${process.env.PATH}` : process.env.PATH;
  return run('postgres', ['server'], {
    files: files.map((f) => `apps/server/${f}`),
    env: { ...process.env, PATH: path, DATABASE_URL: postgresUrl },
  });
};

const failed = [];
const check = (name) => (code) => {
  if (code !== 0) failed.push(name);
  return code;
};
const [mainCode] = await Promise.all([
  run('main', ['server', 'web', 'simulator']).then(check('server, web, simulator')),
  run('e2e', ['e2e']).then(check('e2e')),
]);
// After both lanes, not beside the journeys: the fault suite's recovery deadlines (30 s, 2 minutes) are about the
// product, and on two cores shared with a browser and a demo server they failed for the machine's sake.
if (mainCode === 0 && postgresUrl) await onPostgres().then(check('server on PostgreSQL'));
if (failed.length) {
  console.error(`\nVitest failed: ${failed.join(' and ')}.`);
  process.exit(1);
}
