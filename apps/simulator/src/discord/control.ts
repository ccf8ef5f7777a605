import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { registerActivityControl } from './control-activity.js';
import {
  type DiscordLimits,
  registerApplicationControl,
  setPrivilegedIntents,
} from './control-application.js';
import { registerBulkControl } from './control-bulk.js';
import { registerChannelControl } from './control-channels.js';
import { parse, snowflake } from './control-parse.js';
import { ControlError, DiscordApiError } from './errors.js';
import type { Gateway } from './gateway.js';
import {
  addMember,
  banMember,
  createRole,
  deleteRole,
  type RoleInput,
  removeMember,
  setMemberRoles,
  setNick,
  updateRole,
} from './guild-ops.js';
import { intentSwitches } from './intents.js';
import { commandObject, roleObject, sortedRoles } from './serialize.js';
import { newSnowflake } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimGuild } from './types.js';

/**
 * The simulator's own control API under /control/discord (see CONTROL.md). Changes here act "as a
 * human in the Discord client would": no role hierarchy checks, but the same gateway events.
 */

const addMemberBody = z.object({
  userId: snowflake.optional(),
  username: z.string().min(2).max(32).optional(),
  globalName: z.string().max(32).nullish(),
  nick: z.string().max(32).nullish(),
  roles: z.array(snowflake).optional(),
});

const roleBody = z.object({
  name: z.string().min(1).max(100).optional(),
  position: z.number().int().min(1).optional(),
  color: z.number().int().min(0).max(0xffffff).optional(),
  permissions: z.string().regex(/^\d+$/).optional(),
  hoist: z.boolean().optional(),
  mentionable: z.boolean().optional(),
});

const configBody = z.object({
  oauthCodeTtlMs: z.number().int().min(0).optional(),
  interactionAckWindowMs: z.number().int().min(0).optional(),
  interactionTokenTtlMs: z.number().int().min(0).optional(),
  redirectUris: z.array(z.string().url()).nullable().optional(),
  privilegedIntents: z.number().int().min(0).optional(),
  requestMembersIntervalMs: z.number().int().min(0).optional(),
  globalRateLimitPerSecond: z.number().int().min(1).optional(),
  invalidRequestLimit: z.number().int().min(1).optional(),
  invalidRequestWindowMs: z.number().int().min(1).optional(),
  invalidRequestBanMs: z.number().int().min(0).optional(),
  maxGuildsPerShard: z.number().int().min(1).optional(),
  recommendedGuildsPerShard: z.number().int().min(1).optional(),
  maxConcurrency: z.number().int().min(1).max(64).optional(),
  identifyWindowMs: z.number().int().min(0).optional(),
  sessionStartLimitTotal: z.number().int().min(0).optional(),
  gatewaySendLimit: z.number().int().min(1).optional(),
  gatewaySendWindowMs: z.number().int().min(1).optional(),
});

/** A new human user (no avatar); returns its id. */
function createUser(state: DiscordState, username: string, globalName: string | null): string {
  const id = newSnowflake();
  state.users.set(id, {
    id,
    username,
    globalName,
    avatar: null,
    bot: false,
    email: `${username}@users.discord.test`,
    locale: 'en-US',
    mfaEnabled: false,
  });
  return id;
}

function guildOf(state: DiscordState, id: string): SimGuild {
  const guild = state.guilds.get(id);
  if (!guild) throw new ControlError(404, `Unknown guild ${id}.`);
  return guild;
}

const toRoleInput = ({ permissions, ...rest }: z.infer<typeof roleBody>): RoleInput => ({
  ...rest,
  ...(permissions !== undefined ? { permissions: BigInt(permissions) } : {}),
});

function guildSummary(state: DiscordState, g: SimGuild) {
  return {
    id: g.id,
    name: g.name,
    ownerId: g.ownerId,
    botMember: state.isBotIn(g),
    roles: sortedRoles(g)
      .reverse()
      .map((r) => ({ ...roleObject(r), permissions: r.permissions.toString() })),
    channels: [...g.channels.values()].map((c) => ({ id: c.id, name: c.name })),
    members: [...g.members.values()].map((m) => ({
      userId: m.userId,
      username: state.users.get(m.userId)?.username,
      nick: m.nick,
      roles: m.roles,
      roleNames: m.roles.map((id) => g.roles.get(id)?.name),
    })),
  };
}

