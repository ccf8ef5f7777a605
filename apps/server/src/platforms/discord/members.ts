import {
  type APIGuildMember,
  type APIRole,
  type APIUser,
  type Client,
  type Guild,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  Routes,
} from 'discord.js';
import type { DiscordMemberInfo, DiscordPort } from '../ports.js';
import {
  BOT_NEEDS_MANAGE_ROLES,
  DiscordPermissionError,
  discordCode,
  isNotFound,
  roleAboveBotMessage,
} from './errors.js';
import { memberFromApi, memberFromCache } from './mappers.js';

type MemberMethods = Pick<
  DiscordPort,
  'getMember' | 'botMember' | 'searchMembers' | 'listMembers' | 'addRole' | 'removeRole'
>;

/** Discord's page size for GET /guilds/{id}/members. */
const MEMBER_PAGE = 1000;

/** The guild from the gateway cache, if the bot is connected and in it. */
export function cachedGuild(client: Client, guildId: string): Guild | undefined {
  return client.isReady() ? client.guilds.cache.get(guildId) : undefined;
}

/**
 * Member reads straight from Discord over REST. discord.js keeps no member list (Discord sends none at
 * connect); product code reads members through the member mirror (wings/access/members), which falls back
 * to these.
 */
export function memberMethods(client: Client): MemberMethods {
  const rest = client.rest;

  async function roleName(guildId: string, roleId: string): Promise<string> {
    const cached = cachedGuild(client, guildId)?.roles.cache.get(roleId)?.name;
    if (cached) return cached;
    const roles = (await rest.get(Routes.guildRoles(guildId)).catch(() => [])) as APIRole[];
    return roles.find((r) => r.id === roleId)?.name ?? roleId;
  }

  /** Turns Discord's bare 'Missing Permissions' into a message a server admin can act on. */
  async function explainDenied(guildId: string, roleId: string): Promise<DiscordPermissionError> {
    const me = cachedGuild(client, guildId)?.members.me;
    if (me && !me.permissions.has(PermissionFlagsBits.ManageRoles))
      return new DiscordPermissionError(BOT_NEEDS_MANAGE_ROLES);
    return new DiscordPermissionError(roleAboveBotMessage(await roleName(guildId, roleId)));
  }

  async function changeRole(
    method: 'put' | 'delete',
    guildId: string,
    userId: string,
    roleId: string,
    reason?: string,
  ) {
    try {
      await rest[method](Routes.guildMemberRole(guildId, userId, roleId), { reason });
    } catch (err) {
      if (discordCode(err) === RESTJSONErrorCodes.MissingPermissions)
        throw await explainDenied(guildId, roleId);
      throw err;
    }
  }

  async function getMember(guildId: string, userId: string): Promise<DiscordMemberInfo | null> {
    try {
      const member = (await rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember;
      return memberFromApi(rest.cdn, guildId, member);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  let botUserId: string | undefined;
  /** The bot's user id: from the gateway once ready, else asked once over REST. */
  async function ownId(): Promise<string> {
    botUserId ??= client.user?.id ?? ((await rest.get(Routes.user('@me'))) as APIUser).id;
    return botUserId;
  }

  return {
    getMember,

    async botMember(guildId) {
      const me = cachedGuild(client, guildId)?.members.me;
      if (me) return memberFromCache(me);
      return getMember(guildId, await ownId());
    },

    async searchMembers(guildId, query, limit) {
      const q = query.trim().slice(0, 100);
      if (!q) return [];
      const max = Math.min(Math.max(1, Math.floor(limit)), 1000);
      const found = (await rest.get(Routes.guildMembersSearch(guildId), {
        query: new URLSearchParams({ query: q, limit: String(max) }),
      })) as APIGuildMember[];
      return found.map((m) => memberFromApi(rest.cdn, guildId, m));
    },

    async listMembers(guildId) {
      const all: DiscordMemberInfo[] = [];
      let after = '0';
      for (;;) {
        const page = (await rest.get(Routes.guildMembers(guildId), {
          query: new URLSearchParams({ limit: String(MEMBER_PAGE), after }),
        })) as APIGuildMember[];
        all.push(...page.map((m) => memberFromApi(rest.cdn, guildId, m)));
        if (page.length < MEMBER_PAGE) return all;
        // `after` is the highest user id seen; do not rely on the page's order.
        after = page.reduce((max, m) => (BigInt(m.user.id) > BigInt(max) ? m.user.id : max), after);
      }
    },

    addRole: (guildId, userId, roleId, reason) => changeRole('put', guildId, userId, roleId, reason),
    removeRole: (guildId, userId, roleId, reason) => changeRole('delete', guildId, userId, roleId, reason),
  };
}
