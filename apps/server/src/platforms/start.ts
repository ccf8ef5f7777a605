import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { createDiscordBot, type DiscordBot } from './discord/bot.js';
import { guardDiscord } from './discord/guard.js';
import type { DiscordPort } from './ports.js';
import {
  createVrchatPlatform,
  dbSessionStore,
  type VrchatPacerSettings,
  type VrchatPlatform,
} from './vrchat/index.js';

export interface StartPlatformsOptions {
  config: AppConfig;
  /** Holds the VRChat session between restarts (encrypted with the secret key). */
  database: Database;
  log: FastifyBaseLogger;
  /** How long start-up waits for the Discord gateway before going on without it (default 20 s). */
  gatewayTimeoutMs?: number;
  /** First wait before reconnecting a gateway that failed to start (default 30 s, doubling up to 10 min). */
  gatewayRetryMs?: number;
  vrchatPacer?: VrchatPacerSettings;
}

export interface Platforms {
  /** Product code's view of Discord: every failure is a DiscordError (answered 502/503, never 500). */
  discord: DiscordPort;
  vrchat: VrchatPlatform;
  /** The bot itself (gateway client), for event handlers. */
  bot: DiscordBot;
  close(): Promise<void>;
}

const MAX_GATEWAY_RETRY_MS = 10 * 60_000;

/**
 * Creates the Discord bot and the VRChat client from config and starts both. Never throws and never
 * waits longer than the gateway timeout: a platform that is unreachable is logged, its calls answer 503
 * (Discord reads fall back to REST), and the gateway keeps reconnecting in the background.
 */
export async function startPlatforms(opts: StartPlatformsOptions): Promise<Platforms> {
  const { config, log } = opts;
  const bot = createDiscordBot({
    config: config.discord,
    log,
    readyTimeoutMs: opts.gatewayTimeoutMs ?? 20_000,
  });
  const vrchat = createVrchatPlatform({
    config: config.vrchat,
    sessionStore: dbSessionStore(opts.database.db, config.secretKey),
    log,
    pacer: opts.vrchatPacer,
  });

  let closed = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  let retryMs = opts.gatewayRetryMs ?? 30_000;
  const connectGateway = async (): Promise<boolean> => {
    try {
      await bot.start();
      return true;
    } catch (err) {
      if (!closed)
        log.warn({ err }, `Discord: gateway not connected (retrying in ${Math.round(retryMs / 1000)} s)`);
      return false;
    }
  };
  const keepConnecting = async () => {
    while (!closed) {
      await sleep(retryMs);
      retryMs = Math.min(retryMs * 2, MAX_GATEWAY_RETRY_MS);
      if (closed || (await connectGateway())) return;
    }
  };

  const [gatewayUp, vrchatState] = await Promise.all([connectGateway(), vrchat.start()]);
  const retrying = gatewayUp ? Promise.resolve() : keepConnecting();
  if (vrchatState.status === 'ok') log.info('VRChat: logged in');
  else log.warn({ vrchat: vrchatState }, 'VRChat: not logged in; VRChat features answer 503 until it is');

  return {
    discord: guardDiscord(bot),
    vrchat,
    bot,
    async close() {
      if (closed) return;
      closed = true;
      wake?.();
      await retrying;
      await Promise.all([bot.stop(), vrchat.close()]);
    },
  };
}
