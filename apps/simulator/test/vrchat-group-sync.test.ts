import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { vrchatAccounts, vrchatRoleIds, vrchatUserIds } from '../src/vrchat/index.js';
import { call, dance, hangout, login, hangoutRoles as roles } from './vrchat-helpers.js';

/** What a group-sync engine relies on: the listing cap, the audit log as a feed, invites, roles. */

const carolId = vrchatAccounts.carol.userId;
const daveId = vrchatAccounts.dave.userId;

let sim: RunningSimulator;
let bot: string;

type Member = { userId: string; roleIds: string[]; user?: { displayName: string } };
type Entry = { id: string; created_at: string; eventType: string; actorId: string; targetId: string };
type AuditPage = { results: Entry[]; totalCount: number; hasNext: boolean };
const errorOf = (body: unknown) => (body as { error: { message: string } }).error.message;

const control = (method: string, path: string, json?: unknown) =>
  call(sim.url, method, `/control/vrchat${path}`, json === undefined ? {} : { json });

async function audit(query = '', groupId = hangout): Promise<AuditPage> {
  const res = await call(sim.url, 'GET', `/groups/${groupId}/auditLogs${query}`, { cookie: bot });
  expect(res.status).toBe(200);
  return res.body as AuditPage;
}

async function listAll(groupId: string, sort = 'joinedAt:asc'): Promise<Member[]> {
  const all: Member[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await call(sim.url, 'GET', `/groups/${groupId}/members?n=100&offset=${offset}&sort=${sort}`, {
      cookie: bot,
    });
    expect(res.status).toBe(200);
    const page = res.body as Member[];
    all.push(...page);
    if (page.length < 100) return all;
  }
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vrchatRate: { capacity: 5000, perSecond: 5000 } });
});
beforeEach(async () => {
  await control('POST', '/reset');
  await control('PATCH', '/config', { groupMemberListCap: 5100 });
  bot = await login(sim.url);
});
afterAll(async () => {
  await control('PATCH', '/config', { groupMemberListCap: 5100 });
  await sim.close();
});

describe('member listing cap', () => {
  it('is 5100 by default and can be changed through /control/vrchat/config', async () => {
    expect((await control('GET', '/config')).body).toMatchObject({ groupMemberListCap: 5100 });
    const patched = await control('PATCH', '/config', { groupMemberListCap: 10 });
    expect(patched.body).toMatchObject({ groupMemberListCap: 10 });
    expect((await control('PATCH', '/config', { groupMemberListCap: 0 })).status).toBe(400);
  });

  it('stops the listing at the cap, in either sort order, while single reads still work', async () => {
    await control('PATCH', '/config', { groupMemberListCap: 10 });
    const asc = await listAll(hangout);
    expect(asc).toHaveLength(10);
    const group = await call(sim.url, 'GET', `/groups/${hangout}`, { cookie: bot });
    expect((group.body as { memberCount: number }).memberCount).toBe(16);

    // A page that straddles the cap is cut short; pages past it are empty.
    const straddle = await call(sim.url, 'GET', `/groups/${hangout}/members?n=5&offset=8`, { cookie: bot });
    expect(straddle.body).toHaveLength(2);
    const past = await call(sim.url, 'GET', `/groups/${hangout}/members?n=5&offset=10`, { cookie: bot });
    expect(past.body).toEqual([]);

    const desc = await listAll(hangout, 'joinedAt:desc');
    expect(desc).toHaveLength(10);
    // The 16 members but the caller: VRChat never lists the one asking.
    const seen = new Set([...asc, ...desc].map((m) => m.userId));
    expect(seen.size).toBe(15);

    const hidden = (await listAll(hangout)).map((m) => m.userId);
    const missing = desc.map((m) => m.userId).find((id) => !hidden.includes(id)) ?? '';
    const single = await call(sim.url, 'GET', `/groups/${hangout}/members/${missing}`, { cookie: bot });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ userId: missing, membershipStatus: 'member' });
  });

  it('refuses n above 100 the way VRChat does', async () => {
    const res = await call(sim.url, 'GET', `/groups/${hangout}/members?n=101`, { cookie: bot });
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatch(/much too high/);
  });
});

