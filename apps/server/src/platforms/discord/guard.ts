import { DiscordAPIError } from 'discord.js';
import type { DiscordPort } from '../ports.js';
import { DiscordError, DiscordPermissionError } from './errors.js';
import { DiscordGrantError } from './oauth.js';

/** Every DiscordPort method; a Record so a method added to the port cannot be forgotten here. */
const portMethods: Record<keyof DiscordPort, true> = {
  botGuildIds: true,
  getGuild: true,
  getMember: true,
  botMember: true,
  searchMembers: true,
  listMembers: true,
  addRole: true,
  removeRole: true,
  sendMessage: true,
  listTextChannels: true,
  postEmbed: true,
  userGuilds: true,
};

/** discord.js's and the network's failures as the adapter's own error; domain errors pass through. */
function translate(err: unknown): unknown {
  if (
    err instanceof DiscordError ||
    err instanceof DiscordPermissionError ||
    err instanceof DiscordGrantError
  )
    return err;
  // A 4xx is Discord refusing this request (a deleted role, a missing channel).
  if (err instanceof DiscordAPIError && err.status >= 400 && err.status < 500)
    return new DiscordError(err.status, err.message, { cause: err });
  // Network errors, 5xx and rate limits past discord.js's retries.
  return new DiscordError(503, err instanceof Error ? err.message : String(err), { cause: err });
}

/**
 * The port with every Discord failure as a DiscordError (the error handler answers 502 or 503 for it,
 * never 500), as the VRChat adapter does with VrchatError; domain errors pass through.
 */
export function guardDiscord(port: DiscordPort): DiscordPort {
  const guarded: Record<string, unknown> = {};
  for (const name of Object.keys(portMethods) as (keyof DiscordPort)[]) {
    const method = port[name] as (...args: unknown[]) => Promise<unknown>;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await method.apply(port, args);
      } catch (err) {
        throw translate(err);
      }
    };
  }
  return guarded as unknown as DiscordPort;
}
