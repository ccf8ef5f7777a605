import './polyfills.js';
import pino from 'pino';
import { buildApp } from './app.js';
import { resolveConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { isDemoMode, parseEnv } from './env.js';
import { startRetention } from './modules/auth/retention.js';
import { startPlatforms } from './platforms/start.js';

let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
}

// The simulator is only loaded in demo mode; real mode never imports it.
const demo = isDemoMode(env)
  ? await (await import('./demo.js')).startDemoSimulator(env.SIMULATOR_PORT)
  : undefined;
const config = resolveConfig(env, demo?.endpoints);
const log = pino({ level: config.logLevel });
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  onConnectionError: (err) => log.warn({ err }, 'A database connection broke; it will be replaced'),
});
if (demo) await (await import('./demo-seed.js')).seedDemoData(database.db);
// Never throws: an unreachable platform is logged and its calls answer 503 until it comes back.
const platforms = await startPlatforms({ config, database, log });
const { app } = await buildApp({ config, database, loggerInstance: log, platforms });
const stopRetention = startRetention(database.db, log, {
  keepDiscordTokens: config.discord.linkedRolesEnabled,
});

const shutdown = async () => {
  stopRetention();
  await app.close();
  await platforms.close();
  await database.close();
  await demo?.sim.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

await app.listen({ port: env.PORT, host: env.HOST });
const addr = app.server.address();
const port = typeof addr === 'object' && addr ? addr.port : env.PORT;
if (demo) app.log.info(`Demo mode: Discord and VRChat simulators at ${demo.sim.url}`);
process.stdout.write(`Listening on http://127.0.0.1:${port}\n`);
