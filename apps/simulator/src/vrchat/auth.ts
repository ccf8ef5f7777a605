import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verify } from 'otplib';
import { errorBody, missingCredentials, requiresTwoFactor, vrcError } from './errors.js';
import { toCurrentUser } from './serialize.js';
import type { VrcAccount, VrchatState, VrcSession, VrcUser } from './state.js';

const AUTH_COOKIE_MS = 7 * 24 * 3_600_000;
const TWO_FACTOR_COOKIE_MS = 30 * 24 * 3_600_000;

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

const cookie = (name: string, value: string, expiresAt: number, httpOnly = true) =>
  `${name}=${value}; Expires=${new Date(expiresAt).toUTCString()}; Path=/${httpOnly ? '; HttpOnly' : ''}`;

/** The session behind the request's `auth` cookie, if it is one the simulator issued and it is live. */
export function sessionOf(state: VrchatState, req: FastifyRequest): VrcSession | undefined {
  const token = parseCookies(req.headers.cookie).auth;
  if (!token) return undefined;
  const session = state.sessions.get(token);
  if (!session) return undefined;
  if (session.expiresAt <= Date.now()) {
    state.sessions.delete(token);
    return undefined;
  }
  return session;
}

export interface Caller {
  user: VrcUser;
  account: VrcAccount;
  session: VrcSession;
}

/**
 * Resolves the logged-in caller or throws VRChat's 401s. Only the auth endpoints accept a session that
 * has not finished 2FA; everything else answers "Requires Two-Factor Authentication", which is what
 * makes the SDK redo just the 2FA step.
 */
export function requireCaller(state: VrchatState, req: FastifyRequest, allowPending2fa = false): Caller {
  const session = sessionOf(state, req);
  const user = session && state.users.get(session.userId);
  const account = session && state.accounts.get(session.userId);
  if (!session || !user || !account) throw missingCredentials();
  const binding = state.config.sessionAddressBinding;
  // Reports disagree whether a cookie used from another address fails with 401 or 403 (platforms.md A.4).
  if (binding !== 'off' && session.address !== undefined && session.address !== req.ip)
    throw vrcError(binding, '"Missing Credentials"');
  if (!session.twoFactorDone && !allowPending2fa) throw requiresTwoFactor();
  return { user, account, session };
}

const twoFactorMethods = (account: VrcAccount) => (account.totpSecret ? ['totp', 'otp'] : []);

function decodeBasic(header: string): [string, string] | undefined {
  try {
    const raw = Buffer.from(header.slice('Basic '.length).trim(), 'base64').toString('utf8');
    const colon = raw.indexOf(':');
    if (colon < 0) return undefined;
    return [decodeURIComponent(raw.slice(0, colon)), decodeURIComponent(raw.slice(colon + 1))];
  } catch {
    return undefined;
  }
}

/** Counts this Basic login against the account's session limit; false when the limit is reached. */
function takeLoginSlot(state: VrchatState, userId: string): boolean {
  const now = Date.now();
  const windowStart = now - (state.config.sessionLimit.windowSeconds * 1000) / state.timeScale;
  const recent = (state.logins.get(userId) ?? []).filter((t) => t > windowStart);
  if (recent.length >= state.config.sessionLimit.max) {
    state.logins.set(userId, recent);
    return false;
  }
  recent.push(now);
  state.logins.set(userId, recent);
  return true;
}

function basicLogin(state: VrchatState, base: string, req: FastifyRequest, reply: FastifyReply) {
  const creds = decodeBasic(req.headers.authorization ?? '');
  const account = creds && state.accountByLogin(creds[0]);
  if (!creds || !account || account.password !== creds[1])
    return reply.code(401).send(errorBody(401, 'Invalid Username/Email or Password'));
  if (!takeLoginSlot(state, account.userId))
    return reply.code(429).send(errorBody(429, 'Created too many sessions for that user'));

  // A twoFactorAuth cookie from an earlier 2FA on this device lets the login skip 2FA.
  const deviceToken = parseCookies(req.headers.cookie).twoFactorAuth;
  const device = deviceToken ? state.twoFactorTokens.get(deviceToken) : undefined;
  const rememberedDevice = device?.userId === account.userId && device.expiresAt > Date.now();
  const now = Date.now();
  const session: VrcSession = {
    token: `authcookie_${randomUUID()}`,
    userId: account.userId,
    createdAt: now,
    expiresAt: now + AUTH_COOKIE_MS,
    twoFactorDone: !account.totpSecret || rememberedDevice,
    address: req.ip,
  };
  state.sessions.set(session.token, session);
  reply.header('set-cookie', cookie('auth', session.token, session.expiresAt));
  if (!session.twoFactorDone) return reply.send({ requiresTwoFactorAuth: twoFactorMethods(account) });
  const user = state.users.get(account.userId)!;
  user.lastLogin = new Date(now).toISOString();
  return reply.send(toCurrentUser(base, user, account));
}

function completeTwoFactor(state: VrchatState, session: VrcSession, reply: FastifyReply) {
  session.twoFactorDone = true;
  const token = `${randomBytes(24).toString('base64url')}.${randomBytes(48).toString('base64url')}`;
  const expiresAt = Date.now() + TWO_FACTOR_COOKIE_MS;
  state.twoFactorTokens.set(token, { userId: session.userId, expiresAt });
  reply.header('set-cookie', cookie('twoFactorAuth', token, expiresAt));
  return reply.send({ verified: true, enabled: true });
}

function codeOf(body: unknown): string {
  const code = (body as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') throw vrcError(400, '"code" is required');
  return code.trim();
}

export function registerAuthRoutes(api: FastifyInstance, state: VrchatState, baseUrl: () => string): void {
  api.get('/auth/user', async (req, reply) => {
    if (req.headers.authorization?.startsWith('Basic ')) return basicLogin(state, baseUrl(), req, reply);
    const { user, account, session } = requireCaller(state, req, true);
    if (!session.twoFactorDone) return { requiresTwoFactorAuth: twoFactorMethods(account) };
    return toCurrentUser(baseUrl(), user, account);
  });

  api.post('/auth/twofactorauth/totp/verify', async (req, reply) => {
    const { account, session } = requireCaller(state, req, true);
    const code = codeOf(req.body);
    let valid = false;
    if (account.totpSecret) {
      // ±30 s: the current step and its neighbours, like authenticator apps expect.
      valid = await verify({ secret: account.totpSecret, token: code, epochTolerance: 30 })
        .then((r) => r.valid)
        .catch(() => false);
    }
    if (!valid) return { verified: false };
    return completeTwoFactor(state, session, reply);
  });

  api.post('/auth/twofactorauth/otp/verify', async (req, reply) => {
    const { account, session } = requireCaller(state, req, true);
    const code = codeOf(req.body).toLowerCase().replace(/\s+/g, '');
    const index = account.recoveryCodes.indexOf(code);
    if (index < 0) return { verified: false };
    account.recoveryCodes.splice(index, 1);
    return completeTwoFactor(state, session, reply);
  });

  api.get('/auth', async (req) => {
    const { session } = requireCaller(state, req, true);
    return { ok: true, token: session.token };
  });

  api.put('/logout', async (req, reply) => {
    const { session } = requireCaller(state, req, true);
    state.sessions.delete(session.token);
    reply.header('set-cookie', cookie('auth', '', 0, false));
    return { success: { message: 'Ok!', status_code: 200 } };
  });
}
