import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireBot } from '../auth.js';
import { missingAccess } from '../errors.js';
import { createRole, deleteRole, type RoleInput, updateRole } from '../guild-ops.js';
import { Permission } from '../permissions.js';
import { channelObject, guildObject, roleObject, sortedRoles } from '../serialize.js';
import type { DiscordState } from '../state.js';
import { parseBody, queryBool } from '../validate.js';
import { botGuild, requireBotPermission, requireManageableRole, requireRole } from './access.js';

type GuildParams = { Params: { guild_id: string } };
type RoleParams = { Params: { guild_id: string; role_id: string } };

const roleBody = z.object({
  name: z.string().max(100).nullish(),
  permissions: z.string().regex(/^\d+$/).or(z.number().int().nonnegative()).nullish(),
  color: z.number().int().min(0).max(0xffffff).nullish(),
  hoist: z.boolean().nullish(),
  mentionable: z.boolean().nullish(),
});

function toRoleInput(body: z.infer<typeof roleBody>): RoleInput {
  return {
    ...(body.name != null ? { name: body.name } : {}),
    ...(body.permissions != null ? { permissions: BigInt(body.permissions) } : {}),
    ...(body.color != null ? { color: body.color } : {}),
    ...(body.hoist != null ? { hoist: body.hoist } : {}),
    ...(body.mentionable != null ? { mentionable: body.mentionable } : {}),
  };
}

export function registerGuildRoutes(api: FastifyInstance, state: DiscordState): void {
  api.get<GuildParams & { Querystring: Record<string, string> }>('/guilds/:guild_id', async (req) => {
    requireBot(state, req);
    return guildObject(botGuild(state, req.params.guild_id), queryBool(req.query.with_counts));
  });

  api.get<GuildParams>('/guilds/:guild_id/roles', async (req) => {
    requireBot(state, req);
    return sortedRoles(botGuild(state, req.params.guild_id)).map(roleObject);
  });

  api.get<RoleParams>('/guilds/:guild_id/roles/:role_id', async (req) => {
    requireBot(state, req);
    return roleObject(requireRole(botGuild(state, req.params.guild_id), req.params.role_id));
  });

  api.post<GuildParams>('/guilds/:guild_id/roles', async (req) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    requireBotPermission(state, guild, Permission.ManageRoles);
    const input = toRoleInput(parseBody(roleBody, req.body));
    return roleObject(createRole(state, guild, input));
  });

  api.patch<RoleParams>('/guilds/:guild_id/roles/:role_id', async (req) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    requireBotPermission(state, guild, Permission.ManageRoles);
    const role = requireRole(guild, req.params.role_id);
    const input = toRoleInput(parseBody(roleBody, req.body));
    // The bot may edit its own managed role's permissions/colour but not roles at or above its highest.
    if (!(role.managed && role.botId === state.botUser.id)) requireManageableRole(state, guild, role);
    return roleObject(updateRole(state, guild, role, input));
  });

  api.delete<RoleParams>('/guilds/:guild_id/roles/:role_id', async (req, reply) => {
    requireBot(state, req);
    const guild = botGuild(state, req.params.guild_id);
    requireBotPermission(state, guild, Permission.ManageRoles);
    requireManageableRole(state, guild, requireRole(guild, req.params.role_id));
    deleteRole(state, guild, req.params.role_id);
    return reply.code(204).send();
  });

  api.get<GuildParams>('/guilds/:guild_id/channels', async (req) => {
    requireBot(state, req);
    return [...botGuild(state, req.params.guild_id).channels.values()].map(channelObject);
  });

  api.get<{ Params: { channel_id: string } }>('/channels/:channel_id', async (req) => {
    requireBot(state, req);
    const { guild, channel } = state.requireChannel(req.params.channel_id);
    if (!state.isBotIn(guild)) throw missingAccess();
    return channelObject(channel);
  });
}
