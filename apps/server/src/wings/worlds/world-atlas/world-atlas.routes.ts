import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { sendAtlasPng } from './send-atlas-png.js';
import { atlasImageParams, atlasMetadata, generateParams, worldIdParams } from './world-atlas.schemas.js';
import { getAtlasImage, getAtlasMetadata, requestAtlasGeneration } from './world-atlas.service.js';

const route = routeSchemas({ tag: 'world-atlas' });

/** World Atlas dialog: generate a world's atlases, follow the run, view the images. */
export async function worldAtlasRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.post(
    '/world_images/atlas/:guildId/:worldId/generate',
    route({
      operationId: 'generateWorldAtlas',
      description:
        'Needs ManageImages. Queues a generation of the world’s atlases from its image slots (one at a time per world: 409 while one is queued or running); answers the atlas state.',
      params: generateParams,
      response: { 200: atlasMetadata },
    }),
    async (req) => requestAtlasGeneration(ctx, requireActor(req), req.params.guildId, req.params.worldId),
  );

  app.get(
    '/world_images/atlas/:worldId/metadata',
    route({
      operationId: 'getWorldAtlasMetadata',
      description:
        'Needs ViewImages in the world’s server. The current atlases (index, size, image address), the variation the world data points at, and the generation’s status, progress and error.',
      params: worldIdParams,
      response: { 200: atlasMetadata },
    }),
    async (req) => getAtlasMetadata(ctx, requireActor(req), req.params.worldId),
  );

  app.get(
    '/world_images/atlas/:worldId/:variation/:atlasIndex',
    route({
      operationId: 'getWorldAtlasImage',
      description:
        'Needs ViewImages in the world’s server. One atlas image (PNG) of either stored variation; ETag, 304 when unchanged.',
      params: atlasImageParams,
      response: {
        200: z.any().describe('The atlas as image/png'),
        304: z.null().describe('Not modified (If-None-Match)'),
      },
    }),
    async (req, reply) => {
      const { worldId, variation, atlasIndex } = req.params;
      const image = await getAtlasImage(ctx, requireActor(req), worldId, variation, atlasIndex);
      // Checked on every use: permissions may change, the image only when regenerated (new ETag).
      return sendAtlasPng(req, reply, image, 'private, no-cache');
    },
  );
}
