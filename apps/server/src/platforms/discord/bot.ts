import { once } from 'node:events';
import {
  Client,
  Events,
  GatewayCloseCodes,
  GatewayIntentBits,
  IntentsBitField,
  Options,
  REST,
  type RESTGetAPIGatewayBotResult,
  Routes,
  Status,
  WebSocketShard,
  WebSocketShardEvents,
} from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../kernel/config.js';
import type { DiscordMemberSource, DiscordPort } from '../ports.js';
import { channelMethods } from './channels.js';
import { guildMethods } from './guilds.js';
import { memberSource } from './member-source.js';
import { memberMethods } from './members.js';
import { countDiscordCalls } from './metrics.js';
import { budgetRest, shouldGiveUpOnRateLimit } from './rest-budget.js';

export interface DiscordBotOptions {
  config: AppConfig['discord'];
  log: FastifyBaseLogger;
  /** How long start() waits for the gateway's READY and guilds (default 30 s). */
  readyTimeoutMs?: number;
  /**
   * Test-only: matches a simulator started with `timeScale: N`, whose bucket windows are N times shorter:
   * the margin discord.js waits past each bucket reset (its `offset`, 50 ms) is N times shorter too, but
   * never under 5 ms (the reset times travel rounded to the millisecond). Default 1.
   */
  timeScale?: number;
}

/** Discord's answer to `GET /gateway/bot`, as the bot role uses it. */
export interface GatewayInfo {
  /** Discord's recommended number of shards (about one per 1,000 servers). */
  shards: number;
  sessionStartLimit: { total: number; remaining: number; resetAfterMs: number; maxConcurrency: number };
}

/** Which shards this process connects, and who paces their IDENTIFYs (discord.js's throttler by default). */
export interface GatewayStart {
  shards?: { ids: number[]; count: number };
  identifyThrottler?: (maxConcurrency: number) => {
    waitForIdentify(shardId: number, signal: AbortSignal): Promise<void>;
  };
}

/** Discord's identify window (5 s per bucket) and the margin the identify throttler adds. */
const IDENTIFY_SPACING_MS = 6_000;

/** What discord.js waits past a bucket's reset (its default `offset`), for clocks that may differ a little. */
const RESET_MARGIN_MS = 50;

export interface DiscordBot extends DiscordPort {
  /** The discord.js client, for slash-command and event handlers. */
  readonly client: Client;
  /** The bot's REST client (Bot token, shared rate limits). */
  readonly rest: REST;
  /** Members as Discord hands them out (op 8 chunks, REST pages), for the member mirror. */
  readonly members: DiscordMemberSource;
  /**
   * Reconnects with other intents when the Server Members intent was switched on or off in the portal
   * since the gateway connected; answers whether it did.
   */
  refreshIntents(): Promise<boolean>;
  /** `GET /gateway/bot`: Discord's recommended shard count and the session start limit. */
  gatewayInfo(): Promise<GatewayInfo>;
  /**
   * Connects to the gateway; resolves once READY and every guild has arrived. Asks Discord first whether
   * the Server Members intent is switched on, and identifies with it only then (else Discord closes 4014).
   * The shards and throttler given are kept for later reconnects (an intents change).
   */
  start(opts?: GatewayStart): Promise<void>;
  /**
   * Connects more shards beside the ones running (a shard whose holder died): the running shards keep their
   * sessions; resolves once each new shard is READY with its servers, rejects after the ready timeout.
   */
  addShards(ids: number[]): Promise<void>;
  /** Disconnects the gateway; REST keeps working and start() may connect again. */
  stop(): Promise<void>;
}

/**
 * discord.js expects one login per client: its gateway manager keeps the intents it was built with, its
 * ready state and a destroyed flag across destroy(). Reset them so a client that was connected before
 * can log in again (after the Server Members intent changed) with the intents now chosen.
 */
