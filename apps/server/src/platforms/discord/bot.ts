import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, REST } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { DiscordPort } from '../ports.js';
import { guildMethods } from './guilds.js';
import { memberMethods } from './members.js';

export interface DiscordBotOptions {
  config: AppConfig['discord'];
  log: FastifyBaseLogger;
  /** How long start() waits for the gateway's READY and guilds (default 30 s). */
  readyTimeoutMs?: number;
}

export interface DiscordBot extends DiscordPort {
  /** The discord.js client, for slash-command and event handlers. */
  readonly client: Client;
  /** The bot's REST client (Bot token, shared rate limits). */
  readonly rest: REST;
  /** Connects to the gateway; resolves once READY and every guild has arrived. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The bot's view of Discord: a discord.js client on the gateway (Guilds + GuildMembers), whose cache
 * answers reads when it is filled, and REST for everything else. REST works before start(), so the
 * read helpers also serve while the gateway is down or reconnecting.
 */
export function createDiscordBot(opts: DiscordBotOptions): DiscordBot {
  const { config, log } = opts;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
    rest: { api: config.apiUrl, cdn: config.cdnUrl },
    // Replies and messages never ping anyone unless a handler asks for it explicitly.
    allowedMentions: { parse: [] },
  });
  client.rest.setToken(config.botToken);
  const userRest = new REST({ api: config.apiUrl, cdn: config.cdnUrl, authPrefix: 'Bearer' });

  client.on(Events.Error, (err) => log.error({ err }, 'Discord: client error'));
  client.on(Events.Warn, (message) => log.warn(`Discord: ${message}`));
  client.on(Events.ShardDisconnect, (event, shard) =>
    log.warn({ shard, code: event.code }, 'Discord: gateway disconnected'),
  );
  client.on(Events.ShardReconnecting, (shard) => log.info({ shard }, 'Discord: gateway reconnecting'));
  client.on(Events.ShardResume, (shard) => log.info({ shard }, 'Discord: gateway resumed'));

  return {
    client,
    rest: client.rest,
    ...guildMethods(client, userRest),
    ...memberMethods(client),

    async start() {
      const abort = new AbortController();
      const timer = setTimeout(
        () => abort.abort(new Error('Discord gateway did not become ready in time')),
        opts.readyTimeoutMs ?? 30_000,
      );
      const ready = once(client, Events.ClientReady, { signal: abort.signal });
      try {
        await client.login(config.botToken);
        await ready;
        log.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'Discord: bot ready');
      } catch (err) {
        abort.abort(err);
        await ready.catch(() => {});
        await client.destroy();
        // destroy() forgets the token; keep REST usable so reads still work without the gateway.
        client.rest.setToken(config.botToken);
        throw abort.signal.reason;
      } finally {
        clearTimeout(timer);
      }
    },

    async stop() {
      await client.destroy();
    },
  };
}
