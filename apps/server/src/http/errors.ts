import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DiscordError, DiscordPermissionError } from '../platforms/discord/errors.js';
import { VrchatError } from '../platforms/vrchat/errors.js';

/** A failure whose message is safe to show the user; mapped to its status by the error handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'You must be logged in to do this.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** A platform call failed: its own refusal (4xx) is a 502 with its reason, anything else a 503. */
function platformFailure(platform: 'Discord' | 'VRChat', err: DiscordError | VrchatError) {
  const refused = err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429;
  return refused
    ? { status: 502, message: `${platform} refused the request: ${err.message}` }
    : { status: 503, message: `${platform} is not reachable right now. Try again later.` };
}

/** The body of every error answer. */
export const errorBody = z.object({ message: z.string() });
z.globalRegistry.add(errorBody, { id: 'Error' });

function describeValidation(err: FastifyError): string {
  const first = err.validation?.[0] as
    | { instancePath?: string; message?: string; params?: { issue?: { path?: unknown[] } } }
    | undefined;
  const where = err.validationContext ?? 'request';
  const path =
    first?.params?.issue?.path?.join('.') ?? first?.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  return `Invalid ${where}${path ? ` (${path})` : ''}: ${first?.message ?? 'bad input'}`;
}

/** One place that turns errors into answers: 4xx with a message, 5xx without internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ message: err.message });
    // The bot may not manage a role: the message tells a server admin what to change.
    if (err instanceof DiscordPermissionError) return reply.code(403).send({ message: err.message });
    if (err instanceof VrchatError || err instanceof DiscordError) {
      const platform = err instanceof VrchatError ? 'VRChat' : 'Discord';
      req.log.warn({ err }, `${platform} call failed`);
      const answer = platformFailure(platform, err);
      return reply.code(answer.status).send({ message: answer.message });
    }
    if (hasZodFastifySchemaValidationErrors(err))
      return reply.code(400).send({ message: describeValidation(err) });
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return reply.code(500).send({ message: 'Internal server error.' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ message: err.message });
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
