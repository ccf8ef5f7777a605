import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { vrchatBots } from '../src/demo.js';
import { LAX_VRCHAT_RATE } from '../src/vrchat/ratelimit.js';
import { vrchatAccounts, vrchatGroupIds } from '../src/vrchat/seed.js';
import { expectMatchesVrchatSpec } from './contract/vrchat-spec.js';
import { call, hangout, login } from './vrchat-helpers.js';

/** VRChat at the size of many communities: bulk groups, several bot accounts, the 100-group limit, time scale. */

type BulkGroup = {
  id: string;
  name: string;
  ownerId: string;
  botUserId: string | null;
  roleIds: Record<string, string>;
};
type Account = { userId: string; username: string; password: string; totpSecret: string };

const tooMany = (name: string) => ({
  error: {
    message: `${name} can't join right now because they're in too many groups\u2024`,
    status_code: 403,
  },
});

describe('bulk groups and bot accounts', () => {
  let sim: RunningSimulator;
  const control = (method: string, path: string, json?: unknown) =>
    call(sim.url, method, `/control/vrchat${path}`, json === undefined ? {} : { json });

  // A lax budget: these tests are about the world, not the rate limit.
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, vrchatRate: LAX_VRCHAT_RATE });
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    await control('POST', '/reset');
  });

  it('seeds three bot accounts with TOTP (demo.ts vrchatBots) and makes more on request', async () => {
    const sessions = (await control('GET', '/sessions')).body as { accounts: { username: string }[] };
    expect(sessions.accounts.map((a) => a.username)).toEqual(
      expect.arrayContaining(vrchatBots.map((b) => b.username)),
    );
    const made = await control('POST', '/bot-accounts', { count: 2 });
    expect(made.status).toBe(201);
    const accounts = (made.body as { accounts: Account[] }).accounts;
    expect(accounts.map((a) => a.username)).toEqual(['vrclink-bot-4', 'vrclink-bot-5']);
    // Each logs in with its own password and TOTP secret.
    for (const account of [...vrchatBots, ...accounts]) {
      const me = await call(sim.url, 'GET', '/auth/user', { cookie: await login(sim.url, account) });
      expect(me.status).toBe(200);
    }
    // Numbered on; after a reset the same numbers (and secrets) come again.
    const next = (await control('POST', '/bot-accounts', { count: 1 })).body as { accounts: Account[] };
    expect(next.accounts[0].username).toBe('vrclink-bot-6');
    await control('POST', '/reset');
    const again = (await control('POST', '/bot-accounts', { count: 1 })).body as { accounts: Account[] };
    expect(again.accounts[0]).toEqual(accounts[0]);
  });

  it('creates 1,100 groups served by 11 bot accounts, 100 each, and refuses a 101st for one account', async () => {
    const extra = ((await control('POST', '/bot-accounts', { count: 8 })).body as { accounts: Account[] })
      .accounts;
    // The seeded bot is already in the two seeded groups: it takes 98.
    const bots = [vrchatAccounts.bot2.userId, vrchatAccounts.bot3.userId, ...extra.map((a) => a.userId)];
    const first = await control('POST', '/bulk-groups', { count: 1_000, botUserIds: bots });
    expect(first.status).toBe(201);
    const second = await control('POST', '/bulk-groups', {
      count: 98,
      botUserIds: [vrchatAccounts.bot.userId],
      joinState: 'open',
    });
    expect(second.status).toBe(201);
    const groups = [
      ...(first.body as { groups: BulkGroup[] }).groups,
      ...(second.body as { groups: BulkGroup[] }).groups,
    ];
    expect(groups).toHaveLength(1_098);
    expect(new Set(groups.map((g) => g.id)).size).toBe(1_098);
    const perBot = new Map<string, number>();
    for (const g of groups) perBot.set(g.botUserId!, (perBot.get(g.botUserId!) ?? 0) + 1);
    expect([...perBot.values()]).toEqual(Array(11).fill(100).slice(0, 10).concat([98]));

    // One more for the seeded bot would pass VRChat's limit: refused, nothing made (the numbering goes on at 1099).
    const over = await control('POST', '/bulk-groups', { count: 1, botUserIds: [vrchatAccounts.bot.userId] });
    expect(over.status).toBe(409);
    expect((over.body as { message: string }).message).toBe(
      'VRCLink Bot is in 100 groups: 1 more would pass the limit of 100 groups per account. Give more bot accounts.',
    );
    const next = (await control('POST', '/bulk-groups', { count: 1 })).body as { groups: BulkGroup[] };
    expect(next.groups[0].name).toBe('Bulk Group 1099');

    // A bulk group through the API as its bot sees it: the owner and the bot, the usual roles, the Bot role's rights.
    const g = groups[0];
    const bot = extra.find((a) => a.userId === g.botUserId) ?? vrchatAccounts.bot2;
    const cookie = await login(sim.url, bot);
    const group = await call(sim.url, 'GET', `/groups/${g.id}?includeRoles=true`, { cookie });
    expect(group.status).toBe(200);
    expectMatchesVrchatSpec('GET', '/groups/{groupId}', 200, group.body);
    expect(group.body).toMatchObject({
      name: 'Bulk Group 0001',
      ownerId: g.ownerId,
      joinState: 'request',
      memberCount: 2,
      myMember: { userId: g.botUserId, roleIds: [g.roleIds.bot] },
    });
    const roles = (group.body as { roles: { name: string }[] }).roles.map((r) => r.name);
    expect(roles).toEqual(['Owner', 'Moderator', 'Bot', 'Verified 18+', 'Linked', 'Event Host']);
    const members = await call(sim.url, 'GET', `/groups/${g.id}/members?n=100`, { cookie });
    expect((members.body as { userId: string }[]).map((m) => m.userId)).toEqual([g.ownerId]);
    // The account's own groups: 100.
    const mine = await call(sim.url, 'GET', `/users/${g.botUserId}/groups`, { cookie });
    expect((mine.body as unknown[]).length).toBe(100);
  }, 120_000);

  it('fills bulk groups with members on request and refuses nonsense in sentences', async () => {
    const res = await control('POST', '/bulk-groups', { count: 3, membersPerGroup: 250 });
    const groups = (res.body as { groups: BulkGroup[] }).groups;
    expect(groups.map((g) => g.botUserId)).toEqual([null, null, null]);
    for (const g of groups) {
      const detail = (await control('GET', `/groups/${g.id}`)).body as { memberships: unknown[] };
      expect(detail.memberships).toHaveLength(251);
    }
    const twice = await control('POST', '/bulk-groups', {
      count: 2,
      botUserIds: [vrchatAccounts.bot2.userId, vrchatAccounts.bot2.userId],
    });
    expect(twice).toMatchObject({ status: 400, body: { message: 'botUserIds lists an account twice.' } });
    const unknown = await control('POST', '/bulk-groups', { count: 1, botUserIds: ['usr_nobody'] });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'User not found: usr_nobody' } });
    expect((await control('POST', '/bulk-groups', { count: 0 })).status).toBe(400);
  });
});

