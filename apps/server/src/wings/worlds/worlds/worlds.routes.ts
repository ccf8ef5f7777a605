import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { errorResponses } from '../../../http/errors.js';
import { originOf } from '../../../http/origin.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { mirrorBaseUrl } from '../world-mirror/mirror-url.js';
import { previewWorldData } from './world-data.service.js';
import {
  guildParams,
  world,
  worldParams,
  worldRolesUpdate,
  worldsResponse,
  worldUpdate,
} from './worlds.schemas.js';
import {
  createWorld,
  deleteWorld,
  getWorld,
  listWorlds,
  setWorldRoles,
  updateWorld,
  type WorldUrls,
} from './worlds.service.js';

export async function worldsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  const urls = (): WorldUrls => {
    const origin = originOf(ctx.config);
    return { origin, mirrorUrl: mirrorBaseUrl(ctx.config, origin) };
  };

  app.get(
    '/guilds/:guildId/worlds',
    {
      schema: {
        operationId: 'listWorlds',
        tags: ['worlds'],
        description: 'Needs ViewWorlds. Also the roles a world may encode.',
        params: guildParams,
        response: { 200: worldsResponse, ...errorResponses },
      },
    },
    async (req) => listWorlds(ctx, requireActor(req), req.params.guildId, urls()),
  );

  app.put(
    '/guilds/:guildId/worlds',
    {
      schema: {
        operationId: 'createWorld',
        tags: ['worlds'],
        description: "Needs ManageWorlds. Creates a locked world ('Create new'); answers the whole list.",
        params: guildParams,
        body: z
          .object({ name: z.string().trim().max(100).optional() })
          .strict()
          .optional(),
        response: { 200: worldsResponse, ...errorResponses },
      },
    },
    async (req) => createWorld(ctx, requireActor(req), req.params.guildId, req.body?.name, urls()),
  );

  app.get(
    '/guilds/:guildId/worlds/preview/:worldId',
    {
      schema: {
        operationId: 'previewWorld',
        tags: ['worlds'],
        description:
          'Needs WorldPreview. The JSON document the world downloads, freshly built and uncompressed.',
        params: worldParams,
        response: { 200: z.record(z.string(), z.unknown()), ...errorResponses },
      },
    },
    async (req) => previewWorldData(ctx, requireActor(req), req.params.guildId, req.params.worldId),
  );

  app.get(
    '/guilds/:guildId/worlds/:worldId',
    {
      schema: {
        operationId: 'getWorld',
        tags: ['worlds'],
        description: 'Needs ViewWorlds.',
        params: worldParams,
        response: { 200: world, ...errorResponses },
      },
    },
    async (req) => getWorld(ctx, requireActor(req), req.params.guildId, req.params.worldId, urls()),
  );

  app.post(
    '/guilds/:guildId/worlds/:worldId',
    {
      schema: {
        operationId: 'updateWorld',
        tags: ['worlds'],
        description:
          'Needs ManageWorlds. Any subset of the settings; Compression cannot be turned off once on.',
        params: worldParams,
        body: worldUpdate,
        response: { 200: world, ...errorResponses },
      },
    },
    async (req) =>
      updateWorld(ctx, requireActor(req), req.params.guildId, req.params.worldId, req.body, urls()),
  );

  app.delete(
    '/guilds/:guildId/worlds/:worldId',
    {
      schema: {
        operationId: 'deleteWorld',
        tags: ['worlds'],
        description: 'Needs ManageWorlds. A locked world cannot be deleted (409).',
        params: worldParams,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await deleteWorld(ctx, requireActor(req), req.params.guildId, req.params.worldId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/guilds/:guildId/worlds/:worldId/roles',
    {
      schema: {
        operationId: 'setWorldRoles',
        tags: ['worlds'],
        description: 'Needs ManageWorlds. Exactly one of the four role lists, in picker order.',
        params: worldParams,
        body: worldRolesUpdate,
        response: { 200: world, ...errorResponses },
      },
    },
    async (req) =>
      setWorldRoles(ctx, requireActor(req), req.params.guildId, req.params.worldId, req.body, urls()),
  );
}
