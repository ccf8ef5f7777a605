import { DiscordAPIError, REST } from '@discordjs/rest';
import { type APIGuildMember, Routes } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { BOT_AUTH, call } from './discord-helpers.js';

const hangout = seedGuildIds.hangout;
const user = seedUserIds.humans[10];

describe('@discordjs/rest against the simulator', () => {
  let sim: RunningSimulator;
  let rest: REST;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    rest = new REST({ api: `${sim.url}/api` }).setToken(discordApp.botToken);
  });
  afterAll(() => sim.close());

  const roles = async () => ((await rest.get(Routes.guildMember(hangout.id, user))) as APIGuildMember).roles;

  it('adds and removes a role below the bot (204, visible in GET member)', async () => {
    expect(await roles()).not.toContain(hangout.roles.Newcomer);
    await rest.put(Routes.guildMemberRole(hangout.id, user, hangout.roles.Newcomer), {
      reason: 'linked VRChat account',
    });
    expect(await roles()).toContain(hangout.roles.Newcomer);
    await rest.delete(Routes.guildMemberRole(hangout.id, user, hangout.roles.Newcomer));
    expect(await roles()).not.toContain(hangout.roles.Newcomer);
  });

  it('refuses roles at or above the bot’s highest role, managed roles and @everyone with 50013', async () => {
    for (const roleId of [hangout.roles.Moderator, hangout.roles.Admin, hangout.roles.VRCLink, hangout.id]) {
      const error = await rest.put(Routes.guildMemberRole(hangout.id, user, roleId)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DiscordAPIError);
      expect(error).toMatchObject({ code: 50013, status: 403, message: 'Missing Permissions' });
    }
  });

  it('answers unknown guild, member and role with 10004, 10007 and 10011, and a foreign guild with 50001', async () => {
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 0,
        (e: DiscordAPIError) => e.code,
      );
    expect(
      await code(rest.put(Routes.guildMemberRole('1300000000000000099', user, hangout.roles.Verified))),
    ).toBe(10004);
    expect(
      await code(
        rest.put(Routes.guildMemberRole(hangout.id, seedUserIds.unaffiliated[3], hangout.roles.Verified)),
      ),
    ).toBe(10007);
    expect(await code(rest.put(Routes.guildMemberRole(hangout.id, user, '1400000000000009999')))).toBe(10011);
    const quiet = seedGuildIds.quietCorner;
    expect(await code(rest.put(Routes.guildMemberRole(quiet.id, user, quiet.roles.Reader)))).toBe(50001);
  });

  it('starts refusing once a moderator moves the bot’s role below the target role', async () => {
    const role = (await rest.get(Routes.guildRole(hangout.id, hangout.roles.VRCLink))) as {
      position: number;
    };
    await call(sim.url, 'PATCH', `/control/discord/guilds/${hangout.id}/roles/${hangout.roles.VRCLink}`, {
      auth: null,
      json: { position: 1 },
    });
    const error = await rest
      .put(Routes.guildMemberRole(hangout.id, user, hangout.roles.Verified))
      .catch((e) => e);
    expect(error).toMatchObject({ code: 50013 });
    await call(sim.url, 'PATCH', `/control/discord/guilds/${hangout.id}/roles/${hangout.roles.VRCLink}`, {
      auth: null,
      json: { position: role.position },
    });
    await rest.put(Routes.guildMemberRole(hangout.id, user, hangout.roles.Verified));
  });
});

describe('rate limiting', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, discordRate: { limit: 2, windowSeconds: 1 } });
  });
  afterAll(() => sim.close());

  it('the REST client finishes 5 sequential calls by waiting on the headers', async () => {
    const rest = new REST({ api: `${sim.url}/api` }).setToken(discordApp.botToken);
    const statuses: number[] = [];
    const waits: number[] = [];
    rest.on('response', (_req, res) => statuses.push(res.status));
    // Emitted when the client holds a request back because the bucket is empty.
    rest.on('rateLimited', (info) => waits.push(info.timeToReset));
    const started = Date.now();
    for (let i = 0; i < 5; i++) await rest.get(Routes.guildRoles(hangout.id));
    // Two per window: the 5th call lands in the third window.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(waits.length).toBeGreaterThanOrEqual(2);
  });

  it('a raw client that ignores the headers gets Discord’s 429', async () => {
    const path = `/api/v10/guilds/${seedGuildIds.danceClub.id}/roles`;
    const first = await call(sim.url, 'GET', path);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(first.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    await call(sim.url, 'GET', path);
    const third = await call(sim.url, 'GET', path);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(third.headers.get('x-ratelimit-scope')).toBe('user');
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(third.body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect((third.body as { retry_after: number }).retry_after).toBeGreaterThan(0);
    // Buckets are per major parameter: the other guild's bucket is untouched.
    const other = await call(sim.url, 'GET', `/api/v10/guilds/${hangout.id}/roles`, { auth: BOT_AUTH });
    expect(other.status).toBe(200);
  });

  it('an injected rate_limit fault answers with the same 429 shape', async () => {
    await call(sim.url, 'POST', '/control/faults', {
      auth: null,
      json: { platform: 'discord', kind: 'rate_limit', count: 1, pathContains: '/users/@me' },
    });
    const res = await call(sim.url, 'GET', '/api/v10/users/@me');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect((await call(sim.url, 'GET', '/api/v10/users/@me')).status).toBe(200);
  });
});
