import { once } from 'node:events';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { discordApp } from '../src/demo.js';

/** Small HTTP helpers for the Discord simulator tests (plain fetch, no client library). */

export const BOT_AUTH = `Bot ${discordApp.botToken}`;

/** Discord's required bot User-Agent form; plain fetch would send `node`, which the API refuses. */
/**
 * The gateway without its 5 s identify window, for tests about something else that IDENTIFY many times in a
 * row (the window itself is tested in discord-shards.test.ts).
 */
export const FAST_IDENTIFY = { identifyWindowMs: 0 };

export const BOT_UA = 'DiscordBot (https://github.com/vrclink/simulator-tests, 1.0.0)';

export interface Res {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: {
    auth?: string | null;
    json?: unknown;
    form?: Record<string, string>;
    headers?: Record<string, string>;
    /** Wait out a global 429 and retry, as a real client does (default true). */
    retryGlobal?: boolean;
  } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (path.startsWith('/api/') && !Object.keys(headers).some((h) => h.toLowerCase() === 'user-agent'))
    headers['User-Agent'] = BOT_UA;
  const auth = opts.auth === undefined ? BOT_AUTH : opts.auth;
  if (auth) headers.Authorization = auth;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await fetch(base + path, { method, headers, body, redirect: 'manual' });
  if (res.status === 429 && res.headers.get('x-ratelimit-global') && opts.retryGlobal !== false) {
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
    return call(base, method, path, opts);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // HTML pages and empty bodies stay text.
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export const REDIRECT_URI = 'http://127.0.0.1:5999/auth/discord/callback';

/** Posts the authorize page's form as a browser does (this app's client id; 'authorize' unless told); the raw answer. */
export function postAuthorize(base: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${base}/oauth2/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: discordApp.clientId,
      decision: 'authorize',
      ...fields,
    }).toString(),
  });
}

/** Drives the authorize page's form like a browser would and returns the redirect Location. */
export async function authorize(
  base: string,
  opts: {
    userId: string;
    scope: string;
    state?: string;
    redirectUri?: string;
    decision?: string;
    extra?: Record<string, string>;
  },
): Promise<URL> {
  // The test's redirect is registered for the application, as an operator does in the developer portal.
  if (opts.redirectUri === undefined) await registerRedirectUri(base, REDIRECT_URI);
  const res = await postAuthorize(base, {
    response_type: 'code',
    scope: opts.scope,
    redirect_uri: opts.redirectUri ?? REDIRECT_URI,
    state: opts.state ?? 'xyz',
    user_id: opts.userId,
    decision: opts.decision ?? 'authorize',
    ...opts.extra,
  });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location)
    throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  return new URL(location);
}

/** Registers `uri` for the simulated application (developer portal → OAuth2 → Redirects). */
export async function registerRedirectUri(base: string, uri: string): Promise<void> {
  const res = await fetch(`${base}/control/discord/application/redirect-uris`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri }),
  });
  if (!res.ok) throw new Error(`registering ${uri} answered ${res.status}: ${await res.text()}`);
}

export const clientForm = { client_id: discordApp.clientId, client_secret: discordApp.clientSecret };

/** A user access token with `scope`, obtained through the real authorize + code exchange. */
export async function userToken(base: string, userId: string, scope: string) {
  const code = (await authorize(base, { userId, scope })).searchParams.get('code')!;
  const res = await call(base, 'POST', '/api/v10/oauth2/token', {
    auth: null,
    form: { ...clientForm, grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(res.body)}`);
  return res.body as { access_token: string; refresh_token: string; scope: string };
}

/** Polls until `check` returns a truthy value (for gateway-driven effects). */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 5000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** An unmodified discord.js bot (Guilds and Server Members intents) logged in to the simulator, once it is ready. */
export async function readyBot(simulatorUrl: string): Promise<Client> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
    rest: { api: `${simulatorUrl}/api` },
  });
  const ready = once(client, Events.ClientReady);
  await client.login(discordApp.botToken);
  await ready;
  return client;
}
