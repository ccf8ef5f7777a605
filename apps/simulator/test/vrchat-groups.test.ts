import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { vrchatAccounts, vrchatRoleIds, vrchatSeed, vrchatUserIds } from '../src/vrchat/index.js';
import { call, dance, hangout, login, hangoutRoles as roles } from './vrchat-helpers.js';

let sim: RunningSimulator;
let bot: string;
let carol: string;

type Member = { userId: string; membershipStatus: string; roleIds: string[] };
type Audit = { results: { eventType: string; actorId: string; targetId: string; description: string }[] };
const errorOf = (body: unknown) => (body as { error: { message: string } }).error.message;

async function audit(query = ''): Promise<Audit> {
  const res = await call(sim.url, 'GET', `/groups/${hangout}/auditLogs${query}`, { cookie: bot });
  expect(res.status).toBe(200);
  return res.body as Audit;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vrchatRate: { capacity: 1000, perSecond: 1000 } });
});
beforeEach(async () => {
  // Each test starts from the seeded world (reset also clears sessions and login counts).
  await call(sim.url, 'POST', '/control/vrchat/reset');
  bot = await login(sim.url);
  carol = await login(sim.url, vrchatAccounts.carol);
});
afterAll(() => sim.close());

describe('POST /groups/{groupId}/join', () => {
  it('makes the caller a member of an open group', async () => {
    const res = await call(sim.url, 'POST', `/groups/${dance}/join`, { cookie: carol });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ membershipStatus: 'member', groupId: dance });
    const group = await call(sim.url, 'GET', `/groups/${dance}`, { cookie: carol });
    expect(group.body).toMatchObject({
      membershipStatus: 'member',
      myMember: { userId: vrchatAccounts.carol.userId },
    });
  });

  it('files a request for a request-only group, which the bot can accept', async () => {
    const res = await call(sim.url, 'POST', `/groups/${hangout}/join`, { cookie: carol });
    expect(res.body).toMatchObject({ membershipStatus: 'requested', joinedAt: null });
    const again = await call(sim.url, 'POST', `/groups/${hangout}/join`, { cookie: carol });
    expect(again.status).toBe(400);

    const requests = await call(sim.url, 'GET', `/groups/${hangout}/requests`, { cookie: bot });
    expect((requests.body as Member[]).map((m) => m.userId)).toContain(vrchatAccounts.carol.userId);
    const accepted = await call(
      sim.url,
      'PUT',
      `/groups/${hangout}/requests/${vrchatAccounts.carol.userId}`,
      {
        cookie: bot,
        json: { action: 'accept' },
      },
    );
    expect(accepted.status).toBe(200);
    const member = await call(sim.url, 'GET', `/groups/${hangout}/members/${vrchatAccounts.carol.userId}`, {
      cookie: bot,
    });
    expect(member.body).toMatchObject({ membershipStatus: 'member' });
    expect((await audit()).results.map((e) => e.eventType).slice(0, 2)).toEqual([
      'group.request.accept',
      'group.request.create',
    ]);
  });

  it('refuses invite-only and closed groups unless invited', async () => {
    await call(sim.url, 'PATCH', `/control/vrchat/groups/${dance}`, { json: { joinState: 'invite' } });
    const refused = await call(sim.url, 'POST', `/groups/${dance}/join`, { cookie: carol });
    expect(refused.status).toBe(403);
    await call(sim.url, 'POST', `/groups/${dance}/invites`, {
      cookie: bot,
      json: { userId: vrchatAccounts.carol.userId },
    });
    const joined = await call(sim.url, 'POST', `/groups/${dance}/join`, { cookie: carol });
    expect(joined.body).toMatchObject({
      membershipStatus: 'member',
      acceptedById: vrchatAccounts.bot.userId,
    });
  });

  it('says "You\'re already a member!" to members', async () => {
    const res = await call(sim.url, 'POST', `/groups/${hangout}/join`, { cookie: bot });
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toBe("You're already a member!");
  });
});

describe('POST /groups/{groupId}/invites', () => {
  const invite = (userId: string) =>
    call(sim.url, 'POST', `/groups/${hangout}/invites`, { cookie: bot, json: { userId } });

  it('invites, then refuses to invite twice', async () => {
    expect((await invite(vrchatUserIds['Dusk Walker'])).status).toBe(200);
    const again = await invite(vrchatUserIds['Dusk Walker']);
    expect(again.status).toBe(400);
    expect(errorOf(again.body)).toBe('User Dusk Walker is already invited.');
    const invites = await call(sim.url, 'GET', `/groups/${hangout}/invites`, { cookie: bot });
    expect((invites.body as Member[]).map((m) => m.userId)).toContain(vrchatUserIds['Dusk Walker']);
    const [entry] = (await audit('?eventTypes=group.invite.create')).results;
    expect(entry).toMatchObject({
      actorId: vrchatAccounts.bot.userId,
      targetId: vrchatUserIds['Dusk Walker'],
    });
  });

  it('refuses members, and users who blocked the group', async () => {
    const member = await invite(vrchatUserIds.Glimmer);
    expect(member.status).toBe(400);
    expect(errorOf(member.body)).toBe('User Glimmer is already a member of this group.');
    const blocked = await invite(vrchatSeed.blockedHangoutUserId);
    expect(blocked.status).toBe(403);
    expect(errorOf(blocked.body)).toBe("You can't invite that user․");
  });

  it('needs group-invites-manage', async () => {
    const dave = await login(sim.url, vrchatAccounts.dave);
    const res = await call(sim.url, 'POST', `/groups/${hangout}/invites`, {
      cookie: dave,
      json: { userId: vrchatUserIds['Dusk Walker'] },
    });
    expect(res.status).toBe(403);
  });
});

