import {
  type APIGuildChannel,
  ChannelType,
  type Client,
  type Guild,
  type GuildChannelType,
  OverwriteType,
  type RESTPostAPIChannelMessageResult,
  Routes,
} from 'discord.js';
import type { DiscordChannelInfo, DiscordPort } from '../ports.js';

type ChannelMethods = Pick<DiscordPort, 'listTextChannels' | 'postEmbed'>;

/** Channels a bot can post text into: text and announcement channels (threads and voice are left out). */
const TEXT_TYPES = new Set<number>([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

function channelFromApi(c: APIGuildChannel<GuildChannelType>): DiscordChannelInfo {
  return {
    id: c.id,
    name: c.name ?? c.id,
    position: 'position' in c && typeof c.position === 'number' ? c.position : 0,
    parentId: c.parent_id ?? null,
    permissionOverwrites: (c.permission_overwrites ?? []).map((o) => ({
      id: o.id,
      type: o.type === 1 ? 'member' : 'role',
      allow: o.allow,
      deny: o.deny,
    })),
  };
}

const inDiscordOrder = (a: DiscordChannelInfo, b: DiscordChannelInfo) =>
  a.position - b.position || a.id.localeCompare(b.id);

/**
 * The server's text channels as the gateway cache holds them (discord.js applies CHANNEL_CREATE, _UPDATE and
 * _DELETE to it): what the server snapshot stores, so API processes list channels without Discord.
 */
export function textChannelsFromCache(guild: Guild): DiscordChannelInfo[] {
  return guild.channels.cache
    .filter((c) => TEXT_TYPES.has(c.type))
    .map((c) => ({
      id: c.id,
      name: c.name,
      position: 'rawPosition' in c ? c.rawPosition : 0,
      parentId: c.parentId ?? null,
      permissionOverwrites:
        'permissionOverwrites' in c
          ? c.permissionOverwrites.cache.map((o) => ({
              id: o.id,
              type: o.type === OverwriteType.Member ? ('member' as const) : ('role' as const),
              allow: o.allow.bitfield.toString(),
              deny: o.deny.bitfield.toString(),
            }))
          : [],
    }))
    .sort(inDiscordOrder);
}

/** Text channels over REST (always fresh: the dialog must show a channel made a minute ago) and embeds. */
export function channelMethods(client: Client): ChannelMethods {
  const rest = client.rest;
  return {
    async listTextChannels(guildId) {
      const channels = (await rest.get(Routes.guildChannels(guildId))) as APIGuildChannel<GuildChannelType>[];
      return channels
        .filter((c) => TEXT_TYPES.has(c.type))
        .map(channelFromApi)
        .sort(inDiscordOrder);
    },

    async postEmbed(channelId, embed, opts = {}) {
      const nonce = opts.nonce === undefined ? {} : { nonce: opts.nonce, enforce_nonce: true };
      const message = (await rest.post(Routes.channelMessages(channelId), {
        // A log line never pings anyone, whatever names it carries.
        body: { embeds: [embed], allowed_mentions: { parse: [] }, ...nonce },
      })) as RESTPostAPIChannelMessageResult;
      return message.id;
    },
  };
}
