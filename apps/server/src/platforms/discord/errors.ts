import { DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';

/** The bot may not do what was asked (role hierarchy, or a permission the server has not granted). */
export class DiscordPermissionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscordPermissionError';
  }
}

/** What a server admin must change when the bot lacks Manage Roles (Discord refused, or checked ahead). */
export const BOT_NEEDS_MANAGE_ROLES = 'The bot needs the Manage Roles permission to change roles.';

/** What a server admin must change when a role is at or above the bot's highest role. */
export const roleAboveBotMessage = (roleName: string) =>
  `The bot's role must be above ${roleName} to manage it.`;

/**
 * A Discord call that failed in a way the adapter does not map to a product outcome (as VrchatError for
 * VRChat). status: Discord's 4xx when it refused the request, 503 when it could not be reached.
 */
export class DiscordError extends Error {
  /** Set when Discord is rate limiting us: seconds until a request is expected to go again. */
  readonly retryAfterSeconds?: number;
  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'DiscordError';
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** Discord rate limits us until `until` (epoch ms): routes answer 503 with this sentence and Retry-After. */
export function discordRateLimited(until: number): DiscordError {
  const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  return new DiscordError(
    429,
    `Discord is rate limiting requests. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    { retryAfterSeconds: seconds },
  );
}

/** Discord's JSON error code of a failed REST call, if it was one. */
export function discordCode(err: unknown): number | undefined {
  return err instanceof DiscordAPIError && typeof err.code === 'number' ? err.code : undefined;
}

/** Errors that mean "no such thing, or not visible to the bot": read helpers answer null for them. */
const notFoundCodes = new Set<number>([
  RESTJSONErrorCodes.UnknownGuild,
  RESTJSONErrorCodes.UnknownMember,
  RESTJSONErrorCodes.UnknownUser,
  RESTJSONErrorCodes.MissingAccess,
]);

export function isNotFound(err: unknown): boolean {
  const code = discordCode(err);
  return code !== undefined && notFoundCodes.has(code);
}
