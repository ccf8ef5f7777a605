import type { FastifyRequest } from 'fastify';
import { discordApp } from '../demo.js';
import { unauthorized } from './errors.js';
import type { Grant } from './oauth-store.js';
import type { DiscordState } from './state.js';

export type Caller = { kind: 'bot'; userId: string } | { kind: 'bearer'; userId: string; grant: Grant };

/** Resolves `Authorization: Bot …` or `Bearer …`; anything else is Discord's bare 401. */
export function authenticate(state: DiscordState, req: FastifyRequest): Caller {
  const header = req.headers.authorization ?? '';
  const [scheme, value] = header.split(' ', 2);
  if (scheme === 'Bot' && value === discordApp.botToken) return { kind: 'bot', userId: discordApp.botUserId };
  if (scheme === 'Bearer' && value) {
    const grant = state.oauth.access(value);
    if (grant) return { kind: 'bearer', userId: grant.userId, grant };
  }
  throw unauthorized();
}

/** Bot-only endpoints answer 401 to Bearer tokens, like Discord. */
export function requireBot(state: DiscordState, req: FastifyRequest): Caller & { kind: 'bot' } {
  const caller = authenticate(state, req);
  if (caller.kind !== 'bot') throw unauthorized();
  return caller;
}

/**
 * A Bearer token without the endpoint's scope gets the same bare 401 as a bad token: Discord staff
 * confirmed "endpoints that require authorization return 401 if the authorization isn't acceptable"
 * (discord-api-docs#3945), and a missing `guilds` scope is reported as 401 (reboxer/discord-oauth2#4).
 */
export function requireScope(caller: Caller, scope: string): void {
  if (caller.kind === 'bearer' && !caller.grant.scopes.includes(scope)) throw unauthorized();
}

export function requireBearer(
  state: DiscordState,
  req: FastifyRequest,
  scope: string,
): Caller & { kind: 'bearer' } {
  const caller = authenticate(state, req);
  if (caller.kind !== 'bearer') throw unauthorized();
  requireScope(caller, scope);
  return caller;
}
