import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { BANNED_MESSAGE } from '../src/discord/edge.js';
import { seedGuildIds } from '../src/discord/seed.js';
import { BOT_UA, call, REDIRECT_URI } from './discord-helpers.js';

const hangout = seedGuildIds.hangout;

let sim: RunningSimulator;
const control = (method: string, path: string, json?: unknown) =>
  call(sim.url, method, `/control/discord${path}`, { auth: null, json });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, redirectUris: [REDIRECT_URI] });
});
beforeEach(async () => {
  await control('POST', '/reset');
});
afterAll(() => sim.close());

describe('the global rate limit (50/s per bot by default)', () => {
  it('answers 429 with the global headers and body once the bot exceeds its limit', async () => {
    await control('PATCH', '/rate-limits', { globalRateLimitPerSecond: 5 });
    // Different routes: the per-route buckets are far from empty, only the global one runs out.
    const paths = ['/users/@me', `/guilds/${hangout.id}`, `/guilds/${hangout.id}/roles`, '/gateway/bot'];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(sim.url, 'GET', `/api/v10${paths[i % paths.length]}`, { retryGlobal: false }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(3);
    for (const res of limited) {
      expect(res.headers.get('x-ratelimit-global')).toBe('true');
      expect(res.headers.get('x-ratelimit-scope')).toBe('global');
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body).toMatchObject({ message: 'You are being rate limited.', global: true });
      const retry = (res.body as { retry_after: number }).retry_after;
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(1);
    }
    // Unauthenticated callers are limited per IP, apart from the bot.
    const anon = await call(sim.url, 'GET', '/api/v10/gateway', { auth: null, retryGlobal: false });
    expect(anon.status).toBe(200);
    // Interaction callbacks are exempt: an unknown interaction is a 404, not a 429.
    const callback = await call(sim.url, 'POST', '/api/v10/interactions/1/tok/callback', {
      auth: null,
      json: { type: 1 },
      retryGlobal: false,
    });
    expect(callback.status).toBe(404);
  });

  it('@discordjs/rest waits out global 429s and completes every call', async () => {
    await control('PATCH', '/rate-limits', { globalRateLimitPerSecond: 4 });
    const rest = new REST({ api: `${sim.url}/api` }).setToken(discordApp.botToken);
    const statuses: number[] = [];
    rest.on('response', (_req, res) => statuses.push(res.status));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        rest.get(i % 2 ? Routes.guildRoles(hangout.id) : Routes.guild(hangout.id)),
      ),
    );
    expect(results).toHaveLength(10);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  });
});

describe('the invalid-request limit (10,000 per 10 min per IP by default)', () => {
  it('bans the IP after too many 401/403/429 answers: every /api request then gets the block', async () => {
    await control('PATCH', '/rate-limits', { invalidRequestLimit: 5, invalidRequestBanMs: 60_000 });
    for (let i = 0; i < 5; i++)
      expect((await call(sim.url, 'GET', '/api/v10/users/@me', { auth: 'Bot wrong' })).status).toBe(401);
    const blocked = await call(sim.url, 'GET', '/api/v10/users/@me');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ message: BANNED_MESSAGE, code: 0 });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(55);
    expect(blocked.headers.get('x-ratelimit-scope')).toBeNull();
    const rest = await call(sim.url, 'GET', '/api/v10/gateway/bot', { auth: null });
    expect(rest.status).toBe(429);
    // Outside the API (control, CDN, pages) nothing changes.
    const view = await control('GET', '/rate-limits');
    expect(view.status).toBe(200);
    expect(Object.keys((view.body as { bans: object }).bans)).toHaveLength(1);
    expect((await fetch(`${sim.url}/cdn/embed/avatars/0.png`)).status).toBe(200);
    expect((await fetch(`${sim.url}/channels/${hangout.id}`)).status).toBe(200);
    // The control API lifts it.
    expect((await control('DELETE', '/rate-limits/bans')).status).toBe(204);
    expect((await call(sim.url, 'GET', '/api/v10/users/@me')).status).toBe(200);
  });

  it('the ban ends by itself, and answers older than the window do not count', async () => {
    await control('PATCH', '/rate-limits', {
      // Windows of seconds, not milliseconds: the calls inside one must fit it on a busy machine too.
      invalidRequestLimit: 3,
      invalidRequestWindowMs: 2000,
      invalidRequestBanMs: 1500,
    });
    const bad = () => call(sim.url, 'GET', '/api/v10/users/@me', { auth: 'Bot wrong' });
    await bad();
    await bad();
    await new Promise((r) => setTimeout(r, 2100));
    await bad();
    await bad();
    expect((await call(sim.url, 'GET', '/api/v10/users/@me')).status).toBe(200);
    await bad();
    expect((await call(sim.url, 'GET', '/api/v10/users/@me')).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await call(sim.url, 'GET', '/api/v10/users/@me')).status).toBe(200);
  });
});

describe('the bot User-Agent', () => {
  const me = (ua: string) => call(sim.url, 'GET', '/api/v10/users/@me', { headers: { 'User-Agent': ua } });

  it('refuses API requests without `DiscordBot ($url, $versionNumber)` as Cloudflare does (403, 40333)', async () => {
    for (const ua of ['', 'node', 'Mozilla/5.0 (X11; Linux x86_64)', 'DiscordBot', 'python-requests/2.32']) {
      const res = await me(ua);
      expect(res.status, ua).toBe(403);
      expect(res.body).toEqual({ message: 'internal network error', code: 40333 });
    }
    expect((await me(BOT_UA)).status).toBe(200);
    expect((await me('DiscordBot (https://discord.js.org, 2.6.3) Node.js/v20.20.0')).status).toBe(200);
    const token = await call(sim.url, 'POST', '/api/oauth2/token', {
      auth: null,
      headers: { 'User-Agent': 'node' },
      form: { grant_type: 'client_credentials', scope: 'identify' },
    });
    expect(token.status).toBe(403);
  });

  it('leaves the browser redirect, the control API, the CDN and the pages alone', async () => {
    const redirect = await fetch(`${sim.url}/api/oauth2/authorize?client_id=${discordApp.clientId}`, {
      redirect: 'manual',
      headers: { 'User-Agent': 'Mozilla/5.0' },
    });
    expect(redirect.status).toBe(302);
    expect((await fetch(`${sim.url}/control/discord/application`)).status).toBe(200);
    expect((await fetch(`${sim.url}/cdn/embed/avatars/1.png`)).status).toBe(200);
    const page = new URLSearchParams({
      client_id: discordApp.clientId,
      response_type: 'code',
      scope: 'identify',
      redirect_uri: REDIRECT_URI,
    });
    expect((await fetch(`${sim.url}/oauth2/authorize?${page}`)).status).toBe(200);
  });
});
