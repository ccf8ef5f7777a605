import { z } from 'zod';
import { errorBody } from '../../../http/errors.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { worldDataCacheOf } from './world-data.service.js';
import { etagMatches, WORLD_DATA_CACHE_CONTROL, WORLD_DATA_CONTENT_TYPE } from './world-data-fast-path.js';

/** Under /data an unknown address, or a world that is gone, is a short text: worlds read text, not the web app. */
export const DATA_NOT_FOUND = 'Not found.';
export const WORLD_GONE = 'World not found.';

/**
 * What VRChat worlds download (the 'Untrusted URL'): public, outside /api, as the SDK expects
 * (`{PUBLIC_DATA_BASE}/v2/{worldGuid}` with PUBLIC_DATA_BASE = `<origin>/data`). No redirects. Most
 * requests are answered by the fast path in front of Fastify (world-data-fast-path.ts) with the same
 * bytes and headers; this route answers the rest (first download, after a change, a conditional miss).
 */
export async function worldDataRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  const cache = worldDataCacheOf(ctx);
  await cache.start();
  app.addHook('onClose', () => cache.stop());

  app.get(
    '/data/v2/:worldId',
    {
      schema: {
        operationId: 'getWorldData',
        tags: ['worlds'],
        description:
          'The world data body: JSON, or LZW-compressed (14-bit codes) with each byte as one character. Public. ' +
          'Sends an ETag; If-None-Match with it answers 304. A world that is gone answers 404 with a short text.',
        params: z.object({ worldId: z.uuid() }),
        response: {
          200: z.string().describe(WORLD_DATA_CONTENT_TYPE),
          304: z.null().describe('Not Modified: If-None-Match names the current ETag.'),
          400: errorBody,
          404: z.string().describe(WORLD_DATA_CONTENT_TYPE),
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (req, reply) => {
      const body = await cache.serve(req.params.worldId);
      if (!body) return reply.code(404).type(WORLD_DATA_CONTENT_TYPE).send(WORLD_GONE);
      cache.requests.count(body.worldId);
      reply.header('cache-control', WORLD_DATA_CACHE_CONTROL).header('etag', body.etag);
      if (etagMatches(req.headers['if-none-match'], body.etag)) return reply.code(304).send(null);
      return reply.type(WORLD_DATA_CONTENT_TYPE).send(body.text);
    },
  );
}
