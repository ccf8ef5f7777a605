import { z } from 'zod';
import { requireUser } from '../../../http/auth.js';
import { errorBody, errorResponses } from '../../../http/errors.js';
import { originOf } from '../../../http/origin.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { worldMirrorStatusFor } from './mirror-admin.service.js';
import { readMirroredWorld } from './mirror-serve.js';
import { mirroredWorldParams, worldMirrorStatus } from './world-mirror.schemas.js';

export const NOT_MIRRORED =
  'This world is not in the mirror yet: it needs Github Updates Enabled, and the mirror updates every 10 minutes.';
/** Browsers and worlds may reuse a body this long (the mirror changes at most every 10 minutes). */
const MAX_AGE_SECONDS = 60;

/** The platform admin's view of the mirror (under /api). */
export async function worldMirrorAdminRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/admin/world-mirror',
    {
      schema: {
        operationId: 'getWorldMirrorStatus',
        tags: ['admin'],
        description:
          'Platform admins only. The GitHub Pages world mirror: its remote (credentials removed), its address, the last run and commit, and the last failure until a run succeeds.',
        response: { 200: worldMirrorStatus, ...errorResponses },
      },
    },
    async (req) => worldMirrorStatusFor(ctx, requireUser(req).user.id, originOf(ctx.config)),
  );
}

/**
 * Demo mode's GitHub Pages: the mirrored body of a world as pushed to the local bare repository (public,
 * outside /api, like /data). Outside demo mode GitHub Pages serves the mirror and this answers 404.
 */
export async function worldMirrorServeRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/mirror/worlds/:worldId',
    {
      schema: {
        operationId: 'getMirroredWorldData',
        tags: ['worlds'],
        description:
          "Demo mode only: a world's data as the mirror holds it (the 'Trusted URL'), the same body /data/v2 served when it was pushed. Public.",
        params: mirroredWorldParams,
        response: {
          200: z.string().describe('text/plain; charset=utf-8'),
          400: errorBody,
          404: z.string().describe('text/plain; charset=utf-8'),
        },
      },
    },
    async (req, reply) => {
      const body = await readMirroredWorld(ctx.config.worldMirror, req.params.worldId);
      reply.type('text/plain; charset=utf-8');
      if (body === null) return reply.code(404).send(NOT_MIRRORED);
      return reply.header('cache-control', `public, max-age=${MAX_AGE_SECONDS}`).send(body);
    },
  );
}
