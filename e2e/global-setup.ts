import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    simulatorUrl: string;
  }
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// A fresh clone builds the web app first (about a minute on a loaded 2-core machine).
const STARTUP_TIMEOUT_MS = 300_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Server exited with ${server.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok && ((await response.json()) as { status?: string }).status === 'ok') return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Server did not answer /api/health within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output()}`);
}

/**
 * Starts the server in demo mode on free ports, as `npm start` does (the web build and the server bundle
 * brought up to date, then the bundle run), and shares its URLs with the tests.
 */
export default async function setup(project: TestProject) {
  const [port, simulatorPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-e2e-'));
  let log = '';
  const server = spawn('node', ['scripts/start.mjs'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      SIMULATOR_PORT: String(simulatorPort),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      // E2E_LOG_LEVEL=info with E2E_SERVER_LOG=<file> keeps the server's whole log when a journey needs a look.
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Every journey signs in from this one address, several at once: far above what one person does.
      RATE_LIMIT_ANONYMOUS: '1000',
      RATE_LIMIT_USER: '10000',
      // The same crowd would queue behind the simulated platforms' per-route buckets (OAuth token exchanges,
      // 10 per 10 s per address); the strict limits have their own tests.
      SIMULATOR_LIMITS: 'lax',
      // The product's VRChat pacer 10 times faster (10 requests/s, burst 30; the lax simulator grants that): the
      // journeys are about what the bot does, and at VRChat's real pace each awaited effect took 10-20 s. The pacing
      // itself is tested against the strict simulator in the server suite (vrchat-limits, sync-under-limits).
      VRCHAT_TIME_SCALE: '10',
    },
  });
  const serverLog = process.env.E2E_SERVER_LOG;
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
    if (serverLog) appendFileSync(serverLog, chunk);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);

  const stop = () => {
    // Kill the whole group (the web build's npm and Vite, if still running, too).
    if (server.pid && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, server, () => log);
  } catch (error) {
    stop();
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('simulatorUrl', `http://127.0.0.1:${simulatorPort}`);
  return stop;
}
