import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../kernel/config.js';

/** A request slower than this is logged even when per-request logging is off. */
export const SLOW_REQUEST_MS = 1000;

/** Fastify logs two lines per request (in and out) only at LOG_LEVEL debug or trace. */
export function logsEveryRequest(level: AppConfig['logLevel']): boolean {
  return level === 'debug' || level === 'trace';
}

/**
 * Without per-request logging (LOG_LEVEL info and above): one line for an answer that is a server error or
 * slow. Failed requests are logged with their error by the error handler too.
 */
export function registerRequestLogging(app: FastifyInstance, level: AppConfig['logLevel']): void {
  if (logsEveryRequest(level)) return;
  app.addHook('onResponse', (req, reply, done) => {
    const ms = reply.elapsedTime;
    if (reply.statusCode >= 500 || ms >= SLOW_REQUEST_MS) {
      req.log.warn(
        { method: req.method, url: req.url, statusCode: reply.statusCode, responseTime: Math.round(ms) },
        reply.statusCode >= 500 ? 'request answered with a server error' : 'slow request',
      );
    }
    done();
  });
}
