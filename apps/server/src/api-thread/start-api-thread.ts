import { MessageChannel, Worker } from 'node:worker_threads';
import type { Database } from '../db/client.js';
import type { SimulatorEndpoints } from '../kernel/config.js';
import type { AppContext } from '../kernel/context.js';
import { processMetrics } from '../observability/process-metrics.js';
import { ownChecks } from '../observability/readiness.js';
import type { ApiThreadData } from './api-thread-data.js';
import { ThreadLink } from './thread-link.js';

/** The API's thread as the main thread sees it once it listens. */
export interface ApiThread {
  /** The port it listens on (the one asked for, or the one it got for PORT=0). */
  port: number;
  /** Stops taking requests, finishes those in flight within `leftMs`, and closes its side of everything. */
  drain(leftMs: number): Promise<void>;
}

/** How the thread's start ended before it listened. */
export type ApiThreadStart = { listening: ApiThread } | { portInUse: true };

/**
 * The worker: the bundle's sibling `api-thread.mjs` after the polyfills (the bundle hoists its packages above
 * its own code, so the polyfill must load first, as `npm start` does for main.mjs), or, run from the sources
 * (tests, `npm run dev`), the TypeScript file through tsx's loader inside the new thread.
 */
function startWorker(data: ApiThreadData): Worker {
  const options = { workerData: data, transferList: [data.link, data.database] };
  const bundled = !import.meta.url.endsWith('.ts');
  const entry = new URL(bundled ? './api-thread.mjs' : './api-thread.ts', import.meta.url).href;
  const boot = bundled
    ? `import(${JSON.stringify(new URL('./polyfills.mjs', import.meta.url).href)}).then(() => import(${JSON.stringify(entry)}))`
    : `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * Starts the API in a worker thread of its own (api-thread.ts) beside the process's background roles, on the
 * same embedded database; resolves once it listens, or says the port was taken. The main thread answers its
 * questions (readiness checks, metrics, Run now) from `ctx`, and asks it the same through `ctx.sibling`. After
 * the start, the thread ending by an error is the process's failure: `onFailure` is told (main.ts exits).
 */
export async function startApiThread(opts: {
  ctx: AppContext;
  database: Database & { openPort: () => MessagePort };
  simulator?: SimulatorEndpoints;
  host: string;
  port: number;
  onFailure: (err: Error) => void;
}): Promise<ApiThreadStart> {
  const { ctx } = opts;
  const channel = new MessageChannel();
  const link = new ThreadLink(channel.port1);
  link.answer('checks', () => ownChecks(ctx));
  link.answer('metrics', () => processMetrics(ctx).render());
  link.answer('run-due', () => ctx.scheduler?.runDue());
  const worker = startWorker({
    link: channel.port2,
    database: opts.database.openPort(),
    fileDir: opts.database.fileDir,
    simulator: opts.simulator,
    host: opts.host,
    port: opts.port,
    terminal: Boolean(process.stdout.isTTY),
  });
  let draining = false;
  let failed = false;
  const fail = (err: Error) => {
    if (failed || draining) return;
    failed = true;
    opts.onFailure(err);
  };
  const started = new Promise<ApiThreadStart>((resolve, reject) => {
    link.on('listening', (payload) => {
      const { port } = payload as { port: number };
      resolve({ listening: { port, drain } });
    });
    link.on('port-in-use', () => resolve({ portInUse: true }));
    worker.on('error', (thrown: unknown) => {
      const err = thrown instanceof Error ? thrown : new Error(String(thrown));
      reject(err);
      fail(err);
    });
    worker.on('exit', (code) => {
      const err = new Error(`The API thread ended (exit code ${code}).`);
      reject(err);
      fail(err);
    });
  });
  const drain = async (leftMs: number) => {
    draining = true;
    // The thread answers once its server is closed; a thread that hangs past the deadline is not waited for.
    await link.ask('drain', leftMs, leftMs + 1000).catch(() => {});
    link.close();
  };
  ctx.sibling = {
    ownsState: false,
    checks: () => link.ask('checks'),
    metricsText: () => link.ask('metrics'),
  };
  return started;
}
