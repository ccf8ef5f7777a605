import {
  type APIGuildChannel,
  ChannelType,
  type Client,
  type GuildChannelType,
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

/** Text channels over REST (always fresh: the dialog must show a channel made a minute ago) and embeds. */
export function channelMethods(client: Client): ChannelMethods {
  const rest = client.rest;
  return {
    async listTextChannels(guildId) {
      const channels = (await rest.get(Routes.guildChannels(guildId))) as APIGuildChannel<GuildChannelType>[];
      return channels
        .filter((c) => TEXT_TYPES.has(c.type))
        .map(channelFromApi)
        .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
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
