// `npm start`'s first step (scripts/start.mjs): builds the web app (apps/web/dist) only when its inputs changed since the last build.
// The inputs (sources, public files, index.html, Vite/PostCSS/TypeScript config, package.json files and the lock
// file) are hashed; the hash of the last successful build is kept in apps/web/dist/.build-stamp. No dist, no stamp
// (a plain `npm run build` removes it) or another hash: build. `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputsHash, readStamp, repoRoot } from './inputs-hash.mjs';

const dist = join(repoRoot, 'apps/web/dist');
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

export const webInputsHash = () => inputsHash(inputs);

/** Builds the web app when its inputs changed since the last build (or `force`); answers whether it built. */
export function buildWebIfChanged({ force = false } = {}) {
  const hash = webInputsHash();
  if (!force && existsSync(join(dist, 'index.html')) && readStamp(stampFile) === hash) {
    console.log('Web app unchanged since the last build (apps/web/dist): not rebuilding.');
    return false;
  }
  const result = spawnSync('npm', ['run', 'build', '-w', '@vrclink/web'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`The web build failed (exit code ${result.status}).`);
  // The hash of the inputs as they were before the build: an edit made meanwhile rebuilds next time.
  writeFileSync(stampFile, `${hash}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    buildWebIfChanged({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