describe('the 100-group limit, everywhere someone joins', () => {
  let sim: RunningSimulator;
  const control = (method: string, path: string, json?: unknown) =>
    call(sim.url, method, `/control/vrchat${path}`, json === undefined ? {} : { json });
  const carol = vrchatAccounts.carol;
  let bot: string;
  let carolCookie: string;
  /** A request-only group the seeded bot manages, and the groups that fill Carol's 100. */
  let requestGroup: BulkGroup;
  let carolsGroups: BulkGroup[];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, vrchatRate: LAX_VRCHAT_RATE });
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    await control('POST', '/reset');
    bot = await login(sim.url);
    carolCookie = await login(sim.url, carol);
    const made = await control('POST', '/bulk-groups', { count: 1, botUserIds: [vrchatAccounts.bot.userId] });
    requestGroup = (made.body as { groups: BulkGroup[] }).groups[0];
    // Invited to the Hangout while there was room.
    expect(
      (
        await call(sim.url, 'POST', `/groups/${hangout}/invites`, {
          cookie: bot,
          json: { userId: carol.userId },
        })
      ).status,
    ).toBe(200);
    const filled = await control('POST', '/bulk-groups', { count: 100, botUserIds: [carol.userId] });
    carolsGroups = (filled.body as { groups: BulkGroup[] }).groups;
  });

  it('refuses joining an open group at the limit, and lets her join once she left one', async () => {
    const path = `/groups/${vrchatGroupIds.danceClub}/join`;
    const res = await call(sim.url, 'POST', path, { cookie: carolCookie });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(tooMany('Carol Casual'));
    expectMatchesVrchatSpec('POST', '/groups/{groupId}/join', 403, res.body);
    expect(
      (await call(sim.url, 'POST', `/groups/${carolsGroups[0].id}/leave`, { cookie: carolCookie })).status,
    ).toBe(200);
    expect((await call(sim.url, 'POST', path, { cookie: carolCookie })).status).toBe(200);
  });

  it('refuses accepting an invite at the limit and keeps the invite', async () => {
    const res = await call(sim.url, 'POST', `/groups/${hangout}/join`, { cookie: carolCookie });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(tooMany('Carol Casual'));
    const hangoutState = (await control('GET', `/groups/${hangout}`)).body as {
      memberships: { userId: string; status: string }[];
    };
    expect(hangoutState.memberships.find((m) => m.userId === carol.userId)?.status).toBe('invited');
  });

  it('refuses inviting someone at the limit', async () => {
    await call(sim.url, 'DELETE', `/groups/${hangout}/invites/${carol.userId}`, { cookie: bot });
    const res = await call(sim.url, 'POST', `/groups/${hangout}/invites`, {
      cookie: bot,
      json: { userId: carol.userId },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(tooMany('Carol Casual'));
    expectMatchesVrchatSpec('POST', '/groups/{groupId}/invites', 403, res.body);
    // The owner's page refuses it too.
    const page = await call(sim.url, 'POST', `/home/group/${hangout}/members/invites`, {
      form: { userId: carol.userId },
    });
    expect(page.status).toBe(403);
    expect(page.body).toContain("Carol Casual can't join right now because they're in too many groups");
  });

  it('lets her ask to join, but refuses accepting the request (API and the owner’s page)', async () => {
    const asked = await call(sim.url, 'POST', `/groups/${requestGroup.id}/join`, { cookie: carolCookie });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ membershipStatus: 'requested' });
    const accept = await call(sim.url, 'PUT', `/groups/${requestGroup.id}/requests/${carol.userId}`, {
      cookie: bot,
      json: { action: 'accept' },
    });
    expect(accept.status).toBe(403);
    expect(accept.body).toEqual(tooMany('Carol Casual'));
    const page = await call(
      sim.url,
      'POST',
      `/home/group/${requestGroup.id}/members/requests/${carol.userId}`,
      {
        form: { action: 'accept' },
      },
    );
    expect(page.status).toBe(403);
    const detail = (await control('GET', `/groups/${requestGroup.id}`)).body as {
      memberships: { userId: string; status: string }[];
    };
    expect(detail.memberships.find((m) => m.userId === carol.userId)?.status).toBe('requested');
  });

  it('refuses the owner adding her directly (control API)', async () => {
    const res = await control('POST', `/groups/${requestGroup.id}/members/${carol.userId}`, {});
    expect(res).toMatchObject({
      status: 403,
      body: { message: "Carol Casual can't join right now because they're in too many groups\u2024" },
    });
  });
});

