import type { FastifyInstance, FastifyReply } from 'fastify';
import { discordApp } from '../demo.js';
import { installBot } from './guild-ops.js';
import { INSTALL_ONLY_SCOPES, KNOWN_SCOPES, parseScopes } from './oauth-scopes.js';
import {
  type AuthorizeRequest,
  authorizePage,
  canManage,
  errorPage,
  installedPage,
  signedOutPage,
} from './pages/authorize.js';
import { userRows } from './pages/user-search.js';
import type { DiscordState } from './state.js';

type Params = Record<string, string | undefined>;

/** Stands in for Discord's login session: the user last chosen on the authorize page. */
const SESSION_COOKIE = 'discord_sim_user';

class PageError extends Error {}

function isAllowedRedirect(state: DiscordState, uri: string): boolean {
  try {
    const url = new URL(uri);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  } catch {
    return false;
  }
  return state.config.redirectUris === null || state.config.redirectUris.includes(uri);
}

/** Validates the authorize parameters the way Discord's page does before showing consent. */
function parseRequest(state: DiscordState, p: Params): AuthorizeRequest {
  if (p.client_id !== discordApp.clientId) throw new PageError('Unknown Application: invalid client_id.');
  const scopes = parseScopes(p.scope);
  if (!scopes.length) throw new PageError('No scopes were provided.');
  const unknown = scopes.find((s) => !KNOWN_SCOPES.has(s));
  if (unknown) throw new PageError(`Invalid scope: ${unknown}`);
  const installOnly = scopes.every((s) => INSTALL_ONLY_SCOPES.has(s));
  const responseType = p.response_type ?? null;
  if (responseType !== null && responseType !== 'code')
    throw new PageError(
      `Unsupported response_type "${responseType}" (the simulator implements the code grant).`,
    );
  if (!installOnly && responseType !== 'code') throw new PageError('response_type=code is required.');
  const redirectUri = p.redirect_uri ?? null;
  if (redirectUri !== null && !isAllowedRedirect(state, redirectUri))
    throw new PageError('Invalid OAuth2 redirect_uri');
  if (responseType === 'code' && redirectUri === null) throw new PageError('Invalid OAuth2 redirect_uri');
  if (p.permissions !== undefined && !/^\d+$/.test(p.permissions))
    throw new PageError('Invalid permissions.');
  return {
    clientId: p.client_id,
    scopes,
    responseType,
    redirectUri,
    state: p.state ?? null,
    prompt: p.prompt ?? null,
    permissions: p.permissions ?? null,
    guildId: p.guild_id ?? null,
    disableGuildSelect: p.disable_guild_select === 'true',
    integrationType: p.integration_type ?? null,
  };
}

function redirectWith(reply: FastifyReply, base: string, params: Record<string, string | null | undefined>) {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) url.searchParams.set(k, v);
  return reply.redirect(url.toString(), 302);
}

function sessionUser(cookieHeader: string | undefined): string | undefined {
  const match = (cookieHeader ?? '').match(new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=(\\d+)`));
  return match?.[1];
}

/** Issues the code (when a redirect is wanted) and sends the browser back to the app. */
function complete(
  state: DiscordState,
  reply: FastifyReply,
  req: AuthorizeRequest,
  userId: string,
  guildId?: string,
) {
  state.oauth.remember(userId, req.scopes);
  reply.header('Set-Cookie', `${SESSION_COOKIE}=${userId}; Path=/; HttpOnly; SameSite=Lax`);
  if (!req.redirectUri) {
    const guild = guildId ? state.guilds.get(guildId) : undefined;
    return reply.type('text/html').send(guild ? installedPage(guild) : errorPage('Authorized.'));
  }
  const code =
    req.responseType === 'code'
      ? state.oauth.issueCode(
          { userId, scopes: req.scopes, redirectUri: req.redirectUri, guildId },
          state.config.oauthCodeTtlMs,
        ).code
      : undefined;
  return redirectWith(reply, req.redirectUri, {
    code,
    state: req.state,
    ...(guildId ? { guild_id: guildId, permissions: req.permissions ?? '0' } : {}),
  });
}

export function registerAuthorizeRoutes(app: FastifyInstance, state: DiscordState): void {
  app.get<{ Querystring: Params }>('/oauth2/authorize', async (req, reply) => {
    let request: AuthorizeRequest;
    try {
      request = parseRequest(state, req.query);
    } catch (e) {
      if (e instanceof PageError) return reply.code(400).type('text/html').send(errorPage(e.message));
      throw e;
    }
    const current = sessionUser(req.headers.cookie);
    // prompt=none skips consent for a user who already authorized these scopes (bot installs always ask).
    if (
      request.prompt === 'none' &&
      current &&
      state.users.has(current) &&
      !request.scopes.includes('bot') &&
      state.oauth.hasConsented(current, request.scopes)
    )
      return complete(state, reply, request, current);
    return reply
      .type('text/html')
      .send(authorizePage(state, request, { selectedUserId: current, signedInUserId: current }));
  });

  // The consent page's search: at most 50 matching users as radio rows (HTML, escaped here).
  app.get<{ Querystring: { q?: string; selected?: string } }>('/oauth2/authorize/users', async (req, reply) =>
    reply
      .type('text/html')
      .send(userRows(state, String(req.query.q ?? '').slice(0, 100), req.query.selected || undefined)),
  );

  // 'Switch account': forgets the signed-in user (so prompt=none asks again) and shows the consent
  // page for the same request; with no request, just signs out of the simulated Discord.
  app.get<{ Querystring: Params }>('/oauth2/switch-account', async (req, reply) => {
    reply.header('Set-Cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    const query = new URLSearchParams(req.query as Record<string, string>);
    query.delete('prompt');
    if (!query.has('client_id')) return reply.type('text/html').send(signedOutPage());
    return reply.redirect(`/oauth2/authorize?${query}`, 302);
  });

  app.post<{ Body: Params }>('/oauth2/authorize', async (req, reply) => {
    const form = (req.body ?? {}) as Params;
    let request: AuthorizeRequest;
    try {
      request = parseRequest(state, form);
    } catch (e) {
      if (e instanceof PageError) return reply.code(400).type('text/html').send(errorPage(e.message));
      throw e;
    }
    const rerender = (error: string) =>
      reply
        .code(400)
        .type('text/html')
        .send(authorizePage(state, request, { selectedUserId: form.user_id, error }));
    if (form.decision !== 'authorize') {
      if (!request.redirectUri) return reply.type('text/html').send(errorPage('Authorization cancelled.'));
      return redirectWith(reply, request.redirectUri, {
        error: 'access_denied',
        error_description: 'The resource owner or authorization server denied the request',
        state: request.state,
      });
    }
    const user = form.user_id ? state.users.get(form.user_id) : undefined;
    if (!user || user.bot) return rerender('Choose the user to sign in as.');
    if (!request.scopes.includes('bot')) return complete(state, reply, request, user.id);
    const guild = form.guild_id ? state.guilds.get(form.guild_id) : undefined;
    if (!guild) return rerender('Choose a server.');
    if (!canManage(state, guild, user.id))
      return rerender('You need Manage Server permission in that server.');
    installBot(state, guild, BigInt(request.permissions ?? '0'));
    return complete(state, reply, request, user.id, guild.id);
  });
}

/** The spec's authorizationUrl lives under /api; Discord redirects it to the web page. */
export function registerAuthorizeRedirect(api: FastifyInstance, path: string): void {
  api.get(path, async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    return reply.redirect(`/oauth2/authorize${query}`, 302);
  });
}
