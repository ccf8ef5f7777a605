import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/client.js';
import { type JobQueue, noJobQueue } from '../jobs/queue.js';
import { DiscordOAuth } from '../platforms/discord/oauth.js';
import type { DiscordPort, VrchatPort } from '../platforms/ports.js';
import type { Platforms } from '../platforms/start.js';
import { unavailableDiscord, unavailableVrchat } from '../platforms/unavailable.js';
import type { AppConfig } from './config.js';

/** What route modules, services, bot events and jobs get: config, data and platform adapters. */
export interface AppContext {
  config: AppConfig;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  discordOAuth: DiscordOAuth;
  /** The bot's view of Discord (REST; the gateway only in the `bot` role). */
  discord: DiscordPort;
  /** The product's VRChat account, paced and logged in once. */
  vrchat: VrchatPort;
  /** Durable jobs (pg-boss on the same database). */
  jobs: JobQueue;
  /** The started platform adapters; absent where none were started (OpenAPI export, some tests). */
  platforms?: Platforms;
  /** This process's scheduled-task loop (worker role), so Run now answered here fires at once. */
  scheduler?: LocalTaskScheduler;
}

/** The scheduled-task loop of this process as the context sees it (started by jobs/scheduled-tasks/scheduler.ts). */
export interface LocalTaskScheduler {
  owner: { api: string; container: string };
  /** Fires what is due or asked for now (the loop calls it every tick; Run now calls it at once). */
  runDue(): Promise<void>;
  stop(): Promise<void>;
}

export interface CreateContextOptions {
  config: AppConfig;
  database: Database;
  log: FastifyBaseLogger;
  platforms?: Platforms;
  /**
   * The bot's view of Discord over the started adapter, handed in by the composition root: the member-mirror
   * backed port (access's `memberMirrorDiscord`). Without it the adapter itself answers.
   */
  discord?: DiscordPort;
  jobs?: JobQueue;
}

/** Builds the context once per process (the composition root in main.ts, or a test app). */
export function createContext(opts: CreateContextOptions): AppContext {
  return {
    config: opts.config,
    database: opts.database,
    db: opts.database.db,
    log: opts.log,
    discordOAuth: new DiscordOAuth(opts.config.discord),
    discord: opts.discord ?? opts.platforms?.discord ?? unavailableDiscord,
    vrchat: opts.platforms?.vrchat ?? unavailableVrchat,
    jobs: opts.jobs ?? noJobQueue,
    platforms: opts.platforms,
  };
}