describe('group member roles', () => {
  const path = (userId: string, roleId: string) => `/groups/${hangout}/members/${userId}/roles/${roleId}`;

  it('assigns and unassigns roles below the bot, with audit entries', async () => {
    const userId = vrchatUserIds['Kitsune Kai'];
    const added = await call(sim.url, 'PUT', path(userId, roles.verified18), { cookie: bot });
    expect(added.body).toEqual([roles.linked, roles.verified18]);
    const removed = await call(sim.url, 'DELETE', path(userId, roles.linked), { cookie: bot });
    expect(removed.body).toEqual([roles.verified18]);
    const { results } = await audit(`?targetIds=${userId}`);
    expect(results.map((e) => e.eventType)).toEqual([
      'group.member.role.unassign',
      'group.member.role.assign',
    ]);
    expect(results[1].description).toContain('Verified 18+');
  });

  it('refuses roles of the same or higher rank than the bot', async () => {
    for (const roleId of [roles.bot, roles.moderator, roles.owner]) {
      const res = await call(sim.url, 'PUT', path(vrchatUserIds.Lumi, roleId), { cookie: bot });
      expect(res.status).toBe(403);
      expect(errorOf(res.body)).toContain('same or higher rank');
    }
  });

  it('refuses to manage members who outrank the bot', async () => {
    const res = await call(sim.url, 'PUT', path(vrchatUserIds.Bastian, roles.linked), { cookie: bot });
    expect(res.status).toBe(403);
    expect(errorOf(res.body)).toContain('same or higher rank');
  });

  it('needs group-roles-assign', async () => {
    const dave = await login(sim.url, vrchatAccounts.dave);
    const res = await call(sim.url, 'PUT', path(vrchatUserIds.Lumi, roles.linked), { cookie: dave });
    expect(res.status).toBe(403);
  });

  it('404s for a role of another group and for non-members', async () => {
    const other = await call(sim.url, 'PUT', path(vrchatUserIds.Lumi, vrchatRoleIds.danceClub.dancer), {
      cookie: bot,
    });
    expect(other.status).toBe(404);
    const outsider = await call(sim.url, 'PUT', path(vrchatUserIds['Dusk Walker'], roles.linked), {
      cookie: bot,
    });
    expect(outsider.status).toBe(404);
  });
});

describe('kicks, audit log filters and paging', () => {
  it('kicks a member and logs group.member.remove', async () => {
    const res = await call(sim.url, 'DELETE', `/groups/${hangout}/members/${vrchatUserIds.Quill}`, {
      cookie: bot,
    });
    expect(res.status).toBe(200);
    const { results } = await audit('?eventTypes=group.member.remove');
    expect(results[0]).toMatchObject({ targetId: vrchatUserIds.Quill, actorId: vrchatAccounts.bot.userId });
    const outranks = await call(sim.url, 'DELETE', `/groups/${hangout}/members/${vrchatUserIds.Bastian}`, {
      cookie: bot,
    });
    expect(outranks.status).toBe(403);
  });

  it('records control-API group edits as group.update by the owner', async () => {
    await call(sim.url, 'PATCH', `/control/vrchat/groups/${hangout}`, { json: { description: 'New text' } });
    const [entry] = (await audit('?eventTypes=group.update')).results;
    expect(entry).toMatchObject({
      actorId: vrchatUserIds['Aurora Skye'],
      data: { description: { old: expect.any(String), new: 'New text' } },
    });
  });

  it('filters by date and pages with hasNext', async () => {
    for (const name of ['Dusk Walker', 'Willow Wisp', 'Yuki Frost'] as const)
      await call(sim.url, 'POST', `/groups/${hangout}/invites`, {
        cookie: bot,
        json: { userId: vrchatUserIds[name] },
      });
    const first = await audit('?n=2');
    expect(first).toMatchObject({ totalCount: 3, hasNext: true });
    const last = await audit('?n=2&offset=2');
    expect(last).toMatchObject({ totalCount: 3, hasNext: false });
    expect(last.results).toHaveLength(1);
    const future = await audit(`?startDate=${new Date(Date.now() + 60_000).toISOString()}`);
    expect(future.results).toEqual([]);
  });

  it('lists members in joinedAt order either way', async () => {
    const asc = await call(sim.url, 'GET', `/groups/${hangout}/members?n=1&sort=joinedAt:asc`, {
      cookie: bot,
    });
    expect((asc.body as Member[])[0].userId).toBe(vrchatUserIds['Aurora Skye']);
    const desc = await call(sim.url, 'GET', `/groups/${hangout}/members?n=1&sort=joinedAt:desc`, {
      cookie: bot,
    });
    expect((desc.body as Member[])[0].userId).toBe(vrchatAccounts.dave.userId);
  });
});
