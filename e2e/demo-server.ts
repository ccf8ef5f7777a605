import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/test/free-port.js';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// A fresh clone builds the web app first (about a minute on a loaded 2-core machine).
const STARTUP_TIMEOUT_MS = 300_000;

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

export interface DemoServer {
  baseUrl: string;
  simulatorUrl: string;
  /** The last 20,000 characters the server wrote (stdout and stderr). */
  output(): string;
  /** Ends the server's process group and deletes its data folder. */
  stop(): void;
}

/**
 * Starts the server in demo mode on free ports, as `npm start` does (the web build and the server bundle
 * brought up to date, then the bundle run), with a fresh data folder; `env` is the whole environment but
 * PORT, SIMULATOR_PORT and DATA_DIR. Resolves once /api/health answers.
 */
export async function startDemoServer(env: NodeJS.ProcessEnv, logFile?: string): Promise<DemoServer> {
  const [port, simulatorPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-e2e-'));
  let log = '';
  const server = spawn('node', ['scripts/start.mjs'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, PORT: String(port), SIMULATOR_PORT: String(simulatorPort), DATA_DIR: dataDir },
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
    if (logFile) appendFileSync(logFile, chunk);
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
  return { baseUrl, simulatorUrl: `http://127.0.0.1:${simulatorPort}`, output: () => log, stop };
}
