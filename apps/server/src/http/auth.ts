import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import {
  type ActiveApiKey,
  type ActiveSession,
  type Actor,
  API_KEY_PREFIX,
  apiKeyActor,
  userActor,
} from '../kernel/actor.js';
import { sha256 } from '../kernel/crypto.js';
import { notSignedIn, refused } from '../kernel/errors.js';
import { SESSION_COOKIE, setCookie, XSRF_COOKIE, XSRF_HEADER } from './cookies.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET that changes state: it gets the same XSRF check as a POST. */
    stateChanging?: boolean;
    /** Needs no XSRF pair because it never acts on cookie credentials (e.g. the SDK's poll). */
    xsrfExempt?: boolean;
    /** A public read that never looks at the caller: no session lookup and no rate limit (rate-limit.ts). */
    anonymous?: boolean;
    /** Makes no VRChat call: no interactive deadline context around it (app.ts). */
    platformCalls?: boolean;
  }
  interface FastifyRequest {
    auth: ActiveSession | null;
    /** A server's API key, when the Authorization header carried one instead of a user's token. */
    apiKey: ActiveApiKey | null;
    /** True when credentials came in an Authorization header, which a cross-site form cannot send. */
    viaHeader: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The only routes an SDK access token (the Unity editor's sign-in) opens: the reads the world SDK makes
 * (../shared/compat/world-sdk.md). Anywhere else it is refused, so an approved editor cannot act as the user.
 */
const SDK_ROUTES = new Set(['/api/user', '/api/guilds', '/api/guilds/:guildId/worlds']);
export const SDK_TOKEN_REFUSED =
  'An SDK sign-in may only read your account, your servers and their worlds. Sign in on the website for anything else.';

function sdkTokenAllowed(req: FastifyRequest): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && SDK_ROUTES.has(req.routeOptions.url ?? '');
}

/** XSRF tokens: 18 random bytes each, cut from a pooled CSPRNG buffer (one system call per 256 tokens). */
const XSRF_TOKEN_BYTES = 18;
let xsrfPool = Buffer.alloc(0);
let xsrfPoolOffset = 0;
function xsrfToken(): string {
  if (xsrfPoolOffset + XSRF_TOKEN_BYTES > xsrfPool.length) {
    xsrfPool = randomBytes(XSRF_TOKEN_BYTES * 256);
    xsrfPoolOffset = 0;
  }
  const token = xsrfPool.toString('base64url', xsrfPoolOffset, xsrfPoolOffset + XSRF_TOKEN_BYTES);
  xsrfPoolOffset += XSRF_TOKEN_BYTES;
  return token;
}

/**
 * The XSRF token of a signed-in browser: an HMAC of its session token under the server's secret, so the
 * double-submit pair is bound to the session. A cookie-setting attacker (a sibling subdomain, a man in the
 * middle on http) can plant a token of their own, but never the one of a victim's session.
 */
export function sessionXsrfToken(
  secretKey: Buffer,
  sessionToken: string,
  tokenHash = sha256(sessionToken),
): string {
  // Every signed-in request needs it: remembered by the token's hash (never the token itself), per secret.
  let memo = xsrfMemos.get(secretKey);
  if (!memo) {
    memo = new Map();
    xsrfMemos.set(secretKey, memo);
  }
  let token = memo.get(tokenHash);
  if (token === undefined) {
    token = createHmac('sha256', secretKey).update(`xsrf:${sessionToken}`).digest('base64url');
    // Bounded: the oldest goes first (a Map keeps insertion order).
    if (memo.size >= XSRF_MEMO_SIZE) memo.delete(memo.keys().next().value!);
    memo.set(tokenHash, token);
  }
  return token;
}

const XSRF_MEMO_SIZE = 10_000;
const xsrfMemos = new WeakMap<Buffer, Map<string, string>>();

/**
 * The pair's token: the session's own when signed in by cookie, else the browser's (undefined: none yet).
 * `sessionHash` is the session cookie's hash when the caller has it already.
 */
export function expectedXsrfToken(
  secretKey: Buffer,
  cookies: Record<string, string | undefined>,
  sessionHash?: string,
): string | undefined {
  const sessionCookie = cookies[SESSION_COOKIE];
  return sessionCookie ? sessionXsrfToken(secretKey, sessionCookie, sessionHash) : cookies[XSRF_COOKIE];
}

/**
 * Whether a browser's answer sets the XSRF cookie: once, and again only when its session changed (or someone
 * planted another). Bearer callers need none (they skip the check).
 */
export function needsXsrfCookie(
  cookies: Record<string, string | undefined>,
  expected: string | undefined,
): boolean {
  const xsrfCookie = cookies[XSRF_COOKIE];
  return !xsrfCookie || (Boolean(expected) && xsrfCookie !== expected);
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function bearerToken(req: FastifyRequest): string | undefined {
  return bearerOf(req.headers.authorization);
}

/** The token an Authorization header carries, if any. */
export function bearerOf(authorization: string | undefined): string | undefined {
  const header = authorization?.trim();
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  // API keys may also be sent bare, as the spec's client configures them.
  return header?.startsWith(API_KEY_PREFIX) ? header : undefined;
}

/**
 * The session and API-key lookups (identity's findSession, access's findApiKey), handed in by the composition
 * root: http/ imports no wing.
 */
export interface CallerLookups {
  /** At once when cached, else a promise; `tokenHash` saves hashing the token again. */
  findSession(
    db: Db,
    token: string,
    tokenHash?: string,
  ): ActiveSession | null | Promise<ActiveSession | null>;
  findApiKey(db: Db, token: string): Promise<ActiveApiKey | null>;
}

/**
 * Resolves the caller (session cookie or Bearer token) and enforces the double-submit XSRF check on every
 * state-changing cookie-authenticated /api request. With a session cookie the header must be that session's
 * token (sessionXsrfToken); a browser without one pairs a random token minted once.
 */
export function registerAuth(
  app: FastifyInstance,
  db: Db,
  { findSession, findApiKey }: CallerLookups,
  secretKey: Buffer,
): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('viaHeader', false);
  // A callback hook: a request without a token (the public reads) is settled without a promise; only the
  // session or API-key lookup waits for the database.
  app.addHook('onRequest', (req, reply, done) => {
    let lookup: Promise<void> | undefined;
    try {
      lookup = authenticate(req, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (lookup) lookup.then(() => done(), done);
    else done();
  });

  /** The request's caller; a promise only when a token must be looked up. */
  function authenticate(req: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    if (!req.url.startsWith('/api/')) return;
    const bearer = bearerToken(req);
    req.viaHeader = Boolean(bearer);
    const sessionCookie = req.cookies[SESSION_COOKIE];
    // Hashed once: the XSRF memo and the session lookup both key on it.
    const sessionHash = sessionCookie ? sha256(sessionCookie) : undefined;
    const expected = expectedXsrfToken(secretKey, req.cookies, sessionHash);
    if (!bearer && needsXsrfCookie(req.cookies, expected))
      setCookie(req, reply, XSRF_COOKIE, expected ?? xsrfToken(), { httpOnly: false });
    const routeConfig = req.routeOptions.config;
    if (routeConfig?.anonymous && SAFE_METHODS.has(req.method)) return;
    // The spec makes a few state-changing calls GETs (refresh, reset invites, logout); they opt in here.
    const stateChanging = !SAFE_METHODS.has(req.method) || routeConfig?.stateChanging === true;
    if (stateChanging && !bearer && !routeConfig?.xsrfExempt) {
      const header = req.headers[XSRF_HEADER];
      if (!expected || typeof header !== 'string' || !sameToken(header, expected))
        throw refused('Invalid or missing XSRF token.');
    }
    if (bearer?.startsWith(API_KEY_PREFIX)) {
      return findApiKey(db, bearer).then((key) => {
        req.apiKey = key;
      });
    }
    const token = bearer ?? sessionCookie;
    if (!token) return;
    const found = findSession(db, token, bearer ? undefined : sessionHash);
    // A cached session is applied here and now: a signed-in read waits for no promise.
    if (found instanceof Promise) return found.then((auth) => signedIn(req, auth));
    signedIn(req, found);
    return undefined;
  }

  function signedIn(req: FastifyRequest, auth: ActiveSession | null): void {
    req.auth = auth;
    if (auth?.kind === 'sdk' && !sdkTokenAllowed(req)) throw refused(SDK_TOKEN_REFUSED);
  }
}

/**
 * Who acts on a server's data: the signed-in user, or an API key (which requireGuildPermission limits to
 * its own server and permissions). 401 for anybody else.
 */
export function requireActor(req: FastifyRequest): Actor {
  if (req.auth) return userActor(req.auth.user.id);
  if (req.apiKey) return apiKeyActor(req.apiKey.id);
  throw notSignedIn();
}

/** The signed-in caller, or 401. */
export function requireUser(req: FastifyRequest): ActiveSession {
  if (!req.auth) throw notSignedIn();
  return req.auth;
}

export { SESSION_COOKIE };
