import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/test/server-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A simulator (Discord + VRChat) running in a process of its own, as `npm run simulator` starts it. */
export interface SimulatorProcess {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the simulators in their own process. A bench that also drives hundreds of requests and probes
 * must not share the simulators' event loop: at a time scale of 20, a 100 ms stall of the bench's own work
 * holds requests sent 2 s apart (in VRChat's time) and lets them arrive together, a burst the product
 * never sent.
 */
export async function startSimulatorProcess(timeScale: number): Promise<SimulatorProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/simulator/src/main.ts'], {
    cwd: root,
    env: { ...process.env, SIMULATOR_PORT: String(port), SIMULATOR_TIME_SCALE: String(timeScale) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`The simulator process ended (${code}) before listening: ${out}`)),
    );
  });
  await listening;
  child.stdout?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
