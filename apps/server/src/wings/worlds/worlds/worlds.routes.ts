import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { originOf } from '../../../http/origin.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { mirrorBaseUrl } from '../world-mirror/mirror-url.js';
import { previewWorldData, worldDataChanged } from './world-data.service.js';
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

const route = routeSchemas({ tag: 'worlds' });

export async function worldsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  const urls = (): WorldUrls => {
    const origin = originOf(ctx.config);
    return { origin, mirrorUrl: mirrorBaseUrl(ctx.config, origin) };
  };

  app.get(
    '/guilds/:guildId/worlds',
    route({
      operationId: 'listWorlds',
      description: 'Needs ViewWorlds. Also the roles a world may encode.',
      params: guildParams,
      response: { 200: worldsResponse },
    }),
    async (req) => listWorlds(ctx, requireActor(req), req.params.guildId, urls()),
  );

  app.put(
    '/guilds/:guildId/worlds',
    route({
      operationId: 'createWorld',
      description: "Needs ManageWorlds. Creates a locked world ('Create new'); answers the whole list.",
      params: guildParams,
      body: z
        .object({ name: z.string().trim().max(100).optional() })
        .strict()
        .optional(),
      response: { 200: worldsResponse },
    }),
    async (req) => createWorld(ctx, requireActor(req), req.params.guildId, req.body?.name, urls()),
  );

  app.get(
    '/guilds/:guildId/worlds/preview/:worldId',
    route({
      operationId: 'previewWorld',
      description:
        'Needs WorldPreview. The JSON document the world downloads, freshly built and uncompressed.',
      params: worldParams,
      response: { 200: z.record(z.string(), z.unknown()) },
    }),
    async (req) => previewWorldData(ctx, requireActor(req), req.params.guildId, req.params.worldId),
  );

  app.get(
    '/guilds/:guildId/worlds/:worldId',
    route({
      operationId: 'getWorld',
      description: 'Needs ViewWorlds.',
      params: worldParams,
      response: { 200: world },
    }),
    async (req) => getWorld(ctx, requireActor(req), req.params.guildId, req.params.worldId, urls()),
  );

  app.post(
    '/guilds/:guildId/worlds/:worldId',
    route({
      operationId: 'updateWorld',
      description:
        'Needs ManageWorlds. Any subset of the settings; Compression cannot be turned off once on.',
      params: worldParams,
      body: worldUpdate,
      response: { 200: world },
    }),
    async (req) => {
      const updated = await updateWorld(
        ctx,
        requireActor(req),
        req.params.guildId,
        req.params.worldId,
        req.body,
        urls(),
      );
      // This process serves the new settings from the next download on, not from when NOTIFY arrives.
      worldDataChanged(ctx, req.params.worldId);
      return updated;
    },
  );

  app.delete(
    '/guilds/:guildId/worlds/:worldId',
    route({
      operationId: 'deleteWorld',
      description: 'Needs ManageWorlds. A locked world cannot be deleted (409).',
      params: worldParams,
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await deleteWorld(ctx, requireActor(req), req.params.guildId, req.params.worldId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/guilds/:guildId/worlds/:worldId/roles',
    route({
      operationId: 'setWorldRoles',
      description: 'Needs ManageWorlds. Exactly one of the four role lists, in picker order.',
      params: worldParams,
      body: worldRolesUpdate,
      response: { 200: world },
    }),
    async (req) =>
      setWorldRoles(ctx, requireActor(req), req.params.guildId, req.params.worldId, req.body, urls()),
  );
}
