import { generate } from 'otplib';
import { vrchatAccounts, vrchatGroupIds, vrchatRoleIds } from '../src/vrchat/seed.js';

/** Plain-fetch helpers for the VRChat simulator tests. */

export const UA = 'VRCLinkTest/1.0.0 (test@vrclink.local)';
export const API = '/api/1';

/** The seeded groups the tests act on, and the Hangout group's roles. */
export const hangout = vrchatGroupIds.hangout;
export const dance = vrchatGroupIds.danceClub;
export const hangoutRoles = vrchatRoleIds.hangout;

export interface Res {
  status: number;
  headers: Headers;
  body: unknown;
  /** name=value of every Set-Cookie. */
  cookies: Record<string, string>;
}

export const basic = (username: string, password: string) =>
  `Basic ${btoa(`${encodeURIComponent(username)}:${encodeURIComponent(password)}`)}`;

export async function call(
  base: string,
  method: string,
  path: string,
  opts: {
    cookie?: string;
    auth?: string;
    json?: unknown;
    form?: Record<string, string>;
    ua?: string | null;
  } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  // fetch sends "node" when no User-Agent is given; '' makes it send an empty one.
  headers['user-agent'] = opts.ua === null ? '' : (opts.ua ?? UA);
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.auth) headers.authorization = opts.auth;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const url =
    path.startsWith('/api/') || path.startsWith('/control/') || path.startsWith('/home') ? path : API + path;
  const res = await fetch(base + url, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // HTML pages stay text.
  }
  const cookies: Record<string, string> = {};
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const eq = pair.indexOf('=');
    cookies[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { status: res.status, headers: res.headers, body: parsed, cookies };
}

type Account = { username: string; password: string; totpSecret?: string };

/** Basic login plus TOTP when the account has it; returns the Cookie header to use afterwards. */
export async function login(base: string, account: Account = vrchatAccounts.bot): Promise<string> {
  const first = await call(base, 'GET', '/auth/user', { auth: basic(account.username, account.password) });
  if (first.status !== 200) throw new Error(`login failed: ${first.status} ${JSON.stringify(first.body)}`);
  const auth = `auth=${first.cookies.auth}`;
  if (!(first.body as { requiresTwoFactorAuth?: string[] }).requiresTwoFactorAuth) return auth;
  const code = await generate({ secret: account.totpSecret! });
  const verified = await call(base, 'POST', '/auth/twofactorauth/totp/verify', {
    cookie: auth,
    json: { code },
  });
  if (!(verified.body as { verified?: boolean }).verified) throw new Error('2FA failed');
  return `${auth}; twoFactorAuth=${verified.cookies.twoFactorAuth}`;
}
