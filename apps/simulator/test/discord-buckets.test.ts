import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { expectMatchesDiscordSpec } from './contract/discord-spec.js';
import { NOTHING_COUNTED } from './counters.js';
import { call, type Res } from './discord-helpers.js';

const { hangout, danceClub } = seedGuildIds;
const member = seedUserIds.humans[5];
const roleRoute = (guild: string, user: string, role: string) =>
  `/api/v10/guilds/${guild}/members/${user}/roles/${role}`;

interface Counters {
  requests: number;
  rateLimited: number;
  invalid: number;
  firstAt: number | null;
  lastAt: number | null;
  byRoute: Record<string, { requests: number; rateLimited: number }>;
}

// Strict defaults (timeScale 1): the raw tests below never wait for a window, they only fill buckets.
let sim: RunningSimulator;
const control = (method: string, path: string, json?: unknown) =>
  call(sim.url, method, `/control/discord${path}`, { auth: null, json });
const counters = async () => (await control('GET', '/counters')).body as Counters;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
beforeEach(async () => {
  await control('POST', '/reset');
});
afterAll(() => sim.close());

function expectRouteLimited(res: Res, scope: 'user' | 'shared') {
  expect(res.status).toBe(429);
  expect(res.headers.get('x-ratelimit-scope')).toBe(scope);
  expect(res.headers.get('x-ratelimit-global')).toBeNull();
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.body).toMatchObject({ message: 'You are being rate limited.', global: false });
  expect((res.body as { retry_after: number }).retry_after).toBeGreaterThan(0);
}

