import './polyfills.js';
import { buildApp } from './app.js';
import { startBot } from './bot/start-bot.js';
import { openDatabase } from './db/client.js';
import { isDemoMode, listenHost, parseEnv } from './env.js';
import { withEnvFiles } from './env-files.js';
import { drainHttp } from './http/drain.js';
import { isAddressInUse, portInUseSentence, portIsFree } from './http/listen-port.js';
import { createJobQueue } from './jobs/pg-boss-queue.js';
import { startHeartbeat } from './jobs/scheduled-tasks/heartbeat.js';
import { startScheduler } from './jobs/scheduled-tasks/scheduler.js';
import { startJobWorker } from './jobs/worker.js';
import { listeningUrl, resolveConfig } from './kernel/config.js';
import { createContext } from './kernel/context.js';
import { DISK_FULL_AT_START, isDiskFull } from './kernel/disk.js';
import { createLogger } from './logger.js';
import { startHealthServer } from './observability/health-server.js';
import { startPlatforms } from './platforms/start.js';
import { memberMirrorDiscord } from './wings/access/members/member-mirror.port.js';

/**
 * The composition root: reads the process roles (PROCESS_ROLES: api, bot, worker), builds the context
 * once and starts only what the roles ask for.
 */
// A start (or anything later) that fails because the disk is full says so in one sentence, without a stack
// trace, and exits 1: the monitor runs before Node prints the error.
process.on('uncaughtExceptionMonitor', (err) => {
  if (!isDiskFull(err)) return;
  process.stderr.write(`${DISK_FULL_AT_START}\n`);
  process.exit(1);
});

let env: ReturnType<typeof parseEnv>;
try {
  // The environment, over .env.local, over .env (in the working directory).
  env = parseEnv(withEnvFiles());
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
}

/** A busy port is a person's everyday mistake: one sentence and exit 1, never a stack trace. */
function stopBecausePortInUse(): never {
  process.stderr.write(`${portInUseSentence(env.PORT)}\n`);
  process.exit(1);
}

/**
 * The embedded database's thread ended by itself (its WebAssembly aborted, the thread ran out of memory): nothing
 * in this process can open it again, so the process shuts down and exits 1, and whatever runs it (Docker's
 * restart policy, systemd, a person at `npm start`) starts it again, which opens the data directory as after a
 * crash. Until the shutdown below is defined (during the start), exit at once.
 */
const EMBEDDED_DATABASE_STOPPED =
  'The embedded database stopped: shutting down so that a restart opens it again (exit code 1)';
let stopForEmbeddedDatabase = (): void => process.exit(1);

const host = listenHost(env);
const wantsHttp = env.PROCESS_ROLES.includes('api');
if (wantsHttp && !(await portIsFree(host, env.PORT))) stopBecausePortInUse();

const log = await createLogger(env);
// The simulator (demo mode only; real mode never imports it) and the database start side by side.
const [demo, database] = await Promise.all([
  isDemoMode(env)
    ? import('./demo.js').then((m) =>
        m.startDemoSimulator(env.SIMULATOR_PORT, {
          url: env.SIMULATOR_URL,
          lax: env.SIMULATOR_LIMITS === 'lax',
        }),
      )
    : undefined,
  openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    // Embedded PGlite answers beside the request thread, never on it (issue #34: its queries stalled requests).
    ownThread: true,
    onConnectionError: (err) => log.warn({ err }, 'A database connection broke; it will be replaced'),
    onEmbeddedStopped: (err) => {
      log.error({ err }, EMBEDDED_DATABASE_STOPPED);
      stopForEmbeddedDatabase();
    },
  }),
]);
const config = resolveConfig(env, demo?.endpoints);
const roles = config.process.roles;
if (demo) await (await import('./demo-seed.js')).seedDemoData(database.db);
// Every process can queue jobs (pg-boss in the same database); only the worker role takes them.
const jobs = createJobQueue(database, log, undefined, { workerName: config.process.container });
// Both wait mostly on sockets (platform logins, pg-boss's schema check): side by side, not one after the other.
// startPlatforms never throws: an unreachable platform is logged and its calls answer 503 until it comes back.
const [platforms] = await Promise.all([
  startPlatforms({ config, database, log, awaitVrchatLogin: false }),
  jobs.start(),
]);
const parts = { config, database, log, platforms, jobs };
const ctx = createContext({ ...parts, discord: memberMirrorDiscord(parts) });
log.info({ roles: [...roles], container: config.process.container }, 'Process roles');

