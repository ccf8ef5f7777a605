import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../kernel/errors.js';
import { DiscordError, DiscordPermissionError } from '../../platforms/discord/errors.js';
import { inertText } from '../../platforms/discord/inert-text.js';
import { VrchatError } from '../../platforms/vrchat/errors.js';
import { VRCHAT_DEADLINE_MESSAGE } from '../../platforms/vrchat/transport.js';

export const COMMAND_FAILED = 'Something went wrong on our side. Try again in a minute.';
export const VRCHAT_TOO_SLOW = 'VRChat did not answer in time. Try again in a minute.';

/**
 * The sentence a failed command answers with, as the HTTP error handler would put it: a service's refusal
 * says why, a platform that failed is named, anything else is logged and answered without internals.
 */
export function commandErrorMessage(err: unknown, log: FastifyBaseLogger, context: object): string {
  // Refusals may carry names (a role, a channel) or a platform's own words: inert.
  if (err instanceof AppError || err instanceof DiscordPermissionError) return inertText(err.message);
  if (err instanceof VrchatError && err.retryAfterSeconds !== undefined) return inertText(err.message);
  if (err instanceof VrchatError && err.message === VRCHAT_DEADLINE_MESSAGE) {
    log.warn({ err, ...context }, 'Command: VRChat did not answer before the deadline');
    return VRCHAT_TOO_SLOW;
  }
  if (err instanceof VrchatError || err instanceof DiscordError) {
    log.warn({ err, ...context }, 'Command: platform call failed');
    const platform = err instanceof VrchatError ? 'VRChat' : 'Discord';
    return `${platform} is not reachable right now. Try again later.`;
  }
  log.error({ err, ...context }, 'Command failed');
  return COMMAND_FAILED;
}
