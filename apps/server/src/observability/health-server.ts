import { createServer, type Server } from 'node:http';
import type { AppContext } from '../kernel/context.js';
import { metricsAllowed } from './metrics-access.js';
import { METRICS_CONTENT_TYPE, processMetrics } from './process-metrics.js';
import { readinessOf } from './readiness.js';

/**
 * HEALTH_PORT: liveness (`/api/health`), readiness (`/api/health/ready`) and `/metrics` on a port of their own,
 * for processes without the api role (and for an api process that keeps /metrics off its public listener).
 * Plain node:http: it must answer while the rest of the process is busy, and needs nothing of the web stack.
 */
export async function startHealthServer(
  ctx: AppContext,
  port: number,
  host: string,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return json(405, { message: 'Only GET is answered here.' });
    if (path === '/api/health') return json(200, { status: 'ok' });
    if (path === '/api/health/ready') {
      readinessOf(ctx).then(
        ({ ready, checks }) => json(ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks }),
        () => json(503, { status: 'unavailable', checks: {} }),
      );
      return;
    }
    if (path === '/metrics' && metricsAllowed(ctx.config.metricsToken, req.headers.authorization, 'health')) {
      processMetrics(ctx)
        .render()
        .then(
          (text) => {
            res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
            res.end(text);
          },
          () => json(500, { message: 'The metrics could not be read.' }),
        );
      return;
    }
    json(404, { message: `Route ${req.method} ${path} not found.` });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
