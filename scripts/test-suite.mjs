// The whole Vitest suite as two processes side by side: the browser journeys (project e2e, whose files run one
// at a time against one shared demo server) next to everything else (server, web, simulator: several files at a
// time). In one `vitest run` the e2e files would only start once all the others had finished, adding their
// ~12 minutes to the end. Exits non-zero when either fails.
// Usage: node scripts/test-suite.mjs [--json-dir DIR] [vitest options…]  (DIR gets main.json and e2e.json)
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
let jsonDir;
const at = args.indexOf('--json-dir');
if (at >= 0) [, jsonDir] = args.splice(at, 2);

const run = (name, projects) =>
  new Promise((resolve) => {
    const report = jsonDir
      ? ['--reporter=default', '--reporter=json', `--outputFile.json=${jsonDir}/${name}.json`]
      : [];
    // A file filter given to `npm test -- …` may name files of one side only: the other then has nothing to run.
    const filtered = args.length ? ['--passWithNoTests'] : [];
    const child = spawn(
      'npx',
      ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), ...report, ...filtered, ...args],
      { stdio: 'inherit' },
    );
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const codes = await Promise.all([run('main', ['server', 'web', 'simulator']), run('e2e', ['e2e'])]);
if (codes.some((c) => c !== 0)) {
  console.error(
    `\nVitest failed: ${['server, web, simulator', 'e2e'].filter((_, i) => codes[i] !== 0).join(' and ')}.`,
  );
  process.exit(1);
}
