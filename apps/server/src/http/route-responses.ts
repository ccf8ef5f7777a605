import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Fastify's router refusals (before any route runs), answered like every other error: `{message}`. */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return reply.code(414).send({ message: 'A value in the address is too long.' });
  return reply.code(err.statusCode ?? 400).send({ message: 'The address is not valid.' });
}

/**
 * Adds to every route's response schema (so to the OpenAPI document) the answers any route of its kind
 * can give besides its own: 400 (an address that is not valid, input that fails the schema), 403 on
 * state-changing routes (the XSRF check), 414 with path parameters (one longer than Fastify's 100
 * characters), 415 where a body may come (a content type other than JSON), 429 under /api (the rate limits),
 * 503 under /api (the database refusing connections) and 507 on state-changing /api routes (a full disk). Must
 * be registered before the routes.
 */
export function registerRouteResponses(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    const api = route.url.startsWith('/api/');
    const existing = (route.schema.response ?? {}) as Record<string, unknown>;
    if (Object.keys(existing).length === 0) return;
    const methods = [route.method].flat();
    const extra: Record<number, unknown> = { 400: errorBody };
    // Any /api request answers 503 while the database refuses connections (errors.ts).
    if (api) Object.assign(extra, { 429: errorBody, 503: errorBody });
    const stateChanging = methods.some((m) => m !== 'GET' && m !== 'HEAD') || route.config?.stateChanging;
    if (api && stateChanging && !route.config?.xsrfExempt) extra[403] = errorBody;
    // A write that finds the disk full answers 507 (errors.ts).
    if (api && stateChanging) extra[507] = errorBody;
    if (route.url.includes(':')) extra[414] = errorBody;
    if (methods.some((m) => BODY_METHODS.has(m))) extra[415] = errorBody;
    route.schema = { ...route.schema, response: { ...extra, ...existing } };
  });
}
