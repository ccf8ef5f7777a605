// `npm start`'s second step (scripts/start.mjs): bundles the server (apps/server/src/main.ts, with the
// simulator's sources it imports in demo mode) into apps/server/dist/main.mjs with esbuild, only when its
// inputs changed since the last bundle (hash in apps/server/dist/.build-stamp). Node then loads one file
// instead of tsx compiling some 300 modules at every start. Packages stay in node_modules (external). The
// polyfills are bundled apart and loaded first: a bundle hoists its packages' imports above its own code, so
// a polyfill inside it would run after the packages that need it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputsHash, readStamp, repoRoot } from './inputs-hash.mjs';

export const serverDist = join(repoRoot, 'apps/server/dist');
const inputs = [
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/simulator/src',
  'apps/simulator/package.json',
  'tsconfig.base.json',
  'package-lock.json',
  'scripts/build-server-if-changed.mjs',
];

export const serverInputsHash = () => inputsHash(inputs);

/**
 * Bundles the server when its inputs changed since the last bundle (or `force`); answers whether it built.
 * `outDir` must sit one level below apps/server, as dist does (the server finds its files from there).
 */
export async function buildServerIfChanged({ force = false, outDir = serverDist } = {}) {
  const hash = serverInputsHash();
  const stampFile = join(outDir, '.build-stamp');
  if (!force && readStamp(stampFile) === hash) return false;
  const { build } = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: {
      main: join(repoRoot, 'apps/server/src/main.ts'),
      polyfills: join(repoRoot, 'apps/server/src/polyfills.ts'),
      // The embedded database's worker thread (db/pglite-remote.ts starts it beside main.mjs).
      'pglite-thread': join(repoRoot, 'apps/server/src/db/pglite-thread.ts'),
    },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // Source maps for stack traces: `node --enable-source-maps apps/server/dist/main.mjs`.
    sourcemap: 'linked',
    // The workspace's own packages (the simulator) are sources to bundle; every other package stays external.
    plugins: [
      {
        name: 'packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@vrclink/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    // CommonJS code bundled into ESM (none today, but esbuild may need it) finds `require` here.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  writeFileSync(stampFile, `${hash}\n`);
  console.log(`Server bundled (${relative(repoRoot, join(outDir, 'main.mjs'))}).`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildServerIfChanged({ force: process.argv.includes('--force') });
}