/** What stops the background roles; each gets the time left before the shutdown deadline. */
const stops: Array<(leftMs: number) => Promise<void> | void> = [];
stops.push((leftMs) => jobs.stop(leftMs));
const app = roles.has('api') ? (await buildApp({ ctx })).app : undefined;

/**
 * SIGTERM / SIGINT (or the embedded database stopping: exit code 1): stop taking requests, close idle
 * connections at once, give requests in flight and running jobs until the deadline (SHUTDOWN_TIMEOUT_SECONDS),
 * hand unfinished jobs back, exit. Whatever still hangs a moment after the deadline, the process exits anyway.
 */
let shuttingDown = false;
const shutdown = async (reason: string, exitCode = 0) => {
  // One shutdown at a time (the embedded database's and a signal's); Ctrl-C during one exits without waiting.
  if (shuttingDown) {
    if (reason === 'SIGINT') process.exit(1);
    return;
  }
  shuttingDown = true;
  const timeoutMs = env.SHUTDOWN_TIMEOUT_SECONDS * 1000;
  const deadline = Date.now() + timeoutMs;
  const leftMs = () => Math.max(0, deadline - Date.now());
  log.info({ reason, timeoutMs }, 'Shutting down: finishing requests and jobs in flight');
  setTimeout(() => {
    process.stderr.write(
      `The shutdown did not finish within ${env.SHUTDOWN_TIMEOUT_SECONDS} seconds; exiting.\n`,
    );
    process.exit(1);
  }, timeoutMs + 1500).unref();
  try {
    await Promise.all([
      app ? drainHttp(app, leftMs()) : undefined,
      (async () => {
        for (const stop of stops.reverse()) await stop(leftMs());
      })(),
    ]);
    await platforms.close();
    await database.close();
    await demo?.sim?.close();
  } catch (err) {
    log.error({ err }, 'Shutting down failed');
    process.exit(1);
  }
  process.exit(exitCode);
};
// Not `once(…, shutdown)`: Node passes the signal's number as a second argument, which would be the exit code.
process.once('SIGINT', () => shutdown('SIGINT'));
process.once('SIGTERM', () => shutdown('SIGTERM'));
stopForEmbeddedDatabase = () => {
  shutdown('the embedded database stopped', 1).catch(() => process.exit(1));
};

if (app) {
  // Taken between the check above and now (another process started meanwhile): the same sentence.
  await app.listen({ port: env.PORT, host }).catch((err: unknown) => {
    if (isAddressInUse(err)) stopBecausePortInUse();
    throw err;
  });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : env.PORT;
  if (demo) app.log.info(`Demo mode: Discord and VRChat simulators at ${demo.endpoints.url}`);
  // PORT=0: the port is known only now, and without PUBLIC_URL the links are built from this address.
  if (!env.PUBLIC_URL) config.publicUrl = listeningUrl(host, port);
  // The simulated Discord accepts only registered redirects, as Discord: register the address users sign in at.
  if (demo) await (await import('./demo.js')).registerLoginRedirect(demo.endpoints.url, config.publicUrl);
  process.stdout.write(`Listening on ${listeningUrl(host, port)}\n`);
} else {
  process.stdout.write(`Running ${[...roles].join(', ')} (no HTTP)\n`);
}
// Before the background roles: a probe sees the process live, and not ready until its roles are up.
if (env.HEALTH_PORT !== undefined) {
  const health = await startHealthServer(ctx, env.HEALTH_PORT, host).catch((err: unknown) => {
    if (!isAddressInUse(err)) throw err;
    process.stderr.write(`${portInUseSentence(env.HEALTH_PORT ?? 0).replace('PORT=', 'HEALTH_PORT=')}\n`);
    process.exit(1);
  });
  stops.push(() => health.close());
  process.stdout.write(`Health checks and metrics on ${listeningUrl(host, health.port)}\n`);
}

// The background roles start once the API answers: the gateway connects, jobs are taken and tasks scheduled
// without holding up the first request.
// Before the scheduler registers tasks: /admin shows tasks of processes with a live heartbeat.
stops.push(await startHeartbeat(ctx));
if (roles.has('bot')) stops.push(startBot(ctx));
if (roles.has('worker')) {
  stops.push(await startJobWorker(ctx));
  ctx.scheduler = await startScheduler(ctx);
  stops.push(() => ctx.scheduler?.stop());
}