function resetGatewayManager(client: Client): void {
  const manager = client.ws as unknown as { _ws: unknown; destroyed: boolean; status: Status };
  manager._ws = null;
  manager.destroyed = false;
  manager.status = Status.Idle;
  // Shards of an earlier tenure (it may have held others): a leftover never turns ready, so neither would the client.
  client.ws.shards.clear();
}

/** The parts of discord.js's gateway manager and of @discordjs/ws's that addShardsToGateway reaches into. */
type GatewayInternals = {
  _ws: {
    options: { shardIds: number[] | null };
    shardIds: number[] | null;
    strategy: { spawn(ids: number[]): Promise<void>; shards: Map<number, { connect(): Promise<void> }> };
  } | null;
  totalShards: number;
  checkShardsReady(): void;
};

/**
 * Spawns and connects more shards in a running gateway, as discord.js's own connect() does for the first ones,
 * without touching the shards already connected (@discordjs/ws keeps a shard per id; discord.js counts them to
 * decide when the client is ready, which it already is).
 */
async function addShardsToGateway(client: Client, ids: number[]): Promise<void> {
  const manager = client.ws as unknown as GatewayInternals;
  const ws = manager._ws;
  if (!ws) throw new Error('The gateway is not connected');
  const all = [...new Set([...(client.options.shards as number[]), ...ids])].sort((a, b) => a - b);
  client.options.shards = all;
  ws.options.shardIds = all;
  ws.shardIds = all;
  manager.totalShards = all.length;
  for (const id of ids) {
    const shard = new (WebSocketShard as unknown as new (m: unknown, id: number) => WebSocketShard)(
      client.ws,
      id,
    );
    shard.on(WebSocketShardEvents.AllReady, (unavailable?: Set<string>) => {
      client.emit(Events.ShardReady, id, unavailable);
      manager.checkShardsReady();
    });
    shard.status = Status.Connecting;
    client.ws.shards.set(id, shard);
  }
  await ws.strategy.spawn(ids);
  await Promise.all(ids.map((id) => ws.strategy.shards.get(id)?.connect()));
}

/** The parts of @discordjs/ws's manager and shards that destroyGateway reaches into. */
type WsManagerInternals = {
  strategy?: { shards?: Map<number, { internalConnect: () => Promise<void> }> };
  removeAllListeners(): void;
};

/**
 * Destroys the client's gateway so that nothing of it connects again. @discordjs/ws has a gap: a shard
 * closed with a code it recovers from sits idle for 500 ms before connecting again, and a destroy() in that
 * window is ignored ("tried to destroy a shard that was idle"), so the shard reconnects afterwards on its
 * own. Beside the next login's shard it resumes the same session, the two connections keep closing each
 * other (4000 "resumed elsewhere"), and the one whose session info was cleared crashes discord.js's
 * RESUMED handler (reading `sequence` of null), an unhandled rejection that ends the process. The shards
 * are taken before destroy() forgets them, then kept from connecting and cut off from the client.
 */
async function destroyGateway(client: Client): Promise<void> {
  const ws = (client.ws as unknown as { _ws: WsManagerInternals | null })._ws;
  const shards = [...(ws?.strategy?.shards?.values() ?? [])];
  await client.destroy();
  for (const shard of shards) shard.internalConnect = async () => {};
  ws?.removeAllListeners();
}

/** Guild Moderation (not privileged) brings bans, the one departure seen without the Server Members intent. */
const intentsWith = (members: boolean) =>
  new IntentsBitField([
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildModeration,
    ...(members ? [GatewayIntentBits.GuildMembers] : []),
  ]);

/**
 * The bot's view of Discord: a discord.js client on the gateway (Guilds and GuildModeration, plus GuildMembers when the app
 * has it) and REST. Members are not kept in discord.js's cache (Discord sends no member list at connect;
 * the member mirror in the database holds them), only the bot's own membership. REST works before
 * start(), so the read helpers also serve while the gateway is down or reconnecting.
 */