describe('Discord per-route buckets (strict by default)', () => {
  it('member role adds and removals share one bucket of 10 per 10 s per guild', async () => {
    const answers: Res[] = [];
    for (let i = 0; i < 11; i++) {
      const method = i % 2 ? 'DELETE' : 'PUT';
      answers.push(await call(sim.url, method, roleRoute(hangout.id, member, hangout.roles.Newcomer)));
    }
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(204));
    const hashes = new Set(answers.map((a) => a.headers.get('x-ratelimit-bucket')));
    expect(hashes.size).toBe(1);
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('10');
    expect(answers.slice(0, 10).map((a) => Number(a.headers.get('x-ratelimit-remaining')))).toEqual([
      9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    ]);
    expect(Number(answers[0].headers.get('x-ratelimit-reset-after'))).toBeLessThanOrEqual(10);
    expect(Number(answers[0].headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const limited = answers[10];
    expectRouteLimited(limited, 'user');
    expectMatchesDiscordSpec(
      'DELETE',
      '/guilds/{guild_id}/members/{user_id}/roles/{role_id}',
      429,
      limited.body,
    );
    // A member edit can change roles too: same bucket.
    const edit = await call(sim.url, 'PATCH', `/api/v10/guilds/${hangout.id}/members/${member}`, {
      json: { nick: 'Bucketed' },
    });
    expectRouteLimited(edit, 'user');
    // The bucket is per guild: the other guild's is full.
    const other = await call(sim.url, 'PUT', roleRoute(danceClub.id, seedUserIds.admin, danceClub.roles.DJ));
    expect(other.status).toBe(204);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('9');
  });

  it('message creates: 5 per 5 s per channel', async () => {
    const post = (channel: string) =>
      call(sim.url, 'POST', `/api/v10/channels/${channel}/messages`, { json: { content: 'hi' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(hangout.channels.general)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const sixth = await post(hangout.channels.general);
    expectRouteLimited(sixth, 'user');
    expect(sixth.headers.get('x-ratelimit-limit')).toBe('5');
    expectMatchesDiscordSpec('POST', '/channels/{channel_id}/messages', 429, sixth.body);
    expect((await post(hangout.channels.botLog)).status).toBe(200);
  });

  it('guild role writes are a shared per-resource limit: scope "shared", not an invalid request', async () => {
    let last: Res | undefined;
    for (let i = 0; i < 11; i++)
      last = await call(sim.url, 'POST', `/api/v10/guilds/${hangout.id}/roles`, { json: { name: `r${i}` } });
    expectRouteLimited(last!, 'shared');
    const view = (await control('GET', '/rate-limits')).body as { invalidRequests: Record<string, number> };
    expect(Object.values(view.invalidRequests).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('other routes get 10 per 10 s each, per major parameter', async () => {
    const get = (path: string) => call(sim.url, 'GET', path);
    for (let i = 0; i < 10; i++) expect((await get(`/api/v10/guilds/${hangout.id}/roles`)).status).toBe(200);
    expectRouteLimited(await get(`/api/v10/guilds/${hangout.id}/roles`), 'user');
    expect((await get(`/api/v10/guilds/${danceClub.id}/roles`)).status).toBe(200);
    expect((await get(`/api/v10/guilds/${hangout.id}`)).status).toBe(200);
  });

  it('reports the bucket limits and lets a test change them', async () => {
    const view = (await control('GET', '/rate-limits')).body as Record<string, unknown>;
    expect(view).toMatchObject({
      timeScale: 1,
      routeBuckets: {
        memberRoles: { limit: 10, windowSeconds: 10 },
        messages: { limit: 5, windowSeconds: 5 },
        guildRoles: { limit: 10, windowSeconds: 10 },
        default: { limit: 10, windowSeconds: 10 },
      },
    });
    const patched = await control('PATCH', '/rate-limits', {
      routeBuckets: { messages: { limit: 1, windowSeconds: 60 } },
    });
    expect(patched.body).toMatchObject({ routeBuckets: { messages: { limit: 1, windowSeconds: 60 } } });
    const bad = await control('PATCH', '/rate-limits', { routeBuckets: { messages: { limit: 0 } } });
    expect(bad.status).toBe(400);
  });

  it('counts requests, 429s and invalid requests per route; DELETE /counters starts again', async () => {
    await control('DELETE', '/counters');
    for (let i = 0; i < 11; i++) await call(sim.url, 'GET', `/api/v10/guilds/${hangout.id}/roles`);
    await call(sim.url, 'GET', '/api/v10/users/@me', { auth: 'Bot wrong' });
    const seen = await counters();
    expect(seen).toMatchObject({ requests: 12, rateLimited: 1, invalid: 1 });
    // When the first and the last of them were answered (a bench times each platform's part of a run).
    expect(seen.lastAt).toBeGreaterThanOrEqual(seen.firstAt ?? Infinity);
    expect(seen.byRoute['GET /api/v10/guilds/{guild_id}/roles']).toEqual({ requests: 11, rateLimited: 1 });
    expect(seen.byRoute['GET /api/v10/users/@me']).toEqual({ requests: 1, rateLimited: 0 });
    expect((await control('DELETE', '/counters')).status).toBe(204);
    expect(await counters()).toEqual(NOTHING_COUNTED);
  });
});

describe('embed and command limits', () => {
  const send = (json: unknown) =>
    call(sim.url, 'POST', `/api/v10/channels/${hangout.channels.botLog}/messages`, { json });

  it('refuses embeds over Discord’s limits with 50035 and the field that broke them', async () => {
    const long = await send({ embeds: [{ title: 'x'.repeat(257) }] });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { embeds: { 0: { title: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH' }] } } } },
    });
    const fields = Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' }));
    const many = await send({ embeds: [{ title: 't', fields }] });
    expect(many.body).toMatchObject({ errors: { embeds: { 0: { fields: { _errors: [{}] } } } } });
    const desc = await send({ embeds: [{ description: 'd'.repeat(4097) }] });
    expect(desc.status).toBe(400);
    // Each embed within its own limits, 8,192 characters together: over the 6,000 per message.
    const total = await send({
      embeds: [{ description: 'd'.repeat(4096) }, { description: 'e'.repeat(4096) }],
    });
    expect(total.status).toBe(400);
    expect(total.body).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        embeds: {
          _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' }],
        },
      },
    });
    const fits = await send({
      embeds: [{ title: 't'.repeat(256), description: 'd'.repeat(4096), fields }].map((e) => ({
        ...e,
        fields: e.fields.slice(0, 25),
      })),
    });
    expect(fits.status).toBe(200);
  });

  it('refuses a 101st chat-input command (30032) and more than 200 creates a day (429)', async () => {
    const path = `/api/v10/applications/${discordApp.clientId}/guilds/${hangout.id}/commands`;
    const commands = (prefix: string) =>
      Array.from({ length: 100 }, (_, i) => ({ name: `${prefix}${i}`, description: 'd' }));
    expect((await call(sim.url, 'PUT', path, { json: commands('a') })).status).toBe(200);
    const extra = await call(sim.url, 'POST', path, { json: { name: 'extra', description: 'd' } });
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({
      code: 30032,
      message: 'Maximum number of application commands reached (100)',
    });
    // 100 more new names: 200 creates today. Any further create waits for the day to pass.
    expect((await call(sim.url, 'PUT', path, { json: commands('b') })).status).toBe(200);
    const third = await call(sim.url, 'PUT', path, {
      json: [...commands('b').slice(1), { name: 'c', description: 'd' }],
    });
    expectRouteLimited(third, 'user');
    expect((third.body as { retry_after: number }).retry_after).toBeGreaterThan(3600);
    // Overwriting the same names creates nothing and still works.
    expect((await call(sim.url, 'PUT', path, { json: commands('b') })).status).toBe(200);
  });
});

describe('timeScale and discord.js', () => {
  let fast: RunningSimulator;
  beforeAll(async () => {
    // Windows 20 times shorter: a 10 s bucket resets in 0.5 s.
    fast = await startSimulator({ port: 0, timeScale: 20 });
  });
  afterAll(() => fast.close());

  it('scales every window: Reset-After says the real wait, and the bucket refills after it', async () => {
    const route = roleRoute(hangout.id, member, hangout.roles.Newcomer);
    // Eleven changes at once, so they fall in one 0.5 s window even on a busy machine; should a window end in
    // the middle of them, the next eleven.
    let res: Res | undefined;
    for (let burst = 0; burst < 5 && !res; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 11 }, (_, i) => call(fast.url, i % 2 ? 'DELETE' : 'PUT', route)),
      );
      res = answers.find((a) => a.status === 429);
    }
    expect(res?.status).toBe(429);
    const wait = (res!.body as { retry_after: number }).retry_after;
    expect(wait).toBeLessThanOrEqual(0.5);
    await new Promise((r) => setTimeout(r, wait * 1000 + 20));
    expect((await call(fast.url, 'PUT', route)).status).toBe(204);
  });

  it('@discordjs/rest reads the bucket headers: 40 role changes on one shared bucket, at most one 429', async () => {
    await call(fast.url, 'DELETE', '/control/discord/counters', { auth: null });
    const rest = new REST({ api: `${fast.url}/api` }).setToken(discordApp.botToken);
    const users = seedUserIds.humans.slice(10, 30);
    // discord.js learns a route's bucket hash from its first answer; until then adds and removals queue
    // apart. The product sends its changes one after the other, so it learns both before the bucket fills.
    await rest.put(Routes.guildMemberRole(danceClub.id, users[0], danceClub.roles.Dancer));
    await rest.delete(Routes.guildMemberRole(danceClub.id, users[0], danceClub.roles.DJ));
    await Promise.all(
      users
        .slice(1)
        .flatMap((u) => [
          rest.put(Routes.guildMemberRole(danceClub.id, u, danceClub.roles.Dancer)),
          rest.delete(Routes.guildMemberRole(danceClub.id, u, danceClub.roles.DJ)),
        ]),
    );
    const seen = (await call(fast.url, 'GET', '/control/discord/counters', { auth: null })).body as Counters;
    expect(seen.invalid).toBe(0);
    expect(seen.rateLimited).toBeLessThanOrEqual(1);
    const route = 'PUT /api/v10/guilds/{guild_id}/members/{user_id}/roles/{role_id}';
    expect(seen.byRoute[route].requests - seen.byRoute[route].rateLimited).toBe(20);
  });
});
