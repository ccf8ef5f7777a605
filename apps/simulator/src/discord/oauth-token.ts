import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { discordApp } from '../demo.js';
import { CLIENT_CREDENTIAL_SCOPES, parseScopes } from './oauth-scopes.js';
import { ACCESS_TOKEN_TTL_S, type Grant } from './oauth-store.js';
import type { DiscordState } from './state.js';

/**
 * `POST /oauth2/token` and `/oauth2/token/revoke` (docs-only routes, not in the OpenAPI spec).
 * Bodies must be form-encoded: a JSON body is read as if empty, which is what Discord's behaviour
 * amounts to (the grant type is "missing").
 */

type Form = Record<string, string | undefined>;

function readForm(req: FastifyRequest): Form {
  const type = req.headers['content-type'] ?? '';
  return type.startsWith('application/x-www-form-urlencoded') && req.body && typeof req.body === 'object'
    ? (req.body as Form)
    : {};
}

/** HTTP Basic (`client_id:client_secret`, URL-encoded) or the form's client_id/client_secret. */
function clientAuthenticated(req: FastifyRequest, form: Form): boolean {
  const header = req.headers.authorization ?? '';
  let id = form.client_id;
  let secret = form.client_secret;
  if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  return id === discordApp.clientId && secret === discordApp.clientSecret;
}

const oauthError = (reply: FastifyReply, status: number, error: string, description?: string) =>
  reply.code(status).send({ error, ...(description ? { error_description: description } : {}) });

function tokenResponse(grant: Grant) {
  return {
    token_type: 'Bearer',
    access_token: grant.accessToken,
    expires_in: ACCESS_TOKEN_TTL_S,
    ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}),
    scope: grant.scopes.join(' '),
  };
}

async function token(state: DiscordState, req: FastifyRequest, reply: FastifyReply) {
  const form = readForm(req);
  if (!clientAuthenticated(req, form)) return oauthError(reply, 401, 'invalid_client');
  switch (form.grant_type) {
    case 'authorization_code': {
      if (!form.code) return oauthError(reply, 400, 'invalid_request', 'Missing "code" in request.');
      const code = state.oauth.peekCode(form.code);
      if (code && code.redirectUri !== null && form.redirect_uri !== code.redirectUri)
        return oauthError(reply, 400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
      const taken = state.oauth.takeCode(form.code);
      if (!taken) return oauthError(reply, 400, 'invalid_grant', 'Invalid "code" in request.');
      return tokenResponse(state.oauth.createGrant(taken.userId, taken.scopes));
    }
    case 'refresh_token': {
      if (!form.refresh_token)
        return oauthError(reply, 400, 'invalid_request', 'Missing "refresh_token" in request.');
      const grant = state.oauth.refresh(form.refresh_token);
      if (!grant) return oauthError(reply, 400, 'invalid_grant', 'Invalid "refresh_token" in request.');
      return tokenResponse(grant);
    }
    case 'client_credentials': {
      const scopes = parseScopes(form.scope);
      if (!scopes.length || scopes.some((s) => !CLIENT_CREDENTIAL_SCOPES.has(s)))
        return oauthError(
          reply,
          400,
          'invalid_scope',
          'The requested scope is invalid, unknown, or malformed.',
        );
      // Client-credential tokens act as the application's owner and come without a refresh token.
      const owner = [...state.users.values()].find((u) => !u.bot)!;
      return tokenResponse(state.oauth.createGrant(owner.id, scopes, false));
    }
    default:
      return oauthError(reply, 400, 'unsupported_grant_type', 'Invalid "grant_type" in request.');
  }
}

async function revoke(state: DiscordState, req: FastifyRequest, reply: FastifyReply) {
  const form = readForm(req);
  if (!clientAuthenticated(req, form)) return oauthError(reply, 401, 'invalid_client');
  if (!form.token) return oauthError(reply, 400, 'invalid_request', 'Missing "token" in request.');
  state.oauth.revoke(form.token);
  return {};
}

/** `prefix` is '/oauth2' inside the /api/v10 plugin and '' inside the unversioned /api/oauth2 one. */
export function registerTokenRoutes(api: FastifyInstance, state: DiscordState, prefix: string): void {
  api.post(`${prefix}/token`, (req, reply) => token(state, req, reply));
  api.post(`${prefix}/token/revoke`, (req, reply) => revoke(state, req, reply));
}
