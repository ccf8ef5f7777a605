import { z } from 'zod';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { readinessOf } from '../../../observability/readiness.js';

const readinessBody = z.object({
  status: z.enum(['ready', 'unavailable']),
  /** Each check: `ok` or a sentence saying what is not. */
  checks: z.record(z.string(), z.string()),
});

/** Liveness and readiness (docs/deploy.md, "Health checks"); processes without the api role serve them on HEALTH_PORT. */
export async function healthRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['meta'],
        description:
          'Liveness: the process answers. It does not look at the database or the platforms, so a probe restarting on failure restarts only a process that is stuck, never every process because the database is away.',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
      // Probes call it often: no session lookup, rate limit or VRChat deadline.
      config: { anonymous: true, platformCalls: false },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['meta'],
        description:
          "Readiness: the database answers, this release's migrations are applied, and the process's roles are up (the Discord gateway connected, or standing by while another process holds it; the job worker running). 503 with the failing checks otherwise.",
        response: { 200: readinessBody, 503: readinessBody },
      },
      config: { anonymous: true, platformCalls: false },
    },
    async (_req, reply) => {
      const { ready, checks } = await readinessOf(ctx);
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
    },
  );
}
