import type { Database } from './db/client.js';
import { createJobQueue } from './jobs/pg-boss-queue.js';
import type { AppConfig } from './kernel/config.js';
import { type AppContext, createContext } from './kernel/context.js';
import type { createLogger } from './logger.js';
import { type Platforms, startPlatforms } from './platforms/start.js';
import { memberMirrorDiscord } from './wings/access/members/member-mirror.port.js';

/**
 * What every composition root (main.ts, and the API's thread in the single process) builds on an open database:
 * the job queue (every process can queue; only the worker role takes jobs), the platform adapters, the context.
 */
export async function startProcessContext(parts: {
  config: AppConfig;
  database: Database;
  log: Awaited<ReturnType<typeof createLogger>>;
}): Promise<{ ctx: AppContext; platforms: Platforms; jobs: ReturnType<typeof createJobQueue> }> {
  const { config, database, log } = parts;
  const jobs = createJobQueue(database, log, undefined, { workerName: config.process.container });
  // Both wait mostly on sockets (platform logins, pg-boss's schema check): side by side, not one after the other.
  // startPlatforms never throws: an unreachable platform is logged and its calls answer 503 until it comes back.
  const [platforms] = await Promise.all([
    startPlatforms({ config, database, log, awaitVrchatLogin: false }),
    jobs.start(),
  ]);
  const all = { config, database, log, platforms, jobs };
  return { ctx: createContext({ ...all, discord: memberMirrorDiscord(all) }), platforms, jobs };
}
