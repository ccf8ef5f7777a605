import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { errorBody } from '../../../http/errors.js';
import { snowflake } from '../../../http/params.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { notSignedIn } from '../../../kernel/errors.js';
import { createApiLogWriter, decorateApiLog, permittedFor } from './api-log.writer.js';
import { v1Member, v1MemberPage, v1MemberQuery, vrchatUserId } from './api-v1.schemas.js';
import { linkedMemberBy, listLinkedMembers } from './api-v1.service.js';

export const V1_UNAUTHORIZED = 'Send a valid API key of this server: Authorization: Bearer <key>.';

/** Every answer a v1 route can give besides 200 (502/503: VRChat or Discord could not be read). */
const v1Errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  429: errorBody,
  502: errorBody,
  503: errorBody,
};
const route = routeSchemas({ tag: 'api-v1', errors: v1Errors, security: [{ bearer: [] }] });
const guildParams = z.object({ guildId: snowflake.describe('The Discord server id.') });

/** An API key (the intended caller) or a signed-in user, with the same permission checks; else 401. */
function v1Actor(req: FastifyRequest): Actor {
  if (!req.auth && !req.apiKey) throw notSignedIn(V1_UNAUTHORIZED);
  return requireActor(req);
}

/**
 * The read-only API for integrations (issue #11 §5): /api/v1/guilds/{guildId}/…, authenticated by the
 * server's API keys. Every call is written to the server's API log after its answer.
 */
export async function apiV1Routes(app: ZodApp, ctx: AppContext): Promise<void> {
  const log = createApiLogWriter(ctx);
  decorateApiLog(app);
  app.addHook('onClose', async () => log.flush());
  await app.register(
    async (v1) => {
      v1.addHook('onResponse', async (req, reply) => log.record(req, reply));
      const api = v1.withTypeProvider<ZodTypeProvider>();

      api.get(
        '/guilds/:guildId/members',
        route({
          operationId: 'v1ListMembers',
          description:
            'Needs ViewGuild. Linked members of the server (current members with a VRChat link), in a stable ' +
            'order, one page at a time. Every filter given must match; a repeated filter matches any of its ' +
            'values. `groupRoleId` reads the linked VRChat group from VRChat (kept a minute).',
          params: guildParams,
          querystring: v1MemberQuery,
          response: { 200: v1MemberPage },
        }),
        async (req) =>
          listLinkedMembers(ctx, v1Actor(req), req.params.guildId, req.query, () =>
            permittedFor(req, req.params.guildId),
          ),
      );

      api.get(
        '/guilds/:guildId/members/discord/:discordId',
        route({
          operationId: 'v1GetMemberByDiscordId',
          description: 'Needs ViewGuild. One linked member by Discord user id; 404 when not a linked member.',
          params: guildParams.extend({ discordId: snowflake }),
          response: { 200: v1Member },
        }),
        async (req) =>
          linkedMemberBy(ctx, v1Actor(req), req.params.guildId, { discordId: req.params.discordId }, () =>
            permittedFor(req, req.params.guildId),
          ),
      );

      api.get(
        '/guilds/:guildId/members/vrchat/:vrcId',
        route({
          operationId: 'v1GetMemberByVrchatId',
          description: 'Needs ViewGuild. One linked member by VRChat user id; 404 when not a linked member.',
          params: guildParams.extend({ vrcId: vrchatUserId }),
          response: { 200: v1Member },
        }),
        async (req) =>
          linkedMemberBy(ctx, v1Actor(req), req.params.guildId, { vrcId: req.params.vrcId }, () =>
            permittedFor(req, req.params.guildId),
          ),
      );
    },
    { prefix: '/v1' },
  );
}
