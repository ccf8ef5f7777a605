import { z } from 'zod';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';

export async function healthRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['meta'],
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable') }),
        },
      },
      // Probes call it often: no session lookup, rate limit or VRChat deadline.
      config: { anonymous: true, platformCalls: false },
    },
    async (_req, reply) => {
      // Migrations ran before the server listened; this checks the database still answers.
      try {
        await ctx.database.executeSql('select 1');
        return { status: 'ok' as const };
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const });
      }
    },
  );
}
