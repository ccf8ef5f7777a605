import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { errorBody } from '../../../http/errors.js';
import { snowflake } from '../../../http/params.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { listApiLog } from './api-log.service.js';

const apiLogEntry = z.object({
  id: z.string(),
  time: z.string(),
  apiKeyId: z.string().nullable(),
  apiKeyName: z.string().nullable(),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  durationMs: z.number().int(),
});
z.globalRegistry.add(apiLogEntry, { id: 'ApiLogEntry' });

export async function apiLogRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId/api_log',
    {
      schema: {
        operationId: 'getApiLog',
        tags: ['api-keys'],
        description:
          "Admin only. The server's /api/v1 calls of the last 30 days, newest first, 50 a page: which key " +
          '(or user) called what, the status and how long it took.',
        params: z.object({ guildId: snowflake }),
        querystring: z.object({ cursor: z.string().max(200).optional() }),
        response: {
          200: z.object({ entries: z.array(apiLogEntry), nextCursor: z.string().nullable() }),
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          429: errorBody,
          503: errorBody,
        },
      },
    },
    async (req) => listApiLog(ctx, requireActor(req), req.params.guildId, req.query.cursor),
  );
}
