import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { discordApp } from '../../demo.js';
import { requireBot } from '../auth.js';
import { invalidForm, missingAccess, missingPermissions } from '../errors.js';
import { removeMember, setMemberRoles, setNick } from '../guild-ops.js';
import { Intent } from '../intents.js';
import { firstAfter, sortedMemberIds } from '../member-index.js';
import { Permission } from '../permissions.js';
import { memberObject } from '../serialize.js';
import { compareSnowflakes } from '../snowflake.js';
import type { DiscordState } from '../state.js';
import type { SimGuild } from '../types.js';
import { parseBody, queryInt, querySnowflake } from '../validate.js';
import {
  botGuild,
  requireBotPermission,
  requireManageableRole,
  requireMember,
  requireRole,
} from './access.js';

type GuildParams = { Params: { guild_id: string }; Querystring: Record<string, string> };
type MemberParams = { Params: { guild_id: string; user_id: string } };
type MemberRoleParams = { Params: { guild_id: string; user_id: string; role_id: string } };

/** The bot can act on a member only if its highest role is above theirs (and they are not the owner). */
function requireAbove(state: DiscordState, guild: SimGuild, userId: string): void {
  if (guild.ownerId === userId) throw missingPermissions();
  if (userId === discordApp.botUserId) return;
  if (state.highestPosition(guild, discordApp.botUserId) <= state.highestPosition(guild, userId))
    throw missingPermissions();
}

const patchBody = z.object({
  nick: z.string().max(32).nullish(),
  roles: z.array(z.string()).max(350).nullish(),
});

export function registerMemberRoutes(api: FastifyInstance, state: DiscordState): void {
  api.get<GuildParams>('/guilds/:guild_id/members', async (req) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    // Listing members needs the privileged GUILD_MEMBERS intent switched on in the portal.
    if ((state.config.privilegedIntents & Intent.GuildMembers) === 0) throw missingAccess();
    const limit = queryInt(req.query.limit, 'limit', 1, 1000, 1);
    const after = querySnowflake(req.query.after, 'after') ?? '0';
    const ids = sortedMemberIds(guild);
    const from = firstAfter(ids, after);
    return ids.slice(from, from + limit).map((id) => memberObject(state, guild.members.get(id)!));
  });

  api.get<GuildParams>('/guilds/:guild_id/members/search', async (req) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    const query = req.query.query;
    if (query === undefined) throw invalidForm({ query: ['BASE_TYPE_REQUIRED', 'This field is required'] });
    if (query.length < 1 || query.length > 100)
      throw invalidForm({ query: ['BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.'] });
    const limit = queryInt(req.query.limit, 'limit', 1, 1000, 1);
    const q = query.toLowerCase();
    return [...guild.members.values()]
      .filter((m) => {
        const u = state.users.get(m.userId)!;
        return [u.username, u.globalName, m.nick].some((name) => name?.toLowerCase().startsWith(q));
      })
      .sort((a, b) => compareSnowflakes(a.userId, b.userId))
      .slice(0, limit)
      .map((m) => memberObject(state, m));
  });

  api.get<MemberParams>('/guilds/:guild_id/members/:user_id', async (req) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    return memberObject(state, requireMember(guild, req.params.user_id));
  });

  /** discord.js `member.edit()` / `member.roles.set()`: every added or removed role must be manageable. */
  api.patch<MemberParams>('/guilds/:guild_id/members/:user_id', async (req) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    const member = requireMember(guild, req.params.user_id);
    const body = parseBody(patchBody, req.body);
    if (body.roles != null) {
      requireBotPermission(state, guild, Permission.ManageRoles);
      const next = body.roles;
      for (const id of next) requireRole(guild, id);
      const changed = [
        ...next.filter((r) => !member.roles.includes(r)),
        ...member.roles.filter((r) => !next.includes(r)),
      ];
      for (const id of changed) requireManageableRole(state, guild, requireRole(guild, id));
    }
    if (body.nick !== undefined) {
      requireBotPermission(state, guild, Permission.ManageNicknames);
      requireAbove(state, guild, member.userId);
    }
    if (body.roles != null) setMemberRoles(state, guild, member, body.roles);
    if (body.nick !== undefined) setNick(state, guild, member, body.nick || null);
    return memberObject(state, member);
  });

  /** Kick. */
  api.delete<MemberParams>('/guilds/:guild_id/members/:user_id', async (req, reply) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    const member = requireMember(guild, req.params.user_id);
    requireBotPermission(state, guild, Permission.KickMembers);
    requireAbove(state, guild, member.userId);
    removeMember(state, guild, member.userId);
    return reply.code(204).send();
  });

  api.put<MemberRoleParams>('/guilds/:guild_id/members/:user_id/roles/:role_id', async (req, reply) => {
    const { guild, member, role } = roleChange(state, req);
    setMemberRoles(state, guild, member, [...member.roles, role.id]);
    return reply.code(204).send();
  });

  api.delete<MemberRoleParams>('/guilds/:guild_id/members/:user_id/roles/:role_id', async (req, reply) => {
    const { guild, member, role } = roleChange(state, req);
    setMemberRoles(
      state,
      guild,
      member,
      member.roles.filter((r) => r !== role.id),
    );
    return reply.code(204).send();
  });
}

/** PUT/DELETE of a member's role: the bot may change it (Manage Roles, the role below its own), else the error. */
function roleChange(state: DiscordState, req: FastifyRequest<MemberRoleParams>) {
  requireBot(state, req);
  const guild = botGuild(state, req.params.guild_id);
  const member = requireMember(guild, req.params.user_id);
  const role = requireRole(guild, req.params.role_id);
  requireBotPermission(state, guild, Permission.ManageRoles);
  requireManageableRole(state, guild, role);
  return { guild, member, role };
}
