import { DiscordAPIError } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.js';
import type { DiscordPort } from '../ports.js';
import { DiscordPermissionError } from './errors.js';
import { DiscordGrantError } from './oauth.js';

export const DISCORD_UNAVAILABLE = 'Discord is not reachable right now. Try again later.';

/** Every DiscordPort method; a Record so a method added to the port cannot be forgotten here. */
const portMethods: Record<keyof DiscordPort, true> = {
  botGuildIds: true,
  getGuild: true,
  getMember: true,
  searchMembers: true,
  listMembers: true,
  addRole: true,
  removeRole: true,
  sendMessage: true,
  userGuilds: true,
};

/** What a failed Discord call means to the person who asked for it. */
function translate(err: unknown): unknown {
  if (err instanceof HttpError || err instanceof DiscordPermissionError || err instanceof DiscordGrantError)
    return err;
  // A 4xx is Discord refusing this request (a deleted role, a missing channel): say so.
  if (err instanceof DiscordAPIError && err.status >= 400 && err.status < 500 && err.status !== 429)
    return new HttpError(502, `Discord refused the request: ${err.message}`);
  // Network errors, 5xx and rate limits past discord.js's retries: nothing the caller can fix.
  return new HttpError(503, DISCORD_UNAVAILABLE);
}

/**
 * The port with Discord's failures turned into answers: domain errors pass through, Discord refusing a
 * request is a 502 with its reason, and an unreachable Discord is a 503 (logged) instead of a 500.
 */
export function guardDiscord(port: DiscordPort, log: FastifyBaseLogger): DiscordPort {
  const guarded: Record<string, unknown> = {};
  for (const name of Object.keys(portMethods) as (keyof DiscordPort)[]) {
    const method = port[name] as (...args: unknown[]) => Promise<unknown>;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await method.apply(port, args);
      } catch (err) {
        const answer = translate(err);
        if (answer !== err) log.warn({ err, call: name }, 'Discord: call failed');
        throw answer;
      }
    };
  }
  return guarded as unknown as DiscordPort;
}
