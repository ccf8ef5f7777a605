import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../kernel/context.js';
import { metrics } from './metrics.js';
import { metricsAllowed } from './metrics-access.js';
import { METRICS_CONTENT_TYPE, processMetrics } from './process-metrics.js';

const replayedLabels = new Map<string, { method: string; route: string; status: string }>();

/**
 * Counts an answer given from memory before Fastify (http/constant-answers.ts) as Fastify's would be: the
 * same series. Not timed: it takes microseconds, and the duration histogram keeps Fastify's answers.
 */
export function countConstantAnswer(method: string, url: string): void {
  const key = `${method} ${url}`;
  let labels = replayedLabels.get(key);
  if (!labels) {
    labels = { method, route: url, status: '200' };
    replayedLabels.set(key, labels);
  }
  metrics.httpRequests.inc(labels);
}

/**
 * Counts every answer by route pattern (never the raw address: ids would make a series each) and times it;
 * serves /metrics on the public listener only with METRICS_TOKEN (docs/deploy.md, "Metrics").
 */
export function registerHttpMetrics(app: FastifyInstance, ctx: AppContext): void {
  // A callback hook: it runs on every answer, and an async hook costs a promise each.
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? '(unmatched)';
    metrics.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    done();
  });
  app.get(
    '/metrics',
    { schema: { hide: true }, config: { anonymous: true, platformCalls: false } },
    async (req, reply) => {
      if (!metricsAllowed(ctx.config.metricsToken, req.headers.authorization, 'public'))
        return reply.code(404).send({ message: `Route GET ${req.url.split('?')[0]} not found.` });
      return reply.type(METRICS_CONTENT_TYPE).send(await processMetrics(ctx).render());
    },
  );
}
