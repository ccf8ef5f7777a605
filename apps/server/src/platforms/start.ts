import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { wakeableSleep } from '../wakeable-sleep.js';
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
  /**
   * Whether start-up waits for the VRChat login (default true). The server process does not: a VRChat call
   * made meanwhile logs in through the same shared, single-flight login, so listening need not wait ≈ 2 s.
   */
  awaitVrchatLogin?: boolean;
}

export type GatewayState = 'off' | 'standby' | 'connecting' | 'ready' | 'disconnected';

export interface Platforms {
  /** Product code's view of Discord: every failure is a DiscordError (answered 502/503, never 500). */
  discord: DiscordPort;
  vrchat: VrchatPlatform;
  /** The bot itself (gateway client), for event handlers. */
  bot: DiscordBot;
  /**
   * Connects the gateway (only the `bot` role does, once it holds the gateway lock). Waits at most the
   * gateway timeout; after a failure it keeps reconnecting in the background.
   */
  startGateway(): Promise<void>;
  /** Marks that this process waits for another one's gateway lock (shown on /admin). */
  setGatewayStandby(): void;
  gatewayState(): GatewayState;
  close(): Promise<void>;
}

const MAX_GATEWAY_RETRY_MS = 10 * 60_000;

/**
 * Creates the Discord bot and the VRChat client from config and logs VRChat in; the gateway connects
 * only through `startGateway` (the `bot` role). Never throws: a platform that is unreachable is logged,
 * its calls answer 503, and a gateway that failed keeps reconnecting in the background.
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
    sessionStore: dbSessionStore(opts.database.db, config.secretKey, 'vrchat', {
      databaseUrl: opts.database.url,
    }),
    log,
    pacer: opts.vrchatPacer,
  });

  let closed = false;
  const { sleep, wake } = wakeableSleep();

  let retryMs = opts.gatewayRetryMs ?? 30_000;
  const connectGateway = async (): Promise<boolean> => {
    try {
      await bot.start();
      retryMs = opts.gatewayRetryMs ?? 30_000;
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
      if (closed) return;
      if (await connectGateway()) {
        gateway = 'ready';
        return;
      }
    }
  };

  const vrchatLogin = vrchat
    .start()
    .then((vrchatState) => {
      if (vrchatState.status === 'ok') log.info('VRChat: logged in');
      else log.warn({ vrchat: vrchatState }, 'VRChat: not logged in; VRChat features answer 503 until it is');
    })
    .catch((err: unknown) => log.warn({ err }, 'VRChat: login failed'));
  if (opts.awaitVrchatLogin ?? true) await vrchatLogin;

  let gateway: GatewayState = 'off';
  let retrying: Promise<void> = Promise.resolve();
  bot.client.on('shardReady', () => {
    gateway = 'ready';
  });
  bot.client.on('shardResume', () => {
    gateway = 'ready';
  });
  bot.client.on('shardDisconnect', () => {
    if (gateway !== 'off') gateway = 'disconnected';
  });
  bot.client.on('shardReconnecting', () => {
    if (gateway !== 'off') gateway = 'connecting';
  });

  return {
    discord: guardDiscord(bot),
    vrchat,
    bot,
    async startGateway() {
      if (closed || gateway === 'ready' || gateway === 'connecting') return;
      gateway = 'connecting';
      const up = await connectGateway();
      gateway = up ? 'ready' : 'disconnected';
      if (!up) retrying = keepConnecting();
    },
    setGatewayStandby() {
      if (gateway === 'off') gateway = 'standby';
    },
    gatewayState: () => gateway,
    async close() {
      if (closed) return;
      closed = true;
      gateway = 'off';
      wake();
      await retrying;
      await Promise.all([bot.stop(), vrchat.close()]);
    },
  };
}