describe('bulk members', () => {
  // How fast is the benchmarks' business (bench/), not a timed assertion that a loaded machine can fail.
  it('adds 50,000 members in one call, and the listing ends at 5100', async () => {
    const res = await control('POST', `/groups/${dance}/bulk-members`, {
      count: 50_000,
      roleIds: [vrchatRoleIds.danceClub.dancer],
    });
    expect(res.status).toBe(201);
    const body = res.body as { created: number; userIds: string[] };
    expect(body.created).toBe(50_000);
    expect(body.userIds).toHaveLength(10);

    const user = await call(sim.url, 'GET', `/users/${body.userIds[0]}`, { cookie: bot });
    expect(user.body).toMatchObject({ displayName: 'Bulk Member 000001' });
    const member = await call(sim.url, 'GET', `/groups/${dance}/members/${body.userIds[9]}`, { cookie: bot });
    expect(member.body).toMatchObject({ roleIds: [vrchatRoleIds.danceClub.dancer] });

    const group = await call(sim.url, 'GET', `/groups/${dance}`, { cookie: bot });
    expect((group.body as { memberCount: number }).memberCount).toBe(50_009);
    const last = await call(sim.url, 'GET', `/groups/${dance}/members?n=100&offset=5000`, { cookie: bot });
    expect(last.body).toHaveLength(100);
    const beyond = await call(sim.url, 'GET', `/groups/${dance}/members?n=100&offset=5100`, { cookie: bot });
    expect(beyond.body).toEqual([]);
    // Not audited: the members predate any poller.
    expect((await audit('?eventTypes=group.member.join', dance)).totalCount).toBe(0);
  }, 30_000);

  it('numbers names on across calls and 404s for an unknown group or role', async () => {
    await control('POST', `/groups/${hangout}/bulk-members`, { count: 2 });
    const second = await control('POST', `/groups/${hangout}/bulk-members`, { count: 1 });
    const id = (second.body as { userIds: string[] }).userIds[0];
    expect((await call(sim.url, 'GET', `/users/${id}`, { cookie: bot })).body).toMatchObject({
      displayName: 'Bulk Member 000003',
    });
    expect((await control('POST', '/groups/grp_nope/bulk-members', { count: 1 })).status).toBe(404);
    expect(
      (await control('POST', `/groups/${hangout}/bulk-members`, { count: 1, roleIds: ['grol_nope'] })).status,
    ).toBe(404);
    expect((await control('POST', `/groups/${hangout}/bulk-members`, { count: 0 })).status).toBe(400);
  });
});

