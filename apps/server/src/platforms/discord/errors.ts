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
  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DiscordError';
  }
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
