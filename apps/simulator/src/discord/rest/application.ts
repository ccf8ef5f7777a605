import type { FastifyInstance } from 'fastify';
import { discordApp } from '../../demo.js';
import { authenticate, requireBot } from '../auth.js';
import { unauthorized } from '../errors.js';
import { recommendedShards } from '../gateway-shards.js';
import { applicationFlags } from '../intents.js';
import { userObject } from '../serialize.js';
import type { DiscordState } from '../state.js';

/** The application as `/applications/@me` describes it (the owner is the demo admin). */
function applicationObject(state: DiscordState) {
  return {
    id: discordApp.clientId,
    name: discordApp.botUsername,
    icon: null,
    description: 'Links Discord accounts to VRChat accounts (simulated).',
    type: null,
    bot: userObject(state.botUser),
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: applicationFlags(state.config.privilegedIntents),
    flags_new: '0',
    redirect_uris: state.config.redirectUris ?? [],
    interactions_endpoint_url: null,
    role_connections_verification_url: null,
    owner: userObject(state.users.get(ownerId(state))!),
    approximate_guild_count: state.botGuilds().length,
    approximate_user_install_count: 0,
    approximate_user_authorization_count: state.oauth.grants().length,
    explicit_content_filter: 0,
    team: null,
    eligible_oauth2_scopes: [],
    integration_types_config: { '0': {} },
    tags: [],
  };
}

const ownerId = (state: DiscordState) => [...state.users.values()].find((u) => !u.bot)!.id;

/** The gateway URL: this simulator's own /discord/gateway path over ws://. */
export function gatewayUrl(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/discord/gateway`;
}

export function registerApplicationRoutes(
  api: FastifyInstance,
  state: DiscordState,
  baseUrl: () => string,
): void {
  api.get('/applications/@me', async (req) => {
    requireBot(state, req);
    return applicationObject(state);
  });

  api.get('/oauth2/applications/@me', async (req) => {
    requireBot(state, req);
    return applicationObject(state);
  });

  registerOAuthInfoRoute(api, state, '/oauth2/@me');

  api.get('/gateway', async () => ({ url: gatewayUrl(baseUrl()) }));

  api.get('/gateway/bot', async (req) => {
    requireBot(state, req);
    const limit = state.sessionStartLimit;
    if (limit.resetAt <= Date.now()) Object.assign(limit, { used: 0, resetAt: Date.now() + 86_400_000 });
    return {
      url: gatewayUrl(baseUrl()),
      shards: recommendedShards(state),
      session_start_limit: {
        total: state.config.sessionStartLimitTotal,
        remaining: Math.max(0, state.config.sessionStartLimitTotal - limit.used),
        reset_after: Math.max(0, limit.resetAt - Date.now()),
        max_concurrency: state.config.maxConcurrency,
      },
    };
  });
}

/** `GET /oauth2/@me`: Bearer only (the docs say so; a bot token gets 401, discord-api-docs#3945). */
export function registerOAuthInfoRoute(api: FastifyInstance, state: DiscordState, path: string): void {
  api.get(path, async (req) => {
    const caller = authenticate(state, req);
    if (caller.kind !== 'bearer') throw unauthorized();
    return {
      application: applicationObject(state),
      scopes: caller.grant.scopes,
      expires: new Date(caller.grant.accessExpiresAt).toISOString(),
      ...(caller.grant.scopes.includes('identify')
        ? { user: userObject(state.users.get(caller.userId)!) }
        : {}),
    };
  });
}
