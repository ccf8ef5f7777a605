// `npm start`'s first step: builds the web app (apps/web/dist) only when its inputs changed since the last build.
// The inputs (sources, public files, index.html, Vite/PostCSS/TypeScript config, package.json files and the lock
// file) are hashed; the hash of the last successful build is kept in apps/web/dist/.build-stamp. No dist, no stamp
// (a plain `npm run build` removes it) or another hash: build. `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const dist = join(web, 'dist');
const stampFile = join(dist, '.build-stamp');
const inputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/postcss.config.cjs',
  'apps/web/tsconfig.json',
  'apps/web/package.json',
  'tsconfig.base.json',
  'package.json',
  'package-lock.json',
];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules' ? [] : files(join(path, entry.name)),
  );
}

export function webInputsHash() {
  const hash = createHash('sha256');
  const all = inputs.flatMap((input) => files(join(root, input))).sort();
  for (const file of all) {
    hash.update(relative(root, file).replaceAll('\\', '/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const hash = webInputsHash();
const built = existsSync(join(dist, 'index.html')) && existsSync(stampFile);
if (!force && built && readFileSync(stampFile, 'utf8').trim() === hash) {
  console.log('Web app unchanged since the last build (apps/web/dist): not rebuilding.');
} else {
  const result = spawnSync('npm', ['run', 'build', '-w', '@vrclink/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // The hash of the inputs as they were before the build: an edit made meanwhile rebuilds next time.
  writeFileSync(stampFile, `${hash}\n`);
}
