import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Thrown by handlers and hooks; the /api/1 error handler turns it into VRChat's envelope. */
export class VrcApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const vrcError = (status: number, message: string) => new VrcApiError(status, message);

export const errorBody = (status: number, message: string) => ({ error: { message, status_code: status } });

// VRChat JSON-quotes some messages; the SDK JSON-parses them before comparing, so keep the quotes.
export const missingCredentials = () => vrcError(401, '"Missing Credentials"');
export const requiresTwoFactor = () => vrcError(401, '"Requires Two-Factor Authentication"');
export const groupNotFound = () => vrcError(404, "Can't find group!");
export const userNotFound = () => vrcError(404, 'User not found');
export const notAMember = () => vrcError(403, "You're not a member.");
export const noPermission = () => vrcError(403, "You don't have permission to do that.");

/** The general rate-limit answer: no Retry-After or X-RateLimit-* headers, like the real API. */
export function writeVrchat429(reply: FastifyReply): FastifyReply {
  return reply.code(429).send(errorBody(429, 'Too many requests'));
}

export function vrchatErrorHandler(
  err: FastifyError | VrcApiError,
  _req: FastifyRequest,
  reply: FastifyReply,
) {
  if (err instanceof VrcApiError) return reply.code(err.status).send(errorBody(err.status, err.message));
  const status = 'statusCode' in err && err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) reply.header('x-simulator-error', encodeURIComponent(err.message).slice(0, 500));
  return reply.code(status).send(errorBody(status, status === 500 ? 'Internal Server Error' : err.message));
}
