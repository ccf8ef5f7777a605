import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { vrchatAccounts, vrchatUserIds } from '../src/vrchat/index.js';
import { basic, call, login, UA } from './vrchat-helpers.js';

const bot = vrchatAccounts.bot;
const dave = vrchatAccounts.dave;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vrchatRate: { capacity: 1000, perSecond: 1000 } });
});
afterAll(() => sim.close());

type Sessions = { accounts: { username: string; loginsInWindow: number; activeSessions: number }[] };
const sessionsOf = async (username: string) =>
  ((await call(sim.url, 'GET', '/control/vrchat/sessions')).body as Sessions).accounts.find(
    (a) => a.username === username,
  )!;

describe('GET /auth/user login flow', () => {
  it('skips 2FA on a later Basic login that brings the twoFactorAuth cookie', async () => {
    const cookie = await login(sim.url, dave);
    const device = cookie.split('; ').find((c) => c.startsWith('twoFactorAuth='))!;
    const again = await call(sim.url, 'GET', '/auth/user', {
      auth: basic(dave.username, dave.password),
      cookie: device,
    });
    expect(again.body).toMatchObject({ id: dave.userId });
    expect(again.cookies.auth).toMatch(/^authcookie_/);
    // Someone else's device cookie does not count.
    const other = await call(sim.url, 'GET', '/auth/user', {
      auth: basic(bot.username, bot.password),
      cookie: device,
    });
    expect(other.body).toEqual({ requiresTwoFactorAuth: ['totp', 'otp'] });
  });

  it('accepts the email address as login name and URL-encoded credentials', async () => {
    const res = await call(sim.url, 'GET', '/auth/user', {
      auth: basic(vrchatAccounts.carol.email, vrchatAccounts.carol.password),
    });
    expect(res.body).toMatchObject({ id: vrchatAccounts.carol.userId, twoFactorAuthEnabled: false });
  });

  it('accepts TOTP codes from the neighbouring time step', async () => {
    const first = await call(sim.url, 'GET', '/auth/user', { auth: basic(dave.username, dave.password) });
    const code = await generate({ secret: dave.totpSecret, epoch: Math.floor(Date.now() / 1000) - 30 });
    const res = await call(sim.url, 'POST', '/auth/twofactorauth/totp/verify', {
      cookie: `auth=${first.cookies.auth}`,
      json: { code },
    });
    expect(res.body).toMatchObject({ verified: true });
    const stale = await generate({ secret: dave.totpSecret, epoch: Math.floor(Date.now() / 1000) - 300 });
    const old = await call(sim.url, 'POST', '/auth/twofactorauth/totp/verify', {
      cookie: `auth=${first.cookies.auth}`,
      json: { code: stale },
    });
    expect(old.body).toEqual({ verified: false });
  });

  it('answers 429 "Created too many sessions for that user" past the session limit', async () => {
    await call(sim.url, 'POST', '/control/vrchat/reset-sessions');
    await call(sim.url, 'PATCH', '/control/vrchat/config', {
      json: { sessionLimit: { max: 4, windowSeconds: 600 } },
    });
    const attempt = () => call(sim.url, 'GET', '/auth/user', { auth: basic(dave.username, dave.password) });
    for (let i = 0; i < 4; i++) expect((await attempt()).status).toBe(200);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: { message: 'Created too many sessions for that user', status_code: 429 },
    });
    expect(refused.cookies.auth).toBeUndefined();
    expect((await sessionsOf(dave.username)).loginsInWindow).toBe(4);
    // Wrong passwords don't create sessions and don't count.
    const wrong = await call(sim.url, 'GET', '/auth/user', { auth: basic(bot.username, 'x') });
    expect(wrong.status).toBe(401);

    await call(sim.url, 'POST', '/control/vrchat/reset-sessions');
    expect((await attempt()).status).toBe(200);
    await call(sim.url, 'PATCH', '/control/vrchat/config', {
      json: { sessionLimit: { max: 10, windowSeconds: 3600 } },
    });
  });
});

describe('faults', () => {
  it('applies injected faults to /api/1 only', async () => {
    const cookie = await login(sim.url, vrchatAccounts.carol);
    await call(sim.url, 'POST', '/control/faults', {
      json: { platform: 'vrchat', kind: 'server_error', count: 1, pathContains: '/users/' },
    });
    const failed = await call(sim.url, 'GET', `/users/${vrchatUserIds.Lumi}`, { cookie });
    expect(failed.status).toBe(502);
    expect((await call(sim.url, 'GET', `/users/${vrchatUserIds.Lumi}`, { cookie })).status).toBe(200);
  });

  it('counts a slowed request as in flight until it is carried out, even after its client gave up', async () => {
    const cookie = await login(sim.url, vrchatAccounts.carol);
    const inFlight = async () =>
      ((await call(sim.url, 'GET', '/control/faults/in-flight')).body as { delayed: number }).delayed;
    await call(sim.url, 'POST', '/control/faults', {
      json: { platform: 'vrchat', kind: 'slow', delayMs: 3000, count: 1, pathContains: '/users/' },
    });
    const gaveUp = await fetch(`${sim.url}/api/1/users/${vrchatUserIds.Lumi}`, {
      headers: { 'user-agent': UA, cookie },
      signal: AbortSignal.timeout(100),
    }).catch((err: unknown) => err);
    expect(gaveUp).toBeInstanceOf(Error);
    expect(await inFlight()).toBe(1);
    // Ends once the simulator carried the request out (never, if a given-up request were not counted down).
    while ((await inFlight()) > 0) await new Promise((r) => setTimeout(r, 50));
  });
});

describe('User-Agent', () => {
  it('is required on every /api/1 route, logged in or not', async () => {
    const cookie = await login(sim.url, vrchatAccounts.carol);
    for (const [method, path] of [
      ['GET', '/auth/user'],
      ['GET', `/users/${vrchatUserIds.Lumi}`],
      ['POST', '/auth/twofactorauth/totp/verify'],
      ['PUT', '/logout'],
      ['GET', '/no/such/route'],
    ]) {
      const res = await call(sim.url, method, path, { cookie, ua: null });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toMatchObject({ error: { status_code: 403 } });
    }
  });
});

describe('pipeline WebSocket', () => {
  const open = (token: string) =>
    new Promise<{ ws: WebSocket; first: Promise<string> }>((resolve, reject) => {
      const ws = new WebSocket(`${sim.url.replace(/^http/, 'ws')}/vrchat/pipeline?authToken=${token}`);
      const first = new Promise<string>((r) => ws.once('message', (d) => r(String(d))));
      ws.once('open', () => resolve({ ws, first }));
      ws.once('error', reject);
    });

  it('keeps a live session connected', async () => {
    const cookie = await login(sim.url, vrchatAccounts.carol);
    const { ws } = await open(cookie.slice('auth='.length));
    await new Promise((r) => setTimeout(r, 100));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('rejects an unknown authToken with an error message', async () => {
    const { ws, first } = await open('authcookie_nope');
    expect(JSON.parse(await first)).toEqual({ err: "authToken doesn't correspond with an active session" });
    await new Promise((r) => ws.once('close', r));
  });
});
