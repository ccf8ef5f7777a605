import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser, sessionXsrfToken } from '../../../http/auth.js';
import { SESSION_COOKIE, setCookie, XSRF_COOKIE } from '../../../http/cookies.js';
import { errorBody } from '../../../http/errors.js';
import { originOf } from '../../../http/origin.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { randomToken } from '../../../kernel/crypto.js';
import { missing } from '../../../kernel/errors.js';
import { currentUser, loginFailure, loginResult, loginTokenPreview } from './auth.schemas.js';
import {
  loginRedirect,
  loginWithCode,
  loginWithToken,
  logout,
  type StartedSession,
  toCurrentUser,
} from './login.service.js';
import { invalidLoginLinkMessage, peekLoginToken } from './login-token.service.js';
import { isSafeReturnPath, packState, RETURN_PATH_MAX, unpackState } from './return-path.js';
import { SESSION_TTL_MS } from './session.service.js';

const STATE_COOKIE = 'vrclink_oauth_state';
const STATE_TTL_SECONDS = 10 * 60;
const loginTokenQuery = z.object({ token: z.string().min(1).max(256) });
const UNSAFE_RETURN_PATH = "The return path must be an address on this site starting with a single '/'.";
const loginQuery = z.object({
  returnTo: z
    .string()
    .max(RETURN_PATH_MAX, UNSAFE_RETURN_PATH)
    .refine(isSafeReturnPath, UNSAFE_RETURN_PATH)
    .optional()
    .describe('Where to land after login: a path on this site, e.g. /sdk-oauth?token=…; default /profile.'),
  switchAccount: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      "After a logout: ask Discord to show its consent page (with its 'switch account' choice) instead of signing the last Discord user in again silently.",
    ),
});
const LOGIN_EXPIRED =
  'Login failed: the sign-in request expired or was started in another browser. Try again.';
const LOGIN_REJECTED = 'Login failed: Discord did not accept the sign-in code.';

/** Hands the browser its session cookie and the session's XSRF token, and answers who signed in. */
function withSessionCookie(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  started: StartedSession,
) {
  setCookie(req, reply, SESSION_COOKIE, started.token, { maxAgeSeconds: SESSION_TTL_MS / 1000 });
  setCookie(req, reply, XSRF_COOKIE, sessionXsrfToken(ctx.config.secretKey, started.token), {
    httpOnly: false,
  });
  return started.user;
}

export async function authRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/login',
    {
      schema: {
        operationId: 'getLoginRedirect',
        tags: ['auth'],
        description:
          'Discord authorize address; the state (and the return path, if given) is bound to this browser by a cookie.',
        querystring: loginQuery,
        response: { 200: z.object({ redirectUri: z.string() }), 400: errorBody },
      },
    },
    async (req, reply) => {
      const state = randomToken(24);
      setCookie(req, reply, STATE_COOKIE, packState(state, req.query.returnTo), {
        maxAgeSeconds: STATE_TTL_SECONDS,
      });
      const callback = `${originOf(ctx.config)}/discord/login/callback`;
      return { redirectUri: loginRedirect(ctx, state, callback, req.query.switchAccount === 'true') };
    },
  );

  app.post(
    '/login/callback',
    {
      schema: {
        operationId: 'completeLogin',
        tags: ['auth'],
        description:
          'Signs in; answers where to land (the return path given to GET /login). A refusal says why in reason.',
        body: z.object({ code: z.string().min(1).max(512), state: z.string().min(1).max(256) }),
        response: { 200: loginResult, 400: loginFailure },
      },
    },
    async (req, reply) => {
      const cookie = req.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, { path: '/' });
      const expected = cookie ? unpackState(cookie) : undefined;
      if (!expected || expected.state !== req.body.state) {
        return reply.code(400).send({ message: LOGIN_EXPIRED, reason: 'expired' as const });
      }
      const started = await loginWithCode(
        ctx,
        req.body.code,
        `${originOf(ctx.config)}/discord/login/callback`,
      );
      if (started === 'rejected')
        return reply.code(400).send({ message: LOGIN_REJECTED, reason: 'rejected' as const });
      return { ...withSessionCookie(ctx, req, reply, started), returnTo: expected.returnTo };
    },
  );

  app.get(
    '/discord_auth/preview',
    {
      schema: {
        operationId: 'previewLoginToken',
        tags: ['auth'],
        description:
          'Whose one-time login token it is, without using it: the page names the account and signs in only when asked.',
        querystring: loginTokenQuery,
        response: { 200: loginTokenPreview, 400: errorBody, 404: errorBody },
      },
    },
    async (req) => {
      const identity = await peekLoginToken(ctx.db, req.query.token);
      if (!identity) throw missing(await invalidLoginLinkMessage(ctx.db, req.query.token));
      return {
        username: identity.username,
        avatar: ctx.discordOAuth.avatarUrl(identity.id, identity.avatar),
      };
    },
  );

  app.get(
    '/discord_auth',
    {
      // It signs the browser in: without the XSRF pair a foreign page could log a victim into its account.
      config: { stateChanging: true },
      schema: {
        operationId: 'loginWithToken',
        tags: ['auth'],
        description:
          'Signs in with a one-time token from the bot’s /login command (5 minutes, single use); a refusal says whether it was used, expired or unknown.',
        querystring: loginTokenQuery,
        response: { 200: currentUser, 400: errorBody },
      },
    },
    async (req, reply) => {
      return withSessionCookie(ctx, req, reply, await loginWithToken(ctx, req.query.token));
    },
  );

  app.get(
    '/logout',
    {
      config: { stateChanging: true },
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        description: 'Ends every session of the caller, including SDK access tokens.',
        response: { 204: z.undefined() },
      },
    },
    async (req, reply) => {
      if (req.auth) await logout(ctx, req.auth.user.id);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send();
    },
  );

  app.get(
    '/user',
    {
      schema: {
        operationId: 'getCurrentUser',
        tags: ['auth'],
        response: { 200: currentUser, 401: errorBody },
      },
      config: { platformCalls: false },
    },
    async (req) => toCurrentUser(ctx, requireUser(req).user),
  );
}
