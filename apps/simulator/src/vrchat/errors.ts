import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { VrchatState } from './state.js';

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
// VRChat ends many messages with look-alikes (ǃ U+01C3, ․ U+2024) instead of ! and . — kept as written.
export const missingCredentials = () => vrcError(401, '"Missing Credentials"');
export const requiresTwoFactor = () => vrcError(401, '"Requires Two-Factor Authentication"');
export const groupNotFound = () => vrcError(404, "Can't find groupǃ");
export const userNotFound = () => vrcError(404, 'User not found');
export const notAMember = () => vrcError(403, "You're not a member․");
/**
 * Someone already in as many groups as an account may be (100) joining one more: VRChat's words for
 * accepting their join request (vrchatapi/specification#541); the simulator says the same when they
 * join, accept an invite or are invited (VRChat's answer there is not documented).
 */
export const tooManyGroups = (displayName: string) =>
  vrcError(403, `${displayName} can't join right now because they're in too many groups․`);
/** A role VRChat sells (requiresPurchase): only VRChat grants and takes it. The text is a guess. */
/** Throws tooManyGroups when the user is at the group limit (VrcConfig.maxGroupsPerUser). */
export function requireRoomForAnotherGroup(state: VrchatState, userId: string): void {
  if (state.atGroupLimit(userId)) throw tooManyGroups(state.displayName(userId));
}
export const purchasedRole = (roleName: string) =>
  vrcError(403, `You can't manage the role "${roleName}" because it is granted by purchase․`);
export const noPermission = () => vrcError(403, "You don't have permission to do that.");

/**
 * The general rate-limit answer, in VRChat's error envelope. Never X-RateLimit-* headers; `Retry-After`
 * only when given (real 429s come both with and without it).
 */
export function writeVrchat429(reply: FastifyReply, retryAfterSeconds?: number): FastifyReply {
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
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
