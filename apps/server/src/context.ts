import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { Database, Db } from './db/client.js';
import type { DiscordOAuth } from './platforms/discord/oauth.js';
import type { DiscordPort, VrchatPort } from './platforms/ports.js';

/** What route modules and services get: config, data and platform adapters. Built once per process. */
export interface AppContext {
  config: AppConfig;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  discordOAuth: DiscordOAuth;
  /** The bot's view of Discord (gateway cache + REST). */
  discord: DiscordPort;
  /** The product's VRChat account, paced and logged in once. */
  vrchat: VrchatPort;
}
