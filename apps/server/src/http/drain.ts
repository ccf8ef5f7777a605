import type { FastifyInstance } from 'fastify';
import type { DrainState } from './fast-path-server.js';

/**
 * Graceful shutdown of the HTTP server. Fastify's `close()` stops taking connections, answers requests that
 * arrive on an open keep-alive connection 503 and closes the idle ones, but a request in flight leaves its
 * connection open after its answer, idle until the keep-alive timeout (72 s): the process then waited that
 * long to exit. So answers sent while closing say `Connection: close`, idle connections are closed as they
 * turn idle, and at the deadline every connection still open is cut.
 */
export function registerDrain(app: FastifyInstance, state: DrainState): void {
  app.addHook('preClose', async () => {
    state.closing = true;
  });
  // A callback hook, not an async one: it runs on every answer, and an async hook costs a promise each.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (state.closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** How often idle connections are closed while draining (answers outside Fastify, e.g. world data, too). */
const IDLE_SWEEP_MS = 100;

/** Closes the HTTP server; resolves once every connection is closed, at most `deadlineMs` from now. */
export async function drainHttp(app: FastifyInstance, deadlineMs: number): Promise<void> {
  const server = app.server;
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}