export function registerDiscordControl(
  api: FastifyInstance,
  state: DiscordState,
  gateway: Gateway,
  limits: DiscordLimits,
): void {
  api.setErrorHandler((err: FastifyError, _req, reply: FastifyReply) => {
    if (err instanceof ControlError) return reply.code(err.status).send({ message: err.message });
    if (err instanceof DiscordApiError)
      return reply.code(err.status).send({ message: err.message, code: err.code });
    return reply.code(err.statusCode ?? 500).send({ message: err.message });
  });

  api.get('/state', async () => ({
    config: state.config,
    application: intentSwitches(state.config.privilegedIntents),
    rateLimits: limits.invalid.view(),
    users: [...state.users.values()].map((u) => ({
      id: u.id,
      username: u.username,
      globalName: u.globalName,
      bot: u.bot,
    })),
    guilds: [...state.guilds.values()].map((g) => guildSummary(state, g)),
    commands: [...state.commands.values()].map(commandObject),
    roleConnectionMetadata: state.roleConnectionMetadata,
    roleConnections: Object.fromEntries(state.roleConnections),
    oauthGrants: state.oauth.grants().map((g) => ({
      userId: g.userId,
      scopes: g.scopes,
      expiresAt: new Date(g.accessExpiresAt).toISOString(),
    })),
    gateway: {
      sessions: gateway
        .connected()
        .map((s) => ({ id: s.id, intents: s.intents, seq: s.seq, shard: s.shard })),
    },
  }));

  api.post('/reset', async (_req, reply) => {
    state.reset();
    gateway.resetSessions();
    limits.invalid.reset();
    limits.global.reset();
    limits.routes.reset();
    limits.counters.reset();
    return reply.code(204).send();
  });

  api.patch('/config', async (req) => {
    const { privilegedIntents, ...rest } = parse(configBody, req.body);
    Object.assign(state.config, rest);
    if (privilegedIntents !== undefined) setPrivilegedIntents(state, gateway, privilegedIntents);
    return state.config;
  });

  api.get('/routes', async () => state.apiRoutes);

  api.post('/users', async (req, reply) => {
    const body = parse(
      z.object({ username: z.string().min(2).max(32), globalName: z.string().max(32).nullish() }),
      req.body,
    );
    const id = createUser(state, body.username, body.globalName ?? null);
    return reply.code(201).send({ id, username: body.username, globalName: body.globalName ?? null });
  });

  type G = { Params: { guildId: string } };
  type GM = { Params: { guildId: string; userId: string } };
  type GMR = { Params: { guildId: string; userId: string; roleId: string } };
  type GR = { Params: { guildId: string; roleId: string } };

  api.get<G>('/guilds/:guildId', async (req) => guildSummary(state, guildOf(state, req.params.guildId)));

  /** Adds a member (creating the user first when only `username` is given); emits GUILD_MEMBER_ADD. */
  api.post<G>('/guilds/:guildId/members', async (req, reply) => {
    const guild = guildOf(state, req.params.guildId);
    const body = parse(addMemberBody, req.body);
    let userId = body.userId;
    if (!userId) {
      if (!body.username) throw new ControlError(400, 'Give userId or username.');
      userId = createUser(state, body.username, body.globalName ?? null);
    }
    if (!state.users.has(userId)) throw new ControlError(404, `Unknown user ${userId}.`);
    if (guild.members.has(userId)) throw new ControlError(409, 'Already a member.');
    const member = addMember(state, guild, userId, { roles: body.roles, nick: body.nick ?? null });
    return reply.code(201).send({ guildId: guild.id, userId, nick: member.nick, roles: member.roles });
  });

  api.patch<GM>('/guilds/:guildId/members/:userId', async (req) => {
    const guild = guildOf(state, req.params.guildId);
    const member = guild.members.get(req.params.userId);
    if (!member) throw new ControlError(404, 'Not a member.');
    const body = parse(
      z.object({ nick: z.string().max(32).nullish(), roles: z.array(snowflake).optional() }),
      req.body,
    );
    if (body.roles) {
      for (const r of body.roles) if (!guild.roles.has(r)) throw new ControlError(404, `Unknown role ${r}.`);
      setMemberRoles(state, guild, member, body.roles);
    }
    if (body.nick !== undefined) setNick(state, guild, member, body.nick);
    return { guildId: guild.id, userId: member.userId, nick: member.nick, roles: member.roles };
  });

  api.delete<GM>('/guilds/:guildId/members/:userId', async (req, reply) => {
    removeMember(state, guildOf(state, req.params.guildId), req.params.userId);
    return reply.code(204).send();
  });

  api.post<GM>('/guilds/:guildId/members/:userId/ban', async (req, reply) => {
    banMember(state, guildOf(state, req.params.guildId), req.params.userId);
    return reply.code(204).send();
  });

  for (const method of ['PUT', 'DELETE'] as const) {
    api.route<GMR>({
      method,
      url: '/guilds/:guildId/members/:userId/roles/:roleId',
      handler: async (req, reply) => {
        const guild = guildOf(state, req.params.guildId);
        const member = guild.members.get(req.params.userId);
        if (!member) throw new ControlError(404, 'Not a member.');
        if (!guild.roles.has(req.params.roleId)) throw new ControlError(404, 'Unknown role.');
        const roles =
          method === 'PUT'
            ? [...member.roles, req.params.roleId]
            : member.roles.filter((r) => r !== req.params.roleId);
        setMemberRoles(state, guild, member, roles);
        return reply.code(204).send();
      },
    });
  }

  api.post<G>('/guilds/:guildId/roles', async (req, reply) => {
    const guild = guildOf(state, req.params.guildId);
    const body = parse(roleBody.extend({ name: z.string().min(1).max(100) }), req.body);
    return reply.code(201).send(roleObject(createRole(state, guild, toRoleInput(body))));
  });

  api.patch<GR>('/guilds/:guildId/roles/:roleId', async (req) => {
    const guild = guildOf(state, req.params.guildId);
    const role = guild.roles.get(req.params.roleId);
    if (!role) throw new ControlError(404, 'Unknown role.');
    return roleObject(updateRole(state, guild, role, toRoleInput(parse(roleBody, req.body))));
  });

  api.delete<GR>('/guilds/:guildId/roles/:roleId', async (req, reply) => {
    deleteRole(state, guildOf(state, req.params.guildId), req.params.roleId);
    return reply.code(204).send();
  });

  registerActivityControl(api, state, gateway);
  registerApplicationControl(api, state, gateway, limits);
  registerBulkControl(api, state);
  registerChannelControl(api, state);
}
