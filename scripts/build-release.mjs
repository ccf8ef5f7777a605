// `npm run build`: the release. Builds the web app (apps/web/dist) and bundles the server (apps/server/dist, the
// simulators inside it for demo mode), each only when its inputs changed (`--force`: anyway). With `--out <dir>`
// it also copies what a deployment runs into <dir>: the built files, the migrations, the package files and the
// lock file; no sources, no dev tools. There, `npm ci --omit=dev && npm run start:prod` installs the runtime
// packages and starts it (docs/deploy.md). The Dockerfile runs this same script.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerIfChanged } from './build-server-if-changed.mjs';
import { buildWebIfChanged } from './build-web-if-changed.mjs';
import { repoRoot } from './inputs-hash.mjs';

/** What a release holds, relative to the repository (folders copied whole). */
export const releaseFiles = [
  'package.json',
  'package-lock.json',
  'LICENSE',
  'README.md',
  '.env.example',
  'apps/server/package.json',
  'apps/server/dist',
  'apps/server/drizzle',
  'apps/server/assets',
  'apps/web/package.json',
  'apps/web/dist',
  // A workspace npm ci expects; its sources are inside the server bundle (demo mode), its packages installed.
  'apps/simulator/package.json',
  'deploy',
];

/** Builds the web app and the server bundle; with `out`, copies the release there (emptied first). */
export async function buildRelease({ force = false, out } = {}) {
  buildWebIfChanged({ force });
  await buildServerIfChanged({ force });
  if (!out) return;
  assembleRelease(out);
  console.log(`Release in ${out}: npm ci --omit=dev && npm run start:prod`);
}

/**
 * Copies the release's files into `out` (emptied first). `from` replaces a built folder with another one (a test
 * bundles into a folder of its own, so it never races a build of the checkout's).
 */
export function assembleRelease(out, from = {}) {
  rmSync(out, { recursive: true, force: true });
  for (const file of releaseFiles) {
    const source = from[file] ?? join(repoRoot, file);
    if (!existsSync(source))
      throw new Error(`The release needs ${file}, which is missing: run npm run build.`);
    mkdirSync(dirname(join(out, file)), { recursive: true });
    // Build stamps say when to rebuild in a checkout; a release is never rebuilt.
    cpSync(source, join(out, file), { recursive: true, filter: (src) => !src.endsWith('.build-stamp') });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--out');
  try {
    await buildRelease({
      force: process.argv.includes('--force'),
      out: at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : undefined,
    });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
