import './with-resolvers.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VRChat } from 'vrchat';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { vrchatAccounts, vrchatGroupIds, vrchatRoleIds, vrchatUserIds } from '../src/vrchat/index.js';
import { call } from './vrchat-helpers.js';

/** The unmodified `vrchat` SDK against the simulator, with only its base URLs changed. */

// Every SDK instance adds process 'beforeExit' listeners; more than ten clients is expected here.
process.setMaxListeners(30);

let sim: RunningSimulator;
const clients: VRChat[] = [];

const application = { name: 'VRCLinkTest', version: '1.0.0', contact: 'test@vrclink.local' };
type Credentials = { username: string; password: string; totpSecret?: string };

function client(credentials?: Credentials): VRChat {
  const vrchat = new VRChat({
    baseUrl: `${sim.url}/api/1`,
    application,
    pipeline: { baseUrl: `${sim.url.replace(/^http/, 'ws')}/vrchat/pipeline` },
    ...(credentials && { authentication: { credentials } }),
  });
  clients.push(vrchat);
  return vrchat;
}

const bot = vrchatAccounts.bot;

async function loginsOf(username: string): Promise<number> {
  const sessions = (await call(sim.url, 'GET', '/control/vrchat/sessions')).body as {
    accounts: { username: string; loginsInWindow: number }[];
  };
  return sessions.accounts.find((a) => a.username === username)?.loginsInWindow ?? 0;
}
const botCredentials = { username: bot.username, password: bot.password, totpSecret: bot.totpSecret };

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vrchatRate: { capacity: 1000, perSecond: 1000 } });
});
afterEach(async () => {
  await call(sim.url, 'DELETE', '/control/faults');
});
afterAll(async () => {
  // The SDK keeps its pipeline socket open until told otherwise.
  for (const c of clients) c.pipeline.close();
  await sim.close();
});

describe('vrchat SDK against the simulator', () => {
  it('logs in through TOTP and reads users and groups', async () => {
    const vrchat = client(botCredentials);
    const me = await vrchat.getCurrentUser({ throwOnError: true });
    expect(me.data).toMatchObject({ id: bot.userId, displayName: 'VRCLink Bot' });

    const aurora = await vrchat.getUser({
      path: { userId: vrchatUserIds['Aurora Skye'] },
      throwOnError: true,
    });
    expect(aurora.data).toMatchObject({
      displayName: 'Aurora Skye',
      ageVerificationStatus: '18+',
      ageVerified: true,
    });

    const found = await vrchat.searchUsers({ query: { search: 'glimmer', n: 10 }, throwOnError: true });
    expect(found.data.map((u) => u.id)).toEqual([vrchatUserIds.Glimmer]);

    const group = await vrchat.getGroup({
      path: { groupId: vrchatGroupIds.hangout },
      query: { includeRoles: true },
      throwOnError: true,
    });
    expect(group.data).toMatchObject({ name: 'VRC Hangout Official', joinState: 'request' });
    expect(group.data.roles?.map((r) => r.name)).toContain('Bot');

    const members = await vrchat.getGroupMembers({
      path: { groupId: vrchatGroupIds.hangout },
      query: { n: 100, offset: 0 },
      throwOnError: true,
    });
    // Every other member, never the caller (as VRChat documents): the bot's own membership is myMember.
    expect(members.data.length).toBeGreaterThan(0);
    expect(members.data.map((m) => m.userId)).not.toContain(bot.userId);
    expect(group.data.myMember?.userId).toBe(bot.userId);

    expect(await loginsOf(bot.username)).toBe(1);
  });

  it('adds and removes group roles, and sees the rank error', async () => {
    const vrchat = client(botCredentials);
    const path = {
      groupId: vrchatGroupIds.hangout,
      userId: vrchatUserIds['Iris Nova'],
      groupRoleId: vrchatRoleIds.hangout.verified18,
    };
    const added = await vrchat.addGroupMemberRole({ path, throwOnError: true });
    expect(added.data).toEqual([vrchatRoleIds.hangout.verified18]);
    const removed = await vrchat.removeGroupMemberRole({ path, throwOnError: true });
    expect(removed.data).toEqual([]);

    const denied = await vrchat.addGroupMemberRole({
      path: { ...path, groupRoleId: vrchatRoleIds.hangout.moderator },
    });
    expect(denied.error?.statusCode).toBe(403);
    expect(denied.error?.message).toContain('same or higher rank');
  });

  it('logs in again after the server drops its session', async () => {
    const vrchat = client(botCredentials);
    await vrchat.getCurrentUser({ throwOnError: true });
    const dropped = await call(sim.url, 'POST', '/control/vrchat/invalidate-sessions', {
      json: { userId: bot.userId },
    });
    expect((dropped.body as { invalidated: number }).invalidated).toBeGreaterThan(0);

    const before = await loginsOf(bot.username);

    const user = await vrchat.getUser({ path: { userId: vrchatUserIds.Umbra }, throwOnError: true });
    expect(user.data.displayName).toBe('Umbra');
    expect(await loginsOf(bot.username)).toBe(before + 1);
  });

  it('surfaces an injected 429 as an error with status 429 (the SDK does not retry)', async () => {
    const vrchat = client(botCredentials);
    await vrchat.getCurrentUser({ throwOnError: true });
    await call(sim.url, 'POST', '/control/faults', {
      json: { platform: 'vrchat', kind: 'rate_limit', count: 3 },
    });
    for (let i = 0; i < 3; i++) {
      const res = await vrchat.getUser({ path: { userId: vrchatUserIds.Lumi } });
      expect(res.error?.statusCode).toBe(429);
      expect(res.error?.message).toBe('Too many requests');
      expect(res.response?.headers.get('retry-after')).toBeNull();
    }
    await expect(
      vrchat.getUser({ path: { userId: vrchatUserIds.Lumi }, throwOnError: true }),
    ).resolves.toMatchObject({
      data: { displayName: 'Lumi' },
    });
  });

  it('gets "Created too many sessions for that user" after too many logins', async () => {
    await call(sim.url, 'PATCH', '/control/vrchat/config', {
      json: { sessionLimit: { max: 3, windowSeconds: 3600 } },
    });
    try {
      const carol = vrchatAccounts.carol;
      const vrchat = client();
      for (let i = 0; i < 3; i++) {
        const ok = await vrchat.login({ username: carol.username, password: carol.password });
        expect(ok.data).toMatchObject({ id: carol.userId });
      }
      const refused = await vrchat.login({ username: carol.username, password: carol.password });
      expect(refused.error?.statusCode).toBe(429);
      expect(refused.error?.message).toBe('Created too many sessions for that user');
    } finally {
      await call(sim.url, 'PATCH', '/control/vrchat/config', {
        json: { sessionLimit: { max: 10, windowSeconds: 3600 } },
      });
      await call(sim.url, 'POST', '/control/vrchat/reset-sessions');
    }
  });

  it('a wrong password ends as a 401 error', async () => {
    const vrchat = client({ username: bot.username, password: 'wrong', totpSecret: bot.totpSecret });
    const res = await vrchat.getCurrentUser();
    expect(res.error?.statusCode).toBe(401);
    expect(res.error?.message).toBe('Invalid Username/Email or Password');
  });
});

describe('without a User-Agent', () => {
  it('raw requests get 403', async () => {
    const res = await fetch(`${sim.url}/api/1/auth/user`, { headers: { 'user-agent': '' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { status_code: 403 } });
    // fetch's own default ("node") counts as none.
    expect((await fetch(`${sim.url}/api/1/auth/user`)).status).toBe(403);
  });
});
