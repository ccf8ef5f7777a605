import { z } from 'zod';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { sendAtlasPng } from './send-atlas-png.js';
import { atlasImageOf } from './world-atlas.reads.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SMALL_INT = /^\d{1,4}$/;

/**
 * What VRChat worlds load as poster images: public, outside /api, beside the world data
 * (`{PUBLIC_DATA_BASE}/atlas/{worldGuid}/{variation}/{atlasIndex}`). Both variations stay served, so a world
 * holding the previous data still finds its atlases until the next generation. Anything unknown is a short
 * text 404 (an image loader shows no JSON).
 */
export async function atlasDataRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/data/atlas/:worldId/:variation/:atlasIndex',
    {
      schema: {
        operationId: 'getPublicWorldAtlas',
        tags: ['world-atlas'],
        description:
          'One atlas image of a world (PNG, at most 2048×2048), for VRChat worlds. Public; cached 60 s, ETag, 304 when unchanged.',
        params: z.object({
          worldId: z.string().max(64),
          variation: z.string().max(8),
          atlasIndex: z.string().max(8),
        }),
        response: {
          200: z.any().describe('The atlas as image/png'),
          304: z.null().describe('Not modified (If-None-Match)'),
          404: z.string().describe('text/plain: Atlas not found.'),
        },
      },
    },
    async (req, reply) => {
      const { worldId, variation, atlasIndex } = req.params;
      const image =
        UUID.test(worldId) && (variation === '0' || variation === '1') && SMALL_INT.test(atlasIndex)
          ? await atlasImageOf(ctx.db, worldId, Number(variation), Number(atlasIndex))
          : undefined;
      if (!image) return reply.code(404).type('text/plain; charset=utf-8').send('Atlas not found.');
      return sendAtlasPng(req, reply, image, 'public, max-age=60');
    },
  );
}
