import type { Db } from '../../../db/client.js';
import { unavailable } from '../../../kernel/errors.js';
import type { GatewayGuilds } from '../../../platforms/discord/guild-cache.js';
import type { DiscordGuildInfo, DiscordPort } from '../../../platforms/ports.js';
import {
  type GuildSnapshot,
  guildShardLoaded,
  readGuildSnapshot,
  snapshotGuildIds,
} from './guild-snapshot.store.js';

/** The answer of a server read on a process that has no snapshot of the server yet. */
export const GUILD_NOT_LOADED =
  "This server's Discord details are not loaded yet (the bot is still connecting to Discord). Try again in a minute.";

/** The server's details as the port answers them (without the bot's member and the channels). */
export const guildInfo = ({ botMember: _, channels: __, ...guild }: GuildSnapshot): DiscordGuildInfo => guild;

/**
 * The Discord port with server reads (getGuild, botMember, botGuildIds) answered without Discord: from this
 * process's own gateway cache when it holds the gateway for the server, else from the server snapshot in the
 * database (every shard's servers) (written by the gateway holder, guild-snapshot.events.ts). No REST call: a server without a
 * snapshot is one the bot is not in once its shard is loaded, and "not loaded yet" (503) before.
 */
export function snapshotBackedDiscord(
  port: DiscordPort,
  deps: { db: Db; gateway: GatewayGuilds },
): DiscordPort {
  const { db, gateway } = deps;

  /** The server as this process knows it without Discord; null when the bot is not in it. */
  async function known(guildId: string): Promise<GuildSnapshot | null> {
    const local = gateway.guild(guildId);
    if (local) return local;
    const stored = await readGuildSnapshot(db, guildId);
    if (stored) return stored;
    if (gateway.connected() || (await guildShardLoaded(db, guildId))) return null;
    throw unavailable(GUILD_NOT_LOADED);
  }

  return {
    ...port,

    async getGuild(guildId) {
      const guild = await known(guildId);
      return guild ? guildInfo(guild) : null;
    },

    async botMember(guildId) {
      const guild = await known(guildId);
      if (!guild) return null;
      if (!guild.botMember) throw unavailable(GUILD_NOT_LOADED);
      return guild.botMember;
    },

    // From the snapshot too: the channel list (the logging dialog, the setup check) is as fresh as the gateway's
    // CHANNEL_* events, with no REST call on an API process.
    async listTextChannels(guildId) {
      const guild = await known(guildId);
      if (!guild) return [];
      if (!guild.channels) throw unavailable(GUILD_NOT_LOADED);
      return guild.channels;
    },

    /**
     * Every server of the bot, across all shards: the snapshots every gateway holder writes, plus the servers
     * this process's own shards have that are not written yet. Never this process's shards alone: scheduled
     * work over all servers (sync, guests, the member reconciliation) runs in whichever process took the job.
     */
    async botGuildIds() {
      const stored = await snapshotGuildIds(db);
      const local = gateway.connected() ? gateway.guildIds() : [];
      // Nothing loaded anywhere yet (no process has connected): Discord's own list.
      if (!stored.length && !local.length) return port.botGuildIds();
      return [...new Set([...stored, ...local])];
    },
  };
}
