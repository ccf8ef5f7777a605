import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomToken } from '../crypto.js';
import type { Db } from '../db/client.js';
import { type ActiveSession, findSession } from '../modules/auth/session.service.js';
import { SESSION_COOKIE, setCookie, XSRF_COOKIE, XSRF_HEADER } from './cookies.js';
import { forbidden, unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET that changes state: it gets the same XSRF check as a POST. */
    stateChanging?: boolean;
    /** Needs no XSRF pair because it never acts on cookie credentials (e.g. the SDK's poll). */
    xsrfExempt?: boolean;
  }
  interface FastifyRequest {
    auth: ActiveSession | null;
    /** True when credentials came in an Authorization header, which a cross-site form cannot send. */
    viaHeader: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

/**
 * Resolves the caller (session cookie or Bearer token) and enforces the double-submit XSRF check
 * on every state-changing cookie-authenticated /api request.
 */
export function registerAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('viaHeader', false);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const bearer = bearerToken(req);
    req.viaHeader = Boolean(bearer);
    const xsrfCookie = req.cookies[XSRF_COOKIE];
    if (!xsrfCookie) setCookie(req, reply, XSRF_COOKIE, randomToken(18), { httpOnly: false });
    // The spec makes a few state-changing calls GETs (refresh, reset invites, logout); they opt in here.
    const stateChanging = !SAFE_METHODS.has(req.method) || req.routeOptions.config?.stateChanging === true;
    if (stateChanging && !bearer && !req.routeOptions.config?.xsrfExempt) {
      const header = req.headers[XSRF_HEADER];
      if (!xsrfCookie || header !== xsrfCookie) throw forbidden('Invalid or missing XSRF token.');
    }
    const token = bearer ?? req.cookies[SESSION_COOKIE];
    if (token) req.auth = await findSession(db, token);
  });
}

/** The signed-in caller, or 401. */
export function requireUser(req: FastifyRequest): ActiveSession {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

export { SESSION_COOKIE };