describe('audit log as a feed', () => {
  it('logs a member leaving by themself (control call and the API)', async () => {
    const glimmer = vrchatUserIds.Glimmer;
    expect((await control('POST', `/groups/${hangout}/members/${glimmer}/leave`)).status).toBe(204);
    expect((await call(sim.url, 'GET', `/groups/${hangout}/members/${glimmer}`, { cookie: bot })).body).toBe(
      null,
    );
    expect((await control('POST', `/groups/${hangout}/members/${glimmer}/leave`)).status).toBe(403);

    const dave = await login(sim.url, vrchatAccounts.dave);
    expect((await call(sim.url, 'POST', `/groups/${hangout}/leave`, { cookie: dave })).status).toBe(200);
    expect((await call(sim.url, 'POST', `/groups/${hangout}/leave`, { cookie: dave })).status).toBe(403);

    const { results } = await audit('?eventTypes=group.member.leave');
    expect(results.map((e) => [e.actorId, e.targetId])).toEqual([
      [daveId, daveId],
      [glimmer, glimmer],
    ]);
    // The owner cannot leave.
    const owner = vrchatUserIds['Aurora Skye'];
    expect((await control('POST', `/groups/${hangout}/members/${owner}/leave`)).status).toBe(400);
  });

  it('logs joins, leaves, removals and role changes with their real event types', async () => {
    const carol = await login(sim.url, vrchatAccounts.carol);
    await call(sim.url, 'POST', `/groups/${dance}/join`, { cookie: carol });
    await control('POST', `/groups/${dance}/members/${carolId}/leave`);
    await control('POST', `/groups/${dance}/members/${carolId}`);
    await call(
      sim.url,
      'PUT',
      `/groups/${dance}/members/${carolId}/roles/${vrchatRoleIds.danceClub.dancer}`,
      {
        cookie: bot,
      },
    );
    await call(
      sim.url,
      'DELETE',
      `/groups/${dance}/members/${carolId}/roles/${vrchatRoleIds.danceClub.dancer}`,
      { cookie: bot },
    );
    await call(sim.url, 'DELETE', `/groups/${dance}/members/${carolId}`, { cookie: bot });
    const { results } = await audit(`?targetIds=${carolId}`, dance);
    expect(results.map((e) => e.eventType)).toEqual([
      'group.member.remove',
      'group.member.role.unassign',
      'group.member.role.assign',
      'group.member.join',
      'group.member.leave',
      'group.member.join',
    ]);
  });

  it('follows with a cursor: startDate, eventTypes, n and offset, newest first', async () => {
    const before = await audit('?n=1');
    const cursor = before.results[0]?.created_at ?? new Date(0).toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const people = [vrchatUserIds.Glimmer, vrchatUserIds['Iris Nova'], daveId];
    for (const id of people) await control('POST', `/groups/${hangout}/members/${id}/leave`);
    await control('POST', `/groups/${hangout}/members/${carolId}`);

    const since = `startDate=${encodeURIComponent(new Date(Date.parse(cursor) + 1).toISOString())}`;
    const all = await audit(`?${since}`);
    expect(all.results.map((e) => e.eventType)).toEqual([
      'group.member.join',
      'group.member.leave',
      'group.member.leave',
      'group.member.leave',
    ]);
    const times = all.results.map((e) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());

    const types = 'eventTypes=group.member.leave,group.member.remove';
    const first = await audit(`?${since}&${types}&n=2&offset=0`);
    expect(first).toMatchObject({ totalCount: 3, hasNext: true });
    const second = await audit(`?${since}&${types}&n=2&offset=2`);
    expect(second).toMatchObject({ totalCount: 3, hasNext: false });
    expect([...first.results, ...second.results].map((e) => e.targetId)).toEqual([...people].reverse());

    const future = await audit(
      `?startDate=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(future).toMatchObject({ results: [], totalCount: 0, hasNext: false });
    const ended = await audit(`?endDate=${encodeURIComponent(cursor)}&${types}`);
    expect(ended.results.every((e) => e.created_at <= cursor)).toBe(true);
    const bad = await call(sim.url, 'GET', `/groups/${hangout}/auditLogs?startDate=yesterday`, {
      cookie: bot,
    });
    expect(bad.status).toBe(400);
  });

  it('logs bans and unbans as group.user.ban / group.user.unban (needs group-bans-manage)', async () => {
    const glimmer = vrchatUserIds.Glimmer;
    const denied = await call(sim.url, 'POST', `/groups/${hangout}/bans`, {
      cookie: bot,
      json: { userId: glimmer },
    });
    expect(denied.status).toBe(403);
    const role = await control('POST', `/groups/${hangout}/roles`, {
      name: 'Banner',
      order: 1,
      permissions: ['group-bans-manage'],
    });
    await control('PUT', `/groups/${hangout}/members/${daveId}/roles`, {
      roleIds: [(role.body as { id: string }).id],
    });
    const dave = await login(sim.url, vrchatAccounts.dave);
    const ban = await call(sim.url, 'POST', `/groups/${hangout}/bans`, {
      cookie: dave,
      json: { userId: glimmer },
    });
    expect(ban.status).toBe(200);
    expect(ban.body).toMatchObject({ userId: glimmer, membershipStatus: 'banned' });
    const read = await call(sim.url, 'GET', `/groups/${hangout}/members/${glimmer}`, { cookie: bot });
    expect(read.body).toMatchObject({ membershipStatus: 'banned' });
    const listed = await call(sim.url, 'GET', `/groups/${hangout}/members?n=100`, { cookie: bot });
    expect((listed.body as Member[]).map((m) => m.userId)).not.toContain(glimmer);
    const bans = await call(sim.url, 'GET', `/groups/${hangout}/bans`, { cookie: dave });
    expect((bans.body as Member[]).map((m) => m.userId)).toContain(glimmer);
    const unban = await call(sim.url, 'DELETE', `/groups/${hangout}/bans/${glimmer}`, { cookie: dave });
    expect(unban.status).toBe(200);
    const { results } = await audit('?eventTypes=group.user.ban,group.user.unban');
    expect(results.map((e) => [e.eventType, e.actorId, e.targetId])).toEqual([
      ['group.user.unban', daveId, glimmer],
      ['group.user.ban', daveId, glimmer],
    ]);
  });
});

describe('invites sent by the group', () => {
  it('lists pending invites and cancels one (group.invite.cancel)', async () => {
    await call(sim.url, 'POST', `/groups/${hangout}/invites`, { cookie: bot, json: { userId: carolId } });
    const list = await call(sim.url, 'GET', `/groups/${hangout}/invites?n=100`, { cookie: bot });
    expect(list.status).toBe(200);
    const invited = (list.body as Member[]).map((m) => m.userId);
    expect(invited).toContain(carolId);
    expect(invited).toContain(vrchatUserIds['Nyx Ember']);

    const del = await call(sim.url, 'DELETE', `/groups/${hangout}/invites/${carolId}`, { cookie: bot });
    expect(del.status).toBe(200);
    const after = await call(sim.url, 'GET', `/groups/${hangout}/invites`, { cookie: bot });
    expect((after.body as Member[]).map((m) => m.userId)).not.toContain(carolId);
    expect((await audit('?n=1')).results[0]).toMatchObject({
      eventType: 'group.invite.cancel',
      targetId: carolId,
    });

    const carol = await login(sim.url, vrchatAccounts.carol);
    const refused = await call(sim.url, 'GET', `/groups/${hangout}/invites`, { cookie: carol });
    expect(refused.status).toBe(403);
  });
});

describe('roles through the control API', () => {
  it('creates a purchase-only role (201, audited group.role.create) the API then lists', async () => {
    const res = await control('POST', `/groups/${hangout}/roles`, {
      name: 'Supporter',
      requiresPurchase: true,
    });
    expect(res.status).toBe(201);
    const role = res.body as { id: string; order: number; requiresPurchase: boolean };
    expect(role).toMatchObject({ name: 'Supporter', requiresPurchase: true, groupId: hangout });
    const listed = await call(sim.url, 'GET', `/groups/${hangout}/roles`, { cookie: bot });
    const roleList = listed.body as { id: string; order: number; requiresPurchase: boolean }[];
    expect(roleList.at(-1)).toMatchObject({ id: role.id, requiresPurchase: true });
    expect(role.order).toBeGreaterThan(Math.max(...roleList.slice(0, -1).map((r) => r.order)));
    expect((await audit('?n=1')).results[0]).toMatchObject({
      eventType: 'group.role.create',
      targetId: role.id,
    });

    const ordered = await control('POST', `/groups/${hangout}/roles`, { name: 'High', order: 1 });
    expect(ordered.body).toMatchObject({ order: 1, requiresPurchase: false });
    expect((await control('POST', `/groups/${hangout}/roles`, {})).status).toBe(400);
    expect((await control('POST', '/groups/grp_nope/roles', { name: 'X' })).status).toBe(404);
  });

  it('sets a member’s roles exactly, above the bot too, auditing each change', async () => {
    const glimmer = vrchatUserIds.Glimmer;
    const res = await control('PUT', `/groups/${hangout}/members/${glimmer}/roles`, {
      roleIds: [roles.moderator],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: glimmer, roleIds: [roles.moderator] });
    const member = await call(sim.url, 'GET', `/groups/${hangout}/members/${glimmer}`, { cookie: bot });
    expect((member.body as Member).roleIds).toEqual([roles.moderator]);
    const { results } = await audit(`?targetIds=${glimmer}`);
    expect(results.map((e) => e.eventType).sort()).toEqual([
      'group.member.role.assign',
      'group.member.role.unassign',
      'group.member.role.unassign',
    ]);
    expect(
      (await control('PUT', `/groups/${hangout}/members/${carolId}/roles`, { roleIds: [] })).status,
    ).toBe(404);
    expect(
      (await control('PUT', `/groups/${hangout}/members/${glimmer}/roles`, { roleIds: ['grol_nope'] }))
        .status,
    ).toBe(404);
  });
});