export function createDiscordBot(opts: DiscordBotOptions): DiscordBot {
  const { config, log } = opts;
  const client = new Client({
    intents: intentsWith(true),
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      GuildMemberManager: { maxSize: 0, keepOverLimit: (m) => m.id === m.client.user.id },
      UserManager: { maxSize: 0, keepOverLimit: (u) => u.id === u.client.user.id },
    }),
    // Sharding: the bot role chooses the shards this process runs when it starts the gateway (start-bot.ts).
    // 429s: retried once, within the caller's deadline (rest-budget.ts).
    rest: {
      api: config.apiUrl,
      cdn: config.cdnUrl,
      rejectOnRateLimit: shouldGiveUpOnRateLimit,
      offset: Math.max(5, RESET_MARGIN_MS / (opts.timeScale ?? 1)),
    },
    // Replies and messages never ping anyone unless a handler asks for it explicitly.
    allowedMentions: { parse: [] },
  });
  client.rest.setToken(config.botToken);
  budgetRest(client.rest);
  const userRest = budgetRest(
    new REST({
      api: config.apiUrl,
      cdn: config.cdnUrl,
      authPrefix: 'Bearer',
      rejectOnRateLimit: shouldGiveUpOnRateLimit,
    }),
  );

  countDiscordCalls(client, userRest);
  client.on(Events.Error, (err) => log.error({ err }, 'Discord: client error'));
  client.on(Events.Warn, (message) => log.warn(`Discord: ${message}`));
  client.on(Events.ShardDisconnect, (event, shard) =>
    log.warn({ shard, code: event.code }, 'Discord: gateway disconnected'),
  );
  client.on(Events.ShardReconnecting, (shard) => log.info({ shard }, 'Discord: gateway reconnecting'));
  client.on(Events.ShardResume, (shard) => log.info({ shard }, 'Discord: gateway resumed'));

  const members = memberSource(client);
  /** Whether to identify with Guild Members: Discord's application flags say whether the portal allows it. */
  const chooseIntents = async () => {
    let allowed = client.options.intents.has(GatewayIntentBits.GuildMembers);
    try {
      allowed = await members.membersIntentAvailable();
    } catch (err) {
      log.warn({ err }, 'Discord: could not read the application flags; keeping the last intents');
    }
    client.options.intents = intentsWith(allowed);
    if (!allowed)
      log.warn(
        'Discord: the Server Members intent is off (Developer Portal → Bot → Privileged Gateway Intents); ' +
          'only linked members are kept',
      );
  };

  let started = false;
  let restarting: Promise<void> | undefined;
  let lastStart: GatewayStart = {};
  /** The shards being added (addShards), so that stop() ends their wait. */
  let adding: AbortController | undefined;
  const reconnect = () => {
    restarting ??= (async () => {
      try {
        await destroyGateway(client);
        client.rest.setToken(config.botToken);
        await bot.start();
      } catch (err) {
        log.error({ err }, 'Discord: reconnecting with other intents failed');
      } finally {
        restarting = undefined;
      }
    })();
    return restarting;
  };
  // Switched off in the portal while connected: Discord closes the session (4003, then 4014 on identify).
  client.on(Events.ShardDisconnect, (event) => {
    if (event.code !== GatewayCloseCodes.DisallowedIntents || !started) return;
    log.warn('Discord: the gateway refused our intents; checking them again and reconnecting');
    reconnect().catch(() => {}); // never rejects: logged inside
  });

  const bot: DiscordBot = {
    client,
    rest: client.rest,
    members,
    ...guildMethods(client, userRest),
    ...channelMethods(client),
    ...memberMethods(client),

    async refreshIntents() {
      if (!started || restarting) return false;
      const allowed = await members.membersIntentAvailable();
      if (allowed === client.options.intents.has(GatewayIntentBits.GuildMembers)) return false;
      log.info({ membersIntent: allowed }, 'Discord: the Server Members intent changed; reconnecting');
      await reconnect();
      return true;
    },

    async gatewayInfo() {
      const info = (await client.rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
      const limit = info.session_start_limit;
      return {
        shards: info.shards,
        sessionStartLimit: {
          total: limit.total,
          remaining: limit.remaining,
          resetAfterMs: limit.reset_after,
          maxConcurrency: limit.max_concurrency,
        },
      };
    },

    async start(startOpts) {
      if (startOpts) lastStart = startOpts;
      await chooseIntents();
      resetGatewayManager(client);
      const { shards, identifyThrottler } = lastStart;
      if (shards) Object.assign(client.options, { shards: shards.ids, shardCount: shards.count });
      if (identifyThrottler)
        client.options.ws = {
          ...client.options.ws,
          // biome-ignore lint/suspicious/noExplicitAny: @discordjs/ws's manager type is not exported by discord.js
          buildIdentifyThrottler: async (manager: any) =>
            identifyThrottler((await manager.fetchGatewayInformation()).session_start_limit.max_concurrency),
        };
      const abort = new AbortController();
      // Shards identify one after another (one per 5 s per identify bucket, whichever process): each more
      // shard of the bot may add that much before this process's are all ready.
      const identifySpacing = IDENTIFY_SPACING_MS * Math.max(0, (shards?.count ?? 1) - 1);
      const timer = setTimeout(
        () => abort.abort(new Error('Discord gateway did not become ready in time')),
        (opts.readyTimeoutMs ?? 30_000) + identifySpacing,
      );
      const ready = once(client, Events.ClientReady, { signal: abort.signal });
      try {
        await client.login(config.botToken);
        await ready;
        started = true;
        log.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'Discord: bot ready');
      } catch (err) {
        abort.abort(err);
        await ready.catch(() => {});
        await destroyGateway(client);
        // destroy() forgets the token; keep REST usable so reads still work without the gateway.
        client.rest.setToken(config.botToken);
        throw abort.signal.reason;
      } finally {
        clearTimeout(timer);
      }
    },

    async addShards(ids) {
      if (!started || restarting) throw new Error('The gateway is not connected');
      const count = lastStart.shards?.count ?? client.options.shardCount ?? 1;
      const all = [...new Set([...(lastStart.shards?.ids ?? []), ...ids])].sort((a, b) => a - b);
      // An intents change reconnects with every shard held.
      lastStart = { ...lastStart, shards: { ids: all, count } };
      const abort = new AbortController();
      adding = abort;
      const timer = setTimeout(
        () => abort.abort(new Error('The added gateway shards did not become ready in time')),
        (opts.readyTimeoutMs ?? 30_000) + IDENTIFY_SPACING_MS * count,
      );
      const waiting = new Set(ids);
      const ready = new Promise<void>((resolve, reject) => {
        const onReady = (id: number) => {
          waiting.delete(id);
          if (waiting.size) return;
          client.off(Events.ShardReady, onReady);
          resolve();
        };
        client.on(Events.ShardReady, onReady);
        abort.signal.addEventListener('abort', () => {
          client.off(Events.ShardReady, onReady);
          reject(abort.signal.reason);
        });
      });
      try {
        await Promise.all([addShardsToGateway(client, ids), ready]);
        log.info({ shards: ids, guilds: client.guilds.cache.size }, 'Discord: added gateway shards');
      } finally {
        clearTimeout(timer);
        abort.abort(new Error('done')); // lets go of the ShardReady listener
        if (adding === abort) adding = undefined;
      }
    },

    async stop() {
      started = false;
      // A shard being added waits no longer: the whole gateway goes.
      adding?.abort(new Error('The gateway was stopped'));
      await destroyGateway(client);
      // destroy() forgets the token: REST must keep working (reads, the next start's registration).
      client.rest.setToken(config.botToken);
    },
  };
  return bot;
}
