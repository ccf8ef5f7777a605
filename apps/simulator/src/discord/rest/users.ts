import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, requireBearer, requireBot, requireScope } from '../auth.js';
import { unauthorized, unknownGuild, unknownUser } from '../errors.js';
import { removeMember } from '../guild-ops.js';
import { memberObject, myGuildObject, userObject, userPiiObject } from '../serialize.js';
import { compareSnowflakes } from '../snowflake.js';
import type { DiscordState } from '../state.js';
import { queryBool, queryInt, querySnowflake } from '../validate.js';

type GuildParams = { Params: { guild_id: string } };

export function registerUserRoutes(api: FastifyInstance, state: DiscordState): void {
  const me = async (req: FastifyRequest) => {
    const caller = authenticate(state, req);
    requireScope(caller, 'identify');
    const withEmail = caller.kind === 'bearer' && caller.grant.scopes.includes('email');
    return userPiiObject(state.users.get(caller.userId)!, withEmail);
  };
  api.get('/users/@me', me);

  api.get<{ Querystring: Record<string, string> }>('/users/@me/guilds', async (req) => {
    const caller = authenticate(state, req);
    requireScope(caller, 'guilds');
    const limit = queryInt(req.query.limit, 'limit', 1, 200, 200);
    const before = querySnowflake(req.query.before, 'before');
    const after = querySnowflake(req.query.after, 'after');
    const withCounts = queryBool(req.query.with_counts);
    let guilds = state.guildsOf(caller.userId).sort((a, b) => compareSnowflakes(a.id, b.id));
    if (after) guilds = guilds.filter((g) => compareSnowflakes(g.id, after) > 0);
    if (before) guilds = guilds.filter((g) => compareSnowflakes(g.id, before) < 0);
    // With only `before`, Discord pages backwards: the last `limit` guilds before the cursor.
    guilds = before && !after ? guilds.slice(-limit) : guilds.slice(0, limit);
    return guilds.map((g) => myGuildObject(state, g, caller.userId, withCounts));
  });

  api.get<GuildParams>('/users/@me/guilds/:guild_id/member', async (req) => {
    const caller = requireBearer(state, req, 'guilds.members.read');
    const guild = state.guilds.get(req.params.guild_id);
    const member = guild?.members.get(caller.userId);
    // A guild the user is not in is indistinguishable from an unknown one.
    if (!guild || !member) throw unknownGuild();
    return {
      ...memberObject(state, member),
      permissions: state.permissionsOf(guild, caller.userId).toString(),
    };
  });

  /** discord.js `guild.leave()`; only bots may leave through the API. */
  api.delete<GuildParams>('/users/@me/guilds/:guild_id', async (req, reply) => {
    const caller = authenticate(state, req);
    if (caller.kind !== 'bot') throw unauthorized();
    const guild = state.guilds.get(req.params.guild_id);
    if (!guild?.members.has(caller.userId)) throw unknownGuild();
    removeMember(state, guild, caller.userId);
    return reply.code(204).send();
  });

  api.get<{ Params: { user_id: string } }>('/users/:user_id', async (req) => {
    // `/users/%40me` (percent-encoded) reaches this route; Discord treats it as @me.
    if (req.params.user_id === '@me') return me(req);
    requireBot(state, req);
    const user = state.users.get(req.params.user_id);
    if (!user) throw unknownUser();
    return userObject(user);
  });
}
