import '../polyfills.js';
import { workerData } from 'node:worker_threads';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/client.js';
import { parseEnv } from '../env.js';
import { withEnvFiles } from '../env-files.js';
import { drainHttp } from '../http/drain.js';
import { isAddressInUse } from '../http/listen-port.js';
import { listeningUrl, resolveConfig } from '../kernel/config.js';
import { createLogger } from '../logger.js';
import { processMetrics } from '../observability/process-metrics.js';
import { ownChecks } from '../observability/readiness.js';
import { startProcessContext } from '../process-context.js';
import type { ApiThreadData } from './api-thread-data.js';
import { ThreadLink } from './thread-link.js';

/**
 * The single process's API, in a worker thread of its own (start-api-thread.ts starts it): an `api` process
 * of the multi-process deployment, whose database is the process's embedded one (through its thread) and
 * whose background roles run on the main thread. Its own V8 isolate keeps Node's HTTP code seeing only its
 * server's requests and answers (issue #34: shared with the gateway, the platform clients and the simulator,
 * that code's inline caches went megamorphic and every answer cost more).
 */
const data = workerData as ApiThreadData;
const link = new ThreadLink(data.link);
const env = parseEnv(withEnvFiles());
// Its lines name the thread: both threads log with the process's pid.
const log = (await createLogger(env, undefined, data.terminal)).child({ thread: 'api' });
const database = await openDatabase({
  attach: { port: data.database, dataDir: env.DATA_DIR, fileDir: data.fileDir },
  onEmbeddedStopped: (err) =>
    log.error({ err }, 'The embedded database stopped: every request that needs it answers 503'),
});
const resolved = resolveConfig(env, data.simulator);
// This thread runs the api role only; the process's other roles run on the main thread.
const config = { ...resolved, process: { ...resolved.process, roles: new Set(['api'] as const) } };
const { ctx, platforms, jobs } = await startProcessContext({ config, database, log });
ctx.sibling = {
  ownsState: true,
  checks: () => link.ask('checks'),
  metricsText: () => link.ask('metrics'),
};
// Run now answered here fires the main thread's scheduled-task loop at once, as in one thread.
ctx.scheduler = {
  owner: { api: config.process.api, container: config.process.container },
  runDue: () => link.ask('run-due'),
  stop: async () => {},
};
link.answer('checks', () => ownChecks(ctx));
link.answer('metrics', () => processMetrics(ctx).render());

const { app } = await buildApp({ ctx });
link.answer('drain', async (leftMs) => {
  await drainHttp(app, leftMs as number);
  await jobs.stop(0);
  await platforms.close();
  await database.close();
});
const listening = await app.listen({ port: data.port, host: data.host }).then(
  () => true,
  (err: unknown) => {
    if (!isAddressInUse(err)) throw err;
    return false;
  },
);
if (listening) {
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : data.port;
  if (!env.PUBLIC_URL) config.publicUrl = listeningUrl(data.host, port);
  link.tell('listening', { port });
} else {
  // Taken meanwhile by another process: the main thread says so in one sentence and exits.
  link.tell('port-in-use');
}
