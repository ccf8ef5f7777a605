import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { dbBudget } from '../db/budget.js';
import type { Database } from '../db/client.js';
import { guildGroups } from '../db/schema/index.js';
import { type AppConfig, vrchatAccountsOf } from '../kernel/config.js';
import { createDiscordBot, type DiscordBot, type GatewayStart } from './discord/bot.js';
import { guardDiscord } from './discord/guard.js';
import type { DiscordPort } from './ports.js';
import {
  createVrchatPlatform,
  createVrchatPool,
  dbSessionStore,
  type VrchatPacerSettings,
  type VrchatPool,
  vrchatSessionName,
} from './vrchat/index.js';

export interface StartPlatformsOptions {
  config: AppConfig;
  /** Holds the VRChat session between restarts (encrypted with the secret key). */
  database: Database;
  log: FastifyBaseLogger;
  /** How long start-up waits for the Discord gateway before going on without it (default 20 s). */
  gatewayTimeoutMs?: number;
  vrchatPacer?: VrchatPacerSettings;
  /** Test-only: the bot's Discord REST timing for a simulator started with `timeScale: N` (see bot.ts). */
  discordTimeScale?: number;
  /**
   * Whether start-up waits for the VRChat login (default true). The server process does not: a VRChat call
   * made meanwhile logs in through the same shared, single-flight login, so listening need not wait ≈ 2 s.
   */
  awaitVrchatLogin?: boolean;
}

/** The shared budget of a VRChat bot account (one per account: a pool of accounts has one each). */
export const vrchatBudgetKey = (username: string | undefined) => `vrchat:${username ?? ''}`;

export type GatewayState = 'off' | 'standby' | 'connecting' | 'ready' | 'disconnected';

export interface Platforms {
  /** Product code's view of Discord: every failure is a DiscordError (answered 502/503, never 500). */
  discord: DiscordPort;
  /** Every configured VRChat bot account, routed per group (vrchat/pool.ts). */
  vrchat: VrchatPool;
  /** The bot itself (gateway client), for event handlers. */
  bot: DiscordBot;
  /**
   * Connects the gateway (only the `bot` role does, once it holds the gateway lock): one attempt, waiting at
   * most the gateway timeout; answers whether it is connected. The bot role retries (and meanwhile lets
   * another process try).
   */
  startGateway(opts?: GatewayStart): Promise<boolean>;
  /** Disconnects the gateway (the lock was lost or given up); REST keeps working. */
  stopGateway(): Promise<void>;
  /** Marks that this process waits for another one's gateway lock (shown on /admin). */
  setGatewayStandby(): void;
  gatewayState(): GatewayState;
  close(): Promise<void>;
}

/**
 * Creates the Discord bot and the VRChat client from config and logs VRChat in; the gateway connects
 * only through `startGateway` (the `bot` role). Never throws: a platform that is unreachable is logged and
 * its calls answer 503.
 */
export async function startPlatforms(opts: StartPlatformsOptions): Promise<Platforms> {
  const { config, log } = opts;
  const bot = createDiscordBot({
    config: config.discord,
    log,
    readyTimeoutMs: opts.gatewayTimeoutMs ?? 20_000,
    timeScale: opts.discordTimeScale,
  });
  const vrchatAccounts = vrchatAccountsOf(config.vrchat);
  const vrchat = createVrchatPool({
    log,
    accounts: vrchatAccounts.map((account, i) => ({
      account: account.username,
      platform: createVrchatPlatform({
        config: { ...config.vrchat, ...account },
        // One stored session per account and egress address: VRChat may refuse a session used from another one.
        sessionStore: dbSessionStore(
          opts.database.db,
          config.secretKey,
          vrchatSessionName(account.localAddress, i === 0 ? undefined : account.username),
          { databaseUrl: opts.database.url, previousSecretKey: config.previousSecretKey },
        ),
        log: vrchatAccounts.length > 1 ? log.child({ vrchatAccount: account.username }) : log,
        pacer: { timeScale: config.vrchat.timeScale, ...opts.vrchatPacer },
        localAddress: account.localAddress,
        // One budget per bot account, whichever process and egress address its requests leave from.
        sharedBudget: (shape) => dbBudget(opts.database.db, vrchatBudgetKey(account.username), shape),
      }),
    })),
    // The account stored with the linked group (group-sync's link flow assigns it).
    groupAccount: async (groupId) => {
      const [row] = await opts.database.db
        .select({ account: guildGroups.vrchatAccount })
        .from(guildGroups)
        .where(eq(guildGroups.groupId, groupId))
        .limit(1);
      return row?.account ?? null;
    },
  });

  let closed = false;

  const vrchatLogin = vrchat
    .start()
    .then((vrchatState) => {
      if (vrchatState.status === 'ok') log.info('VRChat: logged in');
      else log.warn({ vrchat: vrchatState }, 'VRChat: not logged in; VRChat features answer 503 until it is');
    })
    .catch((err: unknown) => log.warn({ err }, 'VRChat: login failed'));
  if (opts.awaitVrchatLogin ?? true) await vrchatLogin;

  let gateway: GatewayState = 'off';
  let connecting: Promise<boolean> | undefined;
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
    startGateway(startOpts) {
      if (closed) return Promise.resolve(false);
      if (gateway === 'ready') return Promise.resolve(true);
      connecting ??= (async () => {
        gateway = 'connecting';
        try {
          await bot.start(startOpts);
          gateway = 'ready';
          return true;
        } catch (err) {
          if (!closed) log.warn({ err }, 'Discord: gateway not connected');
          gateway = closed ? 'off' : 'disconnected';
          return false;
        } finally {
          connecting = undefined;
        }
      })();
      return connecting;
    },
    async stopGateway() {
      await connecting;
      await bot.stop();
      if (!closed) gateway = 'disconnected';
    },
    setGatewayStandby() {
      if (!closed && gateway !== 'ready' && gateway !== 'connecting') gateway = 'standby';
    },
    gatewayState: () => gateway,
    async close() {
      if (closed) return;
      closed = true;
      gateway = 'off';
      await connecting;
      await Promise.all([bot.stop(), vrchat.close()]);
    },
  };
}
