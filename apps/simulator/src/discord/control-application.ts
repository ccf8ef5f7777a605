import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ApiCounters } from '../api-counters.js';
import { parse } from './control-parse.js';
import type { InvalidRequestGuard } from './edge.js';
import type { Gateway } from './gateway.js';
import { Intent, intentSwitches, PRIVILEGED_INTENTS } from './intents.js';
import type { GlobalRateLimiter, RateLimiter } from './ratelimit.js';
import type { DiscordState } from './state.js';

/** The application's settings (developer portal) and Discord's REST limits, for the control API. */

export interface DiscordLimits {
  global: GlobalRateLimiter;
  invalid: InvalidRequestGuard;
  routes: RateLimiter;
  counters: ApiCounters;
}

const bucketLimit = z.object({
  limit: z.number().int().min(1),
  windowSeconds: z.number().positive(),
});

const applicationBody = z.object({
  guildMembersIntent: z.boolean().optional(),
  guildPresencesIntent: z.boolean().optional(),
  messageContentIntent: z.boolean().optional(),
});

const redirectUriBody = z.object({
  uri: z
    .string()
    .url()
    .refine((uri) => /^https?:\/\//.test(uri), 'must be an http(s) address'),
});

const limitsBody = z.object({
  globalRateLimitPerSecond: z.number().int().min(1).optional(),
  invalidRequestLimit: z.number().int().min(1).optional(),
  invalidRequestWindowMs: z.number().int().min(1).optional(),
  invalidRequestBanMs: z.number().int().min(0).optional(),
  requestMembersIntervalMs: z.number().int().min(0).optional(),
  routeBuckets: z
    .object({
      memberRoles: bucketLimit.optional(),
      messages: bucketLimit.optional(),
      guildRoles: bucketLimit.optional(),
      default: bucketLimit.optional(),
    })
    .strict()
    .optional(),
});

/**
 * Sets the enabled privileged intents. Switching one off invalidates every gateway session of the
 * app (Discord closes them with 4003); switching one on changes nothing for connected sessions.
 */
export function setPrivilegedIntents(state: DiscordState, gateway: Gateway, next: number): void {
  const enabled = next & PRIVILEGED_INTENTS;
  const removed = state.config.privilegedIntents & ~enabled;
  state.config.privilegedIntents = enabled;
  if (removed) gateway.invalidateSessions();
}

function limitsView(state: DiscordState, limits: DiscordLimits) {
  const c = state.config;
  return {
    globalRateLimitPerSecond: c.globalRateLimitPerSecond,
    invalidRequestLimit: c.invalidRequestLimit,
    invalidRequestWindowMs: c.invalidRequestWindowMs,
    invalidRequestBanMs: c.invalidRequestBanMs,
    requestMembersIntervalMs: c.requestMembersIntervalMs,
    /** Windows, resets and bans above are this many times shorter in practice. */
    timeScale: state.timeScale,
    routeBuckets: limits.routes.view(),
    ...limits.invalid.view(),
  };
}

export function registerApplicationControl(
  api: FastifyInstance,
  state: DiscordState,
  gateway: Gateway,
  limits: DiscordLimits,
): void {
  api.get('/application', async () => intentSwitches(state.config.privilegedIntents));

  api.patch('/application', async (req) => {
    const body = parse(applicationBody, req.body);
    let next = state.config.privilegedIntents;
    const toggle = (bit: number, on: boolean | undefined) => {
      if (on !== undefined) next = on ? next | bit : next & ~bit;
    };
    toggle(Intent.GuildMembers, body.guildMembersIntent);
    toggle(Intent.GuildPresences, body.guildPresencesIntent);
    toggle(Intent.MessageContent, body.messageContentIntent);
    setPrivilegedIntents(state, gateway, next);
    return intentSwitches(state.config.privilegedIntents);
  });

  /** The registered OAuth2 redirect URIs (developer portal → OAuth2 → Redirects). */
  api.get('/application/redirect-uris', async () => ({ redirectUris: state.config.redirectUris }));

  /** Registers one more redirect URI (kept: several servers may share one simulated application). */
  api.post('/application/redirect-uris', async (req) => {
    const { uri } = parse(redirectUriBody, req.body);
    const registered = state.config.redirectUris;
    if (registered && !registered.includes(uri)) registered.push(uri);
    return { redirectUris: registered };
  });

  api.get('/rate-limits', async () => limitsView(state, limits));

  api.patch('/rate-limits', async (req) => {
    const { routeBuckets, ...config } = parse(limitsBody, req.body);
    Object.assign(state.config, config);
    if (routeBuckets) limits.routes.configure(routeBuckets);
    return limitsView(state, limits);
  });

  api.get('/counters', async () => limits.counters.snapshot());

  api.delete('/counters', async (_req, reply) => {
    limits.counters.reset();
    return reply.code(204).send();
  });

  /** Lifts every invalid-request ban and forgets the counts (the limits stay as configured). */
  api.delete('/rate-limits/bans', async (_req, reply) => {
    limits.invalid.reset();
    limits.global.reset();
    return reply.code(204).send();
  });
}