describe('several bot accounts: a budget and a block each (strict limits)', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
  });
  afterAll(() => sim.close());

  it('blocks one account that spent its budget while another goes on', async () => {
    const made = await call(sim.url, 'POST', '/control/vrchat/bot-accounts', { json: { count: 1 } });
    const bot4 = (made.body as { accounts: Account[] }).accounts[0];
    // Three logins from one address: one address-keyed request each, within its burst of 5.
    const [one, two, four] = [
      await login(sim.url, vrchatAccounts.bot),
      await login(sim.url, vrchatAccounts.bot2),
      await login(sim.url, bot4),
    ];
    const read = async (cookie: string) =>
      (await call(sim.url, 'GET', `/groups/${hangout}`, { cookie })).status;
    /** Reads until the first 429 (the burst is 5, refilling 1/s: a handful of calls at most). */
    const spend = async (cookie: string) => {
      const statuses = [];
      while (statuses.at(-1) !== 429 && statuses.length < 50) statuses.push(await read(cookie));
      return statuses;
    };
    const first = await spend(one);
    expect(first.at(-1)).toBe(429);
    expect(first.length).toBeGreaterThan(3);
    // Blocked: every call now is refused (and lengthens the block).
    expect(await read(one)).toBe(429);
    // The others have budgets of their own…
    expect(await read(two)).toBe(200);
    expect(await read(four)).toBe(200);
    // …and blocks of their own: the second account's starts when it spends its budget; the first stays blocked.
    expect((await spend(two)).at(-1)).toBe(429);
    expect(await read(two)).toBe(429);
    expect(await read(four)).toBe(200);
    expect(await read(one)).toBe(429);
  });
});

describe('time scale reaches the session limit', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timeScale: 3_600 });
  });
  afterAll(() => sim.close());

  it('answers the scale in /config and counts logins within the scaled window', async () => {
    const config = await call(sim.url, 'PATCH', '/control/vrchat/config', {
      json: { sessionLimit: { max: 1, windowSeconds: 3_600 } },
    });
    expect(config.body).toMatchObject({ timeScale: 3_600, sessionLimit: { max: 1, windowSeconds: 3_600 } });
    await login(sim.url, vrchatAccounts.carol);
    // An hour at 3,600x is a second: a second login gets in soon (unscaled, not within the hour).
    let status = 0;
    for (let i = 0; i < 300 && status !== 200; i++) {
      status = (await call(sim.url, 'GET', '/auth/user', { auth: basicCarol() })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});

const basicCarol = () => `Basic ${btoa(`${vrchatAccounts.carol.username}:${vrchatAccounts.carol.password}`)}`;
