import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script (scripts/), without type declarations
import { assembleRelease } from '../../../scripts/build-release.mjs';
// @ts-expect-error: a plain ES module script (scripts/), without type declarations
import { buildServerIfChanged } from '../../../scripts/build-server-if-changed.mjs';
import { startOwnSimulator } from '../src/demo.js';
import { LAX_SIMULATOR } from '../src/platforms/testing.js';
import { createScratchDatabase } from './db.js';
import { freePort, type ServerProcess, startServerProcess, waitUntilReady } from './server-process.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const serverDir = fileURLToPath(new URL('..', import.meta.url));
// One level below apps/server, like apps/server/dist: the server finds its files from there.
const bundleDir = join(serverDir, `dist-test-${process.pid}`);
const adminUrl = process.env.DATABASE_URL;

/** The commands of docs/deploy.md marked for testing (fenced blocks with the info string `bash test`), in order. */
export function guideCommands(markdown: string): string {
  return [...markdown.matchAll(/^```bash test\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('');
}

/** Runs a shell script in its own process group; resolves with its exit code and output, killing what it left. */
function runScript(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    // stdin ignored: bash given a socket for stdin takes itself for a remote shell and reads bashrc.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const keep = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(0, 40_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('exit', (code) => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Every process of the group has ended.
      }
      resolve({ code, out });
    });
  });
}

/** Hard-links a package's files (not its nested node_modules: those are packages of their own). */
function linkPackage(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) linkPackage(source, target);
    else if (entry.isFile()) linkSync(source, target);
  }
}

/**
 * The packages `npm ci --omit=dev` installs for the server (and the simulators its demo mode runs), linked from
 * this checkout into `releaseDir`: what the release may use, without one development tool (vite, esbuild, tsx,
 * pino-pretty) and without the web app's packages. npm itself decides the list (`npm ls --omit=dev`); linking
 * instead of installing keeps the test fast and off the network.
 */
function installRuntimePackages(releaseDir: string): string[] {
  const paths = execFileSync(
    'npm',
    ['ls', '--omit=dev', '--all', '--parseable', '-w', '@vrclink/server', '-w', '@vrclink/simulator'],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  )
    .split('\n')
    .map((line) => relative(repoRoot, line.trim()))
    .filter((path) => path.startsWith('node_modules/') && !path.startsWith('node_modules/@vrclink/'));
  for (const path of new Set(paths)) linkPackage(join(repoRoot, path), join(releaseDir, path));
  return paths;
}

/**
 * The release (`npm run build` → scripts/build-release.mjs): the server bundle with the migrations, assets and
 * web app beside it, started as an operator runs it (`npm run start:prod`) with the runtime packages only.
 */
describe('the release', () => {
  let proc: ServerProcess;
  let releaseDir: string;
  let installed: string[];
  beforeAll(async () => {
    expect(await buildServerIfChanged({ force: true, outDir: bundleDir })).toBe(true);
    releaseDir = mkdtempSync(join(tmpdir(), 'vrclink-release-'));
    // The checkout's web build when there is one (CI's browser tests make it); a stand-in page otherwise, so this
    // test never builds (or races a build of) the web app.
    const webDist = join(repoRoot, 'apps/web/dist');
    let web = webDist;
    if (!existsSync(join(webDist, 'index.html'))) {
      web = mkdtempSync(join(tmpdir(), 'vrclink-web-'));
      writeFileSync(join(web, 'index.html'), '<!doctype html><title>VRCLink</title>');
    }
    assembleRelease(releaseDir, { 'apps/server/dist': bundleDir, 'apps/web/dist': web });
    if (web !== webDist) rmSync(web, { recursive: true, force: true });
    installed = installRuntimePackages(releaseDir);
    // Demo mode on the embedded database, as a first start of the release.
    proc = await startServerProcess(
      { DATABASE_URL: '', SIMULATOR_PORT: String(await freePort()) },
      { releaseDir },
    );
  }, 120_000);
  afterAll(async () => {
    await proc?.stop();
    rmSync(bundleDir, { recursive: true, force: true });
    if (releaseDir) rmSync(releaseDir, { recursive: true, force: true });
  });

  it('is not bundled again while its inputs are unchanged', async () => {
    expect(await buildServerIfChanged({ outDir: bundleDir })).toBe(false);
  });

  it('holds no sources and no development tool', () => {
    expect(existsSync(join(releaseDir, 'apps/server/src'))).toBe(false);
    expect(existsSync(join(releaseDir, 'apps/simulator/src'))).toBe(false);
    for (const tool of [
      'vite',
      'esbuild',
      'tsx',
      'typescript',
      'vitest',
      'drizzle-kit',
      'pino-pretty',
      'react',
    ])
      expect(installed, tool).not.toContain(`node_modules/${tool}`);
    const scripts = JSON.parse(readFileSync(join(releaseDir, 'package.json'), 'utf8')).scripts;
    expect(scripts['start:prod']).not.toMatch(/tsx|vite|esbuild/);
  });

  it('applies the migrations, serves the API in demo mode and is ready', async () => {
    const res = await fetch(`${proc.url}/api/config`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { demoMode: boolean }).demoMode).toBe(true);
    await waitUntilReady(proc);
    const page = await fetch(`${proc.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  // docs/deploy.md's tested commands, in the release folder, as an operator runs them: .env from .env.example, an
  // `api` and a `bot,worker` process on PostgreSQL, their readiness and metrics with curl, a backup while they run,
  // a restore into a new database and a server ready on it. The simulators stand in for the platforms
  // (SIMULATOR_URL instead of the six credentials); the test's databases and free ports replace the guide's.
  describe.skipIf(!adminUrl)('docs/deploy.md, its commands run', () => {
    it('sets up .env, runs api and bot,worker, checks both are ready, backs up and restores', async () => {
      const script = guideCommands(readFileSync(join(repoRoot, 'docs/deploy.md'), 'utf8'));
      expect(script).toContain('npm run start:prod &');
      const sim = await startOwnSimulator(0, LAX_SIMULATOR);
      const db = await createScratchDatabase(adminUrl as string);
      const restored = await createScratchDatabase(adminUrl as string);
      try {
        const [apiPort, healthPort] = [await freePort(), await freePort()];
        const run = script
          .replaceAll('postgres://vrclink:<password>@127.0.0.1:5432/vrclink_restored', restored.url)
          .replaceAll('postgres://vrclink:<password>@127.0.0.1:5432/vrclink', db.url)
          .replaceAll('127.0.0.1:3000', `127.0.0.1:${apiPort}`)
          .replaceAll('9464', String(healthPort));
        expect(run).not.toMatch(/<[a-z]+>/);
        const { code, out } = await runScript(run, releaseDir, {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          // The environment wins over .env: the api process on a free port instead of .env.example's 3000.
          PORT: String(apiPort),
          SIMULATOR_URL: sim.sim.url,
        });
        expect(code, out).toBe(0);
        expect(out).toContain('"status":"ready"');
        expect(out).toContain('Restored from vrclink.dump');
        expect(readFileSync(join(releaseDir, '.env'), 'utf8')).toContain(`DATABASE_URL=${db.url}`);
      } finally {
        await sim.sim.close();
        await db.drop();
        await restored.drop();
      }
    }, 180_000);
  });

  it('finds the files beside its sources (the VPM package)', async () => {
    const listing = (await (await fetch(`${proc.url}/api/vpm/index.json`)).json()) as {
      packages: Record<string, { versions: Record<string, { url: string }> }>;
    };
    const versions = Object.values(Object.values(listing.packages)[0]!.versions);
    const zip = await fetch(versions[0]!.url.replace(/^https?:\/\/[^/]+/, proc.url));
    expect(zip.status).toBe(200);
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
  });
});
