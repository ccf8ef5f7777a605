import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isConnectionLost, isDatabaseUnavailable } from '../db/connection-lost.js';
import { DISK_FULL, isDiskFull } from '../kernel/disk.js';
import { AppError, type ErrorDetail, type ErrorKind } from '../kernel/errors.js';
import { DiscordError, DiscordPermissionError } from '../platforms/discord/errors.js';
import { VrchatError } from '../platforms/vrchat/errors.js';
import { describeValidation, type ValidationIssue } from './describeValidation.js';

/**
 * The one table from a failure's kind to its HTTP status. A detail refines it where HTTP has a closer
 * word (an expired request is 410, a file too large 413).
 */
const statusOfKind: Record<ErrorKind, number> = {
  invalid: 400,
  refused: 403,
  missing: 404,
  conflict: 409,
  limited: 429,
  unavailable: 503,
};
const statusOfDetail: Record<ErrorDetail, number> = {
  'not-signed-in': 401,
  expired: 410,
  'too-large': 413,
  'unsupported-type': 415,
  unreadable: 422,
};
export const statusOf = (err: AppError): number =>
  (err.detail && statusOfDetail[err.detail]) || statusOfKind[err.kind];

/** A platform call failed: its own refusal (4xx) is a 502 with its reason, anything else a 503. */
function platformFailure(platform: 'Discord' | 'VRChat', err: DiscordError | VrchatError) {
  const refused = err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429;
  return refused
    ? { status: 502, message: `${platform} refused the request: ${err.message}` }
    : { status: 503, message: `${platform} is not reachable right now. Try again later.` };
}

/** The answer while the database refuses connections, and when to try again (seconds). */
export const DATABASE_UNAVAILABLE = 'The database is not available right now. Try again in a few seconds.';
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The body of every error answer. */
export const errorBody = z.object({ message: z.string() });
z.globalRegistry.add(errorBody, { id: 'Error' });

/** Fastify's own refusals of a request, as sentences. */
const fastifyRefusals: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty, but its content type says JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not supported; send JSON.',
  FST_ERR_BAD_URL: 'The address is not valid.',
};

/** A 4xx message as a sentence: Fastify's known refusals reworded, any other given its full stop. */
function clientErrorSentence(err: FastifyError): string {
  const known = err.code ? fastifyRefusals[err.code] : undefined;
  if (known) return known;
  const text = err.message.trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** One place that turns errors into answers: 4xx with a message, 5xx without internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) return reply.code(statusOf(err)).send({ message: err.message });
    // The bot may not manage a role: the message tells a server admin what to change.
    if (err instanceof DiscordPermissionError) return reply.code(403).send({ message: err.message });
    // VRChat or Discord is rate limiting us: the message says so, Retry-After says when.
    if ((err instanceof VrchatError || err instanceof DiscordError) && err.retryAfterSeconds !== undefined) {
      req.log.warn({ err }, `${err instanceof VrchatError ? 'VRChat' : 'Discord'} call rate limited`);
      return reply
        .code(503)
        .header('retry-after', String(err.retryAfterSeconds))
        .send({ message: err.message });
    }
    if (err instanceof VrchatError || err instanceof DiscordError) {
      const platform = err instanceof VrchatError ? 'VRChat' : 'Discord';
      req.log.warn({ err }, `${platform} call failed`);
      const answer = platformFailure(platform, err);
      return reply.code(answer.status).send({ message: answer.message });
    }
    if (hasZodFastifySchemaValidationErrors(err))
      return reply
        .code(400)
        .send({ message: describeValidation(err.validation[0] as ValidationIssue, err.validationContext) });
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return reply.code(500).send({ message: 'Internal server error.' });
    }
    // A write found the disk full (the data disk, or PostgreSQL's: 53100): the server's fault, said so.
    if (isDiskFull(err)) {
      req.log.error({ err }, 'a write failed: the disk is full');
      return reply.code(507).send({ message: DISK_FULL });
    }
    // The database takes no connections (stopped, restarting, a failover): a sentence and when to retry.
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'the database refused the connection');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: DATABASE_UNAVAILABLE });
    }
    // PostgreSQL dropped the connection under this request (restart, failover): the next one gets a new one.
    if (isConnectionLost(err)) {
      req.log.warn({ err }, 'database connection lost during the request');
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ message: 'The database connection was interrupted. Try again.' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ message: clientErrorSentence(err) });
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ message: 'Internal server error.' });
  });
}

/** The error answers a route may give, for its response schema: `{ 200: thing, ...errorResponses }`. */
export const errorResponses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  429: errorBody,
  502: errorBody,
  503: errorBody,
};
