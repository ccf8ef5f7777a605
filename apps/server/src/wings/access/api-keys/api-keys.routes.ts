import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { snowflake } from '../../../http/params.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { guildPermission } from '../permissions/permissions.routes.js';
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys.service.js';

const apiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  createdOn: z.string(),
  validUntil: z.string(),
  permissions: z.array(guildPermission),
  lastUsedAt: z.string().nullable(),
});
z.globalRegistry.add(apiKey, { id: 'ApiKey' });
const guildParams = z.object({ guildId: snowflake });

const route = routeSchemas({ tag: 'api-keys' });

export async function apiKeysRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId/api_keys',
    route({
      operationId: 'listApiKeys',
      description: "Admin only. The server's API keys (never their tokens).",
      params: guildParams,
      response: { 200: z.object({ apiKeys: z.array(apiKey) }) },
    }),
    async (req) => listApiKeys(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/:guildId/api_keys/create',
    route({
      operationId: 'createApiKey',
      description:
        'Admin only. The token is answered once; send it as `Authorization: <token>` (or Bearer). Keys act only in this server, with their permissions (never Admin).',
      params: guildParams,
      body: z
        .object({
          name: z.string().max(100),
          permissions: z.array(guildPermission).max(14),
          validUntil: z.iso.datetime({ offset: true }),
        })
        .strict(),
      response: { 200: apiKey.extend({ token: z.string() }) },
    }),
    async (req) =>
      createApiKey(ctx, requireActor(req), req.params.guildId, {
        ...req.body,
        validUntil: new Date(req.body.validUntil),
      }),
  );

  app.delete(
    '/guilds/:guildId/api_keys/:apiKeyId',
    route({
      operationId: 'deleteApiKey',
      description: 'Admin only. The key stops working at once.',
      params: z.object({ guildId: snowflake, apiKeyId: z.uuid() }),
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await deleteApiKey(ctx, requireActor(req), req.params.guildId, req.params.apiKeyId);
      return reply.code(204).send();
    },
  );
}
