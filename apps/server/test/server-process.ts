import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SimulatorOptions } from '@vrclink/simulator';
import { startOwnSimulator } from '../src/demo.js';
import { sessionXsrfToken } from '../src/http/auth.js';
import { resolveSecretKey } from '../src/kernel/config.js';
import { LAX_SIMULATOR } from '../src/platforms/testing.js';
import { createScratchDatabase } from './db.js';
import { freePort } from './free-port.js';

export { freePort };

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const tsx = join(repoRoot, 'node_modules/.bin/tsx');

/** A real server process (`main.ts`, as `npm start` runs it) on its own port. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hooks, as a crash. */
  kill(): void;
  stop(): Promise<void>;
}

/**
 * Starts `main.ts` with tsx, or with `bundleDir` the bundle `npm start` runs (its polyfills loaded first, as
 * scripts/start.mjs does), or with `releaseDir` a release as an operator runs it (`npm run start:prod` there).
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { bundleDir?: string; releaseDir?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-proc-'));
  let log = '';
  const [command, args] = opts.releaseDir
    ? ['npm', ['run', '--silent', 'start:prod']]
    : opts.bundleDir
      ? [
          process.execPath,
          [
            '--import',
            pathToFileURL(join(opts.bundleDir, 'polyfills.mjs')).href,
            join(opts.bundleDir, 'main.mjs'),
          ],
        ]
      : [tsx, ['apps/server/src/main.ts']];
  const child = spawn(command, args, {
    cwd: opts.releaseDir ?? repoRoot,
    // Its own process group: tsx runs the server in a child process, and a SIGKILL cannot be relayed.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      ...env,
    },
  });
  // The last megabyte: bounded for long runs, yet a few failed queries logged with their parameters (a server
  // snapshot's roles and channels, several kilobytes each) do not push out the line a test looks for.
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-1_000_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  // A process without the api role answers its health checks on HEALTH_PORT only.
  const healthUrl =
    env.HEALTH_PORT && env.PROCESS_ROLES && !env.PROCESS_ROLES.includes('api')
      ? `http://127.0.0.1:${env.HEALTH_PORT}`
      : url;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: ServerProcess = {
    url,
    child,
    output: () => log,
    kill() {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${healthUrl}/api/health`);
      if (res.ok) return proc;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await proc.stop();
  throw new Error(`Server did not become healthy:\n${log}`);
}

/**
 * Waits until the process says it is ready (database reachable, migrations applied, roles up). No deadline of its
 * own: the test's time-out bounds it, so a loaded machine's slow start is not a failure.
 */
export async function waitUntilReady(proc: ServerProcess): Promise<void> {
  for (;;) {
    const res = await fetch(`${proc.url}/api/health/ready`);
    if (res.status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * What several server processes on PostgreSQL share in a test: one simulator, a throw-away database, and the
 * environment naming both. The simulator is lax unless `simulatorOptions` say otherwise (the shared VRChat
 * budget's test runs it strict).
 */
export async function sharedBackends(
  adminUrl: string,
  secretKey: string,
  simulatorOptions: SimulatorOptions = LAX_SIMULATOR,
) {
  const sim = await startOwnSimulator(0, simulatorOptions);
  const scratch = await createScratchDatabase(adminUrl);
  return {
    sim,
    scratch,
    env: { DATABASE_URL: scratch.url, SIMULATOR_URL: sim.sim.url, SECRET_KEY: secretKey },
  };
}

/**
 * The Cookie and XSRF headers of a signed-in browser for a state-changing call to processes started with
 * this SECRET_KEY: the session cookie and the session's own XSRF token (http/auth.ts binds the pair).
 */
export function signedInHeaders(secretKey: string, sessionToken: string): Record<string, string> {
  const xsrf = sessionXsrfToken(resolveSecretKey({ SECRET_KEY: secretKey, DATA_DIR: '' }), sessionToken);
  return { cookie: `vrclink_session=${sessionToken}; XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
}

/**
 * Runs `main.ts` (through tsx) in `cwd` with only `env` and waits for it to exit by itself: a start that
 * must stop at once (bad configuration). Asynchronous, not `spawnSync`: tsx compiling the server's modules
 * took 36 s on a CPU-loaded machine, and a synchronous child held the test's own time-out off meanwhile.
 * Killed after `limitMs`.
 */
export function runMainToExit(
  env: Record<string, string | undefined>,
  cwd = repoRoot,
  limitMs = 110_000,
): Promise<{ status: number | null; stderr: string }> {
  const loader = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, join(repoRoot, 'apps/server/src/main.ts')], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const limit = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(limit);
      resolve({ status, stderr });
    }),
  );
}
