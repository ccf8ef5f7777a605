import { DiscordAPIError, RateLimitError } from 'discord.js';
import { isDatabaseFailure } from '../../db/connection-lost.js';
import type { DiscordPort } from '../ports.js';
import { isInteractive } from '../vrchat/interactive.js';
import { DiscordError, DiscordPermissionError, discordRateLimited } from './errors.js';
import { DiscordGrantError } from './oauth.js';
import { type DiscordCallBudget, INTERACTIVE_DEADLINE_MS, withCallBudget } from './rest-budget.js';

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

/**
 * discord.js's and the network's failures as the adapter's own error; domain errors pass through, and so do
 * the database's (the member mirror answers reads from it): a database outage is never "Discord is not
 * reachable".
 */
function translate(err: unknown): unknown {
  if (
    err instanceof DiscordError ||
    err instanceof DiscordPermissionError ||
    err instanceof DiscordGrantError ||
    isDatabaseFailure(err)
  )
    return err;
  // Rate limited past one retry, or longer than the caller could wait (rest-budget.ts).
  if (err instanceof RateLimitError) return discordRateLimited(Date.now() + err.retryAfter);
  // A 4xx is Discord refusing this request (a deleted role, a missing channel).
  if (err instanceof DiscordAPIError && err.status >= 400 && err.status < 500)
    return new DiscordError(err.status, err.message, { cause: err });
  // Network errors, 5xx and rate limits past discord.js's retries.
  return new DiscordError(503, err instanceof Error ? err.message : String(err), { cause: err });
}

/**
 * An /api request's Discord call: answered within INTERACTIVE_DEADLINE_MS. At the deadline the call's
 * requests are aborted (one still queued is never sent, so the change is not made) and the caller hears
 * that Discord is rate limiting (with when to try again) or not answering.
 */
async function callWithDeadline<T>(call: () => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const budget: DiscordCallBudget = {
    deadlineAt: Date.now() + INTERACTIVE_DEADLINE_MS,
    signal: controller.signal,
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        budget.limitedUntil
          ? discordRateLimited(budget.limitedUntil)
          : new DiscordError(503, 'Discord did not answer in time.'),
      );
    }, INTERACTIVE_DEADLINE_MS);
  });
  try {
    return await Promise.race([withCallBudget(budget, call), deadline]);
  } catch (err) {
    throw translate(err);
  } finally {
    clearTimeout(timer);
  }
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
      if (!isInteractive()) {
        try {
          return await withCallBudget({}, () => method.apply(port, args));
        } catch (err) {
          throw translate(err);
        }
      }
      return callWithDeadline(() => method.apply(port, args));
    };
  }
  return guarded as unknown as DiscordPort;
}
