import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { errorBody } from '../../http/errors.js';
import type { ZodApp } from '../../http/types.js';
import { WORLD_DATA_FRESH_MS, worldDataBody } from './world-data.service.js';

/**
 * What VRChat worlds download (the 'Untrusted URL'): public, outside /api, as the SDK expects
 * (`{PUBLIC_DATA_BASE}/v2/{worldGuid}` with PUBLIC_DATA_BASE = `<origin>/data`). No redirects.
 */
export async function worldDataRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/data/v2/:worldId',
    {
      schema: {
        operationId: 'getWorldData',
        tags: ['worlds'],
        description:
          'The world data body: JSON, or LZW-compressed (14-bit codes) with each byte as one character. Public.',
        params: z.object({ worldId: z.uuid() }),
        response: {
          200: z.string().describe('text/plain; charset=utf-8'),
          400: errorBody,
          404: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (req, reply) => {
      const body = await worldDataBody(ctx, req.params.worldId);
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', `public, max-age=${WORLD_DATA_FRESH_MS / 1000}`)
        .send(body);
    },
  );
}
