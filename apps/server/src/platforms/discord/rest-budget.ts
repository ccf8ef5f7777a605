import { AsyncLocalStorage } from 'node:async_hooks';
import { type RateLimitData, type REST, RESTEvents } from 'discord.js';

/**
 * How long Discord may keep a caller waiting, and how many 429s one request may collect. discord.js retries
 * a 429 without end (each one counts toward Discord's 10,000 invalid requests per 10 minutes, past which it
 * bans the IP), and waits out any rate limit however long; an /api request cannot wait that long.
 */

/** A 429 is retried once (after its retry_after / the global reset); the second gives up. */
export const MAX_RATE_LIMITED_ANSWERS = 2;
/** What an /api request waits for Discord in all, as for VRChat (platforms/vrchat/interactive.ts). */
export const INTERACTIVE_DEADLINE_MS = 10_000;

/** One port call: its deadline (interactive callers only) and when Discord last said the limit lifts. */
export interface DiscordCallBudget {
  deadlineAt?: number;
  signal?: AbortSignal;
  /** Epoch ms at which the last rate limit seen by this call lifts. */
  limitedUntil?: number;
}

/** One REST request (with its retries) inside a call. */
interface RequestBudget {
  call?: DiscordCallBudget;
  rateLimitedAnswers: number;
}

const calls = new AsyncLocalStorage<DiscordCallBudget>();
const requests = new AsyncLocalStorage<RequestBudget>();

/** Runs one port call with a budget (discord.js requests it makes inherit the deadline and signal). */
export function withCallBudget<T>(budget: DiscordCallBudget, fn: () => Promise<T>): Promise<T> {
  return calls.run(budget, fn);
}

/**
 * discord.js's `rejectOnRateLimit`: give up (RateLimitError, nothing more is sent) when this request already
 * had its retry, or when waiting out the limit would pass the caller's deadline. Otherwise discord.js
 * waits retry_after (or the global reset, when Discord flags the limit global) and sends again.
 */
export function shouldGiveUpOnRateLimit(data: RateLimitData): boolean {
  const request = requests.getStore();
  if (!request) return false;
  const waitMs = Math.max(data.retryAfter, data.sublimitTimeout ?? 0, 0);
  if (request.call) request.call.limitedUntil = Date.now() + waitMs;
  if (request.rateLimitedAnswers >= MAX_RATE_LIMITED_ANSWERS) return true;
  const deadlineAt = request.call?.deadlineAt;
  return deadlineAt !== undefined && Date.now() + waitMs > deadlineAt;
}

/**
 * Gives every request of a REST client its own budget (counting its 429 answers) under the caller's call
 * budget, whose signal also stops a request still queued behind others when the caller's deadline passes.
 */
export function budgetRest(rest: REST): REST {
  rest.on(RESTEvents.Response, (_request, response) => {
    const request = requests.getStore();
    if (request && response.status === 429) request.rateLimitedAnswers += 1;
  });
  const request = rest.request.bind(rest);
  rest.request = (options) => {
    const call = calls.getStore();
    return requests.run({ call, rateLimitedAnswers: 0 }, () =>
      request(call?.signal && !options.signal ? { ...options, signal: call.signal } : options),
    );
  };
  return rest;
}
