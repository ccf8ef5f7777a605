import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/client.js';
import { type JobQueue, noJobQueue } from '../jobs/queue.js';
import type { TaskScheduler } from '../jobs/scheduled-tasks/scheduler.js';
import { DiscordOAuth } from '../platforms/discord/oauth.js';
import type { DiscordPort, VrchatPort } from '../platforms/ports.js';
import type { Platforms } from '../platforms/start.js';
import { unavailableDiscord, unavailableVrchat } from '../platforms/unavailable.js';
import { mirrorBackedDiscord } from '../wings/access/members/member-mirror.port.js';
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
  scheduler?: TaskScheduler;
}

export interface CreateContextOptions {
  config: AppConfig;
  database: Database;
  log: FastifyBaseLogger;
  platforms?: Platforms;
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
    // Member reads come from the member mirror in the database (Discord sends no member list at connect).
    discord: opts.platforms
      ? mirrorBackedDiscord(opts.platforms.discord, {
          db: opts.database.db,
          log: opts.log,
          source: opts.platforms.bot.members,
          cdnUrl: opts.config.discord.cdnUrl,
        })
      : unavailableDiscord,
    vrchat: opts.platforms?.vrchat ?? unavailableVrchat,
    jobs: opts.jobs ?? noJobQueue,
    platforms: opts.platforms,
  };
}
