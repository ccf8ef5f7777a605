import {
  type APIGuild,
  type Client,
  DiscordAPIError,
  type REST,
  type RESTAPIPartialCurrentUserGuild,
  type RESTPostAPIChannelMessageResult,
  Routes,
} from 'discord.js';
import type { DiscordPort } from '../ports.js';
import { isNotFound } from './errors.js';
import { guildFromApi, guildFromCache, userGuildFromApi } from './mappers.js';
import { cachedGuild } from './members.js';
import { DiscordGrantError } from './oauth.js';

type GuildMethods = Pick<DiscordPort, 'botGuildIds' | 'getGuild' | 'sendMessage' | 'userGuilds'>;

/** Discord's page size for GET /users/@me/guilds. */
const GUILD_PAGE = 200;

/** Pages through /users/@me/guilds as the bot, or as the user behind a Bearer token. */
async function allMyGuilds(rest: REST, bearer?: string): Promise<RESTAPIPartialCurrentUserGuild[]> {
  const all: RESTAPIPartialCurrentUserGuild[] = [];
  let after = '0';
  for (;;) {
    const page = (await rest.get(Routes.userGuilds(), {
      query: new URLSearchParams({ limit: String(GUILD_PAGE), after }),
      ...(bearer ? { auth: false, headers: { Authorization: `Bearer ${bearer}` } } : {}),
    })) as RESTAPIPartialCurrentUserGuild[];
    all.push(...page);
    if (page.length < GUILD_PAGE) return all;
    after = page.reduce((max, g) => (BigInt(g.id) > BigInt(max) ? g.id : max), after);
  }
}

/**
 * @param userRest a REST client kept apart from the bot's, so users' Bearer calls never share (or
 *   exhaust) the bot's rate-limit buckets.
 */
export function guildMethods(client: Client, userRest: REST): GuildMethods {
  const rest = client.rest;
  return {
    async botGuildIds() {
      if (client.isReady()) return [...client.guilds.cache.keys()];
      return (await allMyGuilds(rest)).map((g) => g.id);
    },

    async getGuild(guildId) {
      const guild = cachedGuild(client, guildId);
      if (guild) return guildFromCache(guild);
      try {
        return guildFromApi(rest.cdn, (await rest.get(Routes.guild(guildId))) as APIGuild);
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async sendMessage(channelId, content) {
      const message = (await rest.post(Routes.channelMessages(channelId), {
        // Whatever the text says, nobody gets pinged.
        body: { content, allowed_mentions: { parse: [] } },
      })) as RESTPostAPIChannelMessageResult;
      return message.id;
    },

    async userGuilds(accessToken) {
      try {
        const guilds = await allMyGuilds(userRest, accessToken);
        return guilds.map((g) => userGuildFromApi(userRest.cdn, g));
      } catch (err) {
        // An expired or revoked token: the caller asks the user to sign in again (or refreshes).
        if (err instanceof DiscordAPIError && err.status === 401) throw new DiscordGrantError(err.message);
        throw err;
      }
    },
  };
}
