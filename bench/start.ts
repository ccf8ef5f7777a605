/**
 * Start-up and first-load cost (called by `npm run bench`, or alone: `tsx bench/start.ts`):
 * 1. the gzipped JavaScript the home page loads: the entry script of the built `apps/web/dist/index.html`, its
 *    modulepreloads and every chunk they import statically (dynamic `import()`s, the lazy routes, excluded);
 * 2. the warm start: `npm start` (free ports) until `GET /api/health` answers 200, median of BENCH_START_RUNS
 *    (default 3) runs on one data folder, after a first run that brings the web build up to date and creates the
 *    database (as a second `npm start` on a machine that ran it before).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { freePort } from '../apps/server/test/free-port.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const webDist = join(repoRoot, 'apps/web/dist');
const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const START_TIMEOUT_MS = 120_000;

/** Static imports of a built chunk: `import{a}from"./x.js"`, `import"./x.js"`, `export{a}from"./x.js"`. */
function staticImports(code: string): string[] {
  const specifiers: string[] = [];
  const pattern = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g;
  for (const match of code.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

/** The JavaScript files the home page loads before any route is lazily fetched, with their gzipped sizes. */
export function homePageScripts(dist = webDist): { file: string; bytes: number; gzip: number }[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const pending = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]!.replace(/^\//, ''));
  const seen = new Set<string>();
  const files: { file: string; bytes: number; gzip: number }[] = [];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file));
    files.push({ file, bytes: code.length, gzip: gzipSync(code).length });
    for (const spec of staticImports(code.toString('utf8'))) {
      if (spec.startsWith('.')) pending.push(join(dirname(file), spec));
    }
  }
  return files.sort((a, b) => b.gzip - a.gzip);
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (!child.pid || child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** Milliseconds from spawning `npm start` to the first `GET /api/health` 200. */
export async function timeStart(dataDir: string): Promise<number> {
  const [port, simulatorPort] = [await freePort(), await freePort()];
  let log = '';
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      SIMULATOR_PORT: String(simulatorPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-10_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    while (performance.now() - started < START_TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${log}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`npm start did not answer /api/health within ${START_TIMEOUT_MS / 1000} s:\n${log}`);
  } finally {
    await stopGroup(child);
  }
}

export async function runStartBench(): Promise<void> {
  process.stdout.write('\nStart-up and home page\n\n');
  const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-bench-start-'));
  const warm: number[] = [];
  let first: number;
  try {
    // The first run builds the web app when its inputs changed since the last build, and creates the database.
    first = await timeStart(dataDir);
    for (let i = 0; i < RUNS; i++) warm.push(await timeStart(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  warm.sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)]!;
  process.stdout.write(`first npm start (new database)      ${(first / 1000).toFixed(1).padStart(6)} s\n`);
  process.stdout.write(
    `warm npm start → /api/health 200    ${(median / 1000).toFixed(1).padStart(6)} s (median of ${RUNS}; target < 5 s)\n`,
  );
  if (!existsSync(join(webDist, 'index.html'))) return;
  const files = homePageScripts();
  const total = files.reduce((sum, f) => sum + f.gzip, 0);
  process.stdout.write(
    `home page JavaScript (gzip)         ${(total / 1024).toFixed(1).padStart(6)} KB in ${files.length} files (target < 150 KB)\n`,
  );
  for (const f of files)
    process.stdout.write(`  ${f.file.padEnd(40)}${(f.gzip / 1024).toFixed(1).padStart(8)} KB\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await runStartBench();
