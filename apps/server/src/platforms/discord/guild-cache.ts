import type { Client, Guild } from 'discord.js';
import type { DiscordChannelInfo, DiscordGuildInfo, DiscordMemberInfo } from '../ports.js';
import { textChannelsFromCache } from './channels.js';
import { guildFromCache, memberFromCache } from './mappers.js';
import { cachedGuild } from './members.js';

/** A server as this process's gateway holds it, with the bot's own membership and its text channels. */
export interface CachedGuildState extends DiscordGuildInfo {
  botMember: DiscordMemberInfo | null;
  /** Null in a snapshot written before channels were kept (until its holder writes it again). */
  channels: DiscordChannelInfo[] | null;
}

/** The server's state from the gateway cache (what the server snapshot stores). */
export function guildStateFromCache(guild: Guild): CachedGuildState {
  const me = guild.members.me;
  return {
    ...guildFromCache(guild),
    botMember: me ? memberFromCache(me) : null,
    channels: textChannelsFromCache(guild),
  };
}

/**
 * What this process's own gateway knows, without any REST call: `connected` is false in a process that
 * holds no gateway (an `api` process, a standby), where every answer is undefined.
 */
export interface GatewayGuilds {
  connected(): boolean;
  /** The server from the cache; undefined when not connected, not in it, or unavailable (an outage). */
  guild(guildId: string): CachedGuildState | undefined;
  /** The servers in the cache (the shards this process holds). */
  guildIds(): string[];
}

export function gatewayGuilds(client: Client): GatewayGuilds {
  return {
    connected: () => client.isReady(),
    guild(guildId) {
      const guild = cachedGuild(client, guildId);
      return guild?.available ? guildStateFromCache(guild) : undefined;
    },
    guildIds: () => (client.isReady() ? [...client.guilds.cache.keys()] : []),
  };
}
