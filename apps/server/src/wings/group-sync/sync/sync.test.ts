import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  botSeesRoles,
  discordMember,
  discordRole,
  guildGroup,
  rows,
  signInHangoutOwner,
  signInMember,
  simulatorRoles,
  vrchatLink,
} from '../../../../test/factories.js';
import { discordGroupMappings } from '../../../db/schema/index.js';
import { followGroupAuditLogs } from './group-audit-follow.js';
import { HOLD_ABOVE_SHARE, NOTHING_HELD, runGuildSync } from './sync.service.js';
import { discordRoleForGroupRole, groupId, groupRoles, hangout, hangoutGroupScene, vrc } from './testing.js';

const hangoutGroup = { guildId: hangout.id, groupId, name: 'VRC Hangout Official' };

/** The Hangout group's memberships as the simulated VRChat holds them: userId → status and roles. */
async function groupState(t: TestApp) {
  const res = await t.control('GET', `/vrchat/groups/${groupId}`);
  const list = res.body.memberships as { userId: string; status: string; roleIds: string[] }[];
  return new Map(list.map((m) => [m.userId, { membershipStatus: m.status, roleIds: m.roleIds }]));
}

describe('the sync (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let linkedRole: string;
  let memberRole: string;
  let partner: { id: string };
  let requester: { id: string };
  let newcomer: { id: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    linkedRole = await discordRole(t, hangout.id, 'Linked');
    memberRole = await discordRole(t, hangout.id, 'Group Member');
    // Carol is in no group; Pixel Panda asked to join; the newcomer is linked but holds no mapped role.
    partner = await discordMember(t, hangout.id, { roles: [memberRole] });
    requester = await discordMember(t, hangout.id, { roles: [memberRole] });
    newcomer = await discordMember(t, hangout.id);
    await vrchatLink(t, {
      discordUserId: partner.id,
      vrcUserId: vrc['Carol Casual'],
      vrchatName: 'Carol Casual',
    });
    await vrchatLink(t, {
      discordUserId: requester.id,
      vrcUserId: vrchatSeed.requestedHangoutUserId,
      vrchatName: 'Pixel Panda',
      plus18: true,
    });
    await vrchatLink(t, { discordUserId: newcomer.id, vrcUserId: vrc['Iris Nova'], vrchatName: 'Iris Nova' });
    await hangoutGroupScene(t, owner, { linkedRole, memberRole });
  });
  afterAll(() => t?.close());

  it('gives the linked role, invites, accepts the join request and gives the mapped group role', async () => {
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result).toMatchObject({ failed: 0, held: 0 });
    for (const member of [partner, requester, newcomer])
      expect(await simulatorRoles(t, hangout.id, member.id)).toContain(linkedRole);
    const group = await groupState(t);
    expect(group.get(vrc['Carol Casual'])?.membershipStatus).toBe('invited');
    expect(group.get(vrchatSeed.requestedHangoutUserId)).toMatchObject({
      membershipStatus: 'member',
      roleIds: [groupRoles.linked],
    });
    // Iris holds no mapped role: untouched.
    expect(group.get(vrc['Iris Nova'])?.roleIds).toEqual([]);
    expect(await rows(t, 'group_invites', 'vrc_user_id = $1', [vrc['Carol Casual']])).toHaveLength(1);

    const audit = await rows(t, 'audit_log', "guild_id = $1 and actor_id = 'bot'", [hangout.id]);
    expect(audit.map((a) => a.action).sort()).toEqual(
      [
        'GrantRoleTemporary',
        'Membership',
        'Membership',
        'role.auto.add',
        'role.auto.add',
        'role.auto.add',
      ].sort(),
    );
  });

  it('does nothing at all when nothing changed', async () => {
    await botSeesRoles(t, hangout.id, newcomer.id, (r) => r.includes(linkedRole));
    await botSeesRoles(t, hangout.id, partner.id, (r) => r.includes(linkedRole));
    await botSeesRoles(t, hangout.id, requester.id, (r) => r.includes(linkedRole));
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ planned: 0, writes: 0 });
  });

  it('takes the temporary group role back when the Discord role goes, and the linked role at unlink', async () => {
    await t.control('PATCH', `/discord/guilds/${hangout.id}/members/${requester.id}`, {
      roles: [linkedRole],
    });
    await botSeesRoles(t, hangout.id, requester.id, (r) => !r.includes(memberRole));
    await t.ctx.database.executeSql(`delete from vrchat_links where discord_user_id = '${newcomer.id}'`);
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result).toMatchObject({ applied: 2, failed: 0 });
    expect((await groupState(t)).get(vrchatSeed.requestedHangoutUserId)).toMatchObject({
      membershipStatus: 'member',
      roleIds: [],
    });
    expect(await simulatorRoles(t, hangout.id, newcomer.id)).not.toContain(linkedRole);
  });

  it('gives a Discord role for a group role (group to Discord)', async () => {
    const host = await discordRoleForGroupRole(t, groupRoles.eventHost, 'GrantRolePermanent', 'Event Host');
    const glimmer = await discordMember(t, hangout.id);
    await vrchatLink(t, { discordUserId: glimmer.id, vrcUserId: vrc.Glimmer, vrchatName: 'Glimmer' });
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, glimmer.id)).toContain(host);
  });

  it('holds a mass removal, then carries it out when approved, never touching the owner, the bot or a moderator', async () => {
    await t.ctx.database.executeSql(
      `update guild_groups set auto_kick = true where guild_id = '${hangout.id}'`,
    );
    const before = await groupState(t);
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result?.held).toBeGreaterThan(2);
    expect(await groupState(t)).toEqual(before);
    const status = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/sync`,
      session: owner.session,
    });
    expect(status.statusCode).toBe(200);
    const held = status.json().held;
    expect(held.count).toBe(result?.held);
    expect(held.actions.map((a: { targetName: string }) => a.targetName)).toContain('Echo Lumen');
    expect(await rows(t, 'audit_log', "action = 'sync.removals_held'")).toHaveLength(1);

    const approved = held.actions.map((a: { vrcUserId: string }) => a.vrcUserId);
    await runGuildSync(t.ctx, hangout.id, { approvedRemovals: approved });
    const after = await groupState(t);
    const members = [...after].filter(([, m]) => m.membershipStatus === 'member').map(([id]) => id);
    // Pixel Panda lost the mapped Discord role above, so nothing entitles them any more.
    expect(members.sort()).toEqual([vrc['Aurora Skye'], vrc.Bastian, vrc['VRCLink Bot']].sort());
    expect(await rows(t, 'audit_log', "action = 'NoMembership'")).toHaveLength(approved.length);
  });
});

describe('the Groups feature switched off (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let requester: { id: string; username: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    const linkedRole = await discordRole(t, hangout.id, 'Linked');
    const memberRole = await discordRole(t, hangout.id, 'Group Member');
    requester = await discordMember(t, hangout.id, { username: 'temp_holder', roles: [memberRole] });
    await vrchatLink(t, {
      discordUserId: requester.id,
      vrcUserId: vrchatSeed.requestedHangoutUserId,
      vrchatName: 'Pixel Panda',
    });
    await hangoutGroupScene(t, owner, { linkedRole, memberRole });
  });
  afterAll(() => t?.close());

  it('takes the temporary group roles the bot gave, and the preview says so', async () => {
    // The join request accepted and the group's Linked role given for a while (the member holds Group Member).
    await runGuildSync(t.ctx, hangout.id);
    expect((await groupState(t)).get(vrchatSeed.requestedHangoutUserId)?.roleIds).toEqual([
      groupRoles.linked,
    ]);

    const preview = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/sync/preview`,
      session: owner.session,
      payload: { kind: 'groupSettings', enabled: false },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      total: 1,
      effects: [
        {
          kind: 'groupRole',
          sentence: expect.stringMatching(/^The group role .+ will be taken from 1 member\.$/),
          given: [],
          // The member, then the VRChat account acted on (issue #29: both are named).
          taken: [expect.stringMatching(new RegExp(`^${requester.username} · VRChat .+ \\(usr_`))],
        },
      ],
    });

    const off = await t.inject({
      method: 'POST',
      url: `/api/groups/${hangout.id}`,
      session: owner.session,
      payload: { enabled: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    // The role is taken; the membership the feature gave stays (no group action but ending what it gave).
    expect((await groupState(t)).get(vrchatSeed.requestedHangoutUserId)).toMatchObject({
      membershipStatus: 'member',
      roleIds: [],
    });
    expect(await rows(t, 'sync_temporary_grants', 'guild_id = $1', [hangout.id])).toEqual([]);
    // Nothing more to take: the next sync does nothing and no longer reads the group.
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ planned: 0 });
  });
});

describe('sync routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
    await guildGroup(t, { ...hangoutGroup, enabled: true, autoKick: true });
  });
  afterAll(() => t?.close());
  const base = `/api/guilds/${hangout.id}/sync`;

  it.each([
    ['GET', base],
    ['GET', `${base}/preview`],
    ['POST', base],
    ['POST', `${base}/held`],
  ] as const)('%s %s needs Admin of the server', async (method, url) => {
    const member = await signInMember(t, hangout.id);
    const res = await t.inject({ method, url, session: member.session, payload: { decision: 'apply' } });
    expect(res.statusCode).toBe(403);
  });

  it('shows the dry run without changing anything, with the removals the breaker would hold', async () => {
    const owner = await signInHangoutOwner(t);
    const before = await groupState(t);
    const res = await t.inject({ method: 'GET', url: `${base}/preview`, session: owner.session });
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    // Nobody is linked and nothing entitles membership: Auto Remove would remove everyone it may.
    expect(preview.counts.remove).toBe(preview.wouldHold);
    expect(preview.wouldHold).toBeGreaterThan(HOLD_ABOVE_SHARE * 16);
    expect(preview.complete).toBe(true);
    expect(preview.actions[0]).toMatchObject({ kind: 'remove', reason: 'AutoRemove' });
    expect(preview.actions.map((a: { targetName: string }) => a.targetName)).not.toContain('Bastian');
    expect(await groupState(t)).toEqual(before);
  });

  it('queues a sync now, and says so when nothing is held', async () => {
    const owner = await signInHangoutOwner(t);
    const queued = await t.inject({ method: 'POST', url: base, session: owner.session });
    expect(queued.statusCode).toBe(200);
    // Members joining above already asked for one: the request joins the sync that is waiting.
    expect(typeof queued.json().queued).toBe('boolean');
    const waiting = await t.ctx.database.executeSql(
      "select count(*)::int as n from pgboss.job where name = 'sync.guild' and state = 'created'",
    );
    expect(waiting.rows[0].n).toBe(1);
    const none = await t.inject({
      method: 'POST',
      url: `${base}/held`,
      session: owner.session,
      payload: { decision: 'discard' },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(NOTHING_HELD);
    const bad = await t.inject({
      method: 'POST',
      url: `${base}/held`,
      session: owner.session,
      payload: { decision: 'maybe' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("The decision must be 'apply', 'discard' or 'review'.");
  });

  it('applies approved removals at the next sync of any kind, never holding them again', async () => {
    const owner = await signInHangoutOwner(t);
    const first = await runGuildSync(t.ctx, hangout.id);
    expect(first?.held).toBeGreaterThan(2);
    const apply = await t.inject({
      method: 'POST',
      url: `${base}/held`,
      session: owner.session,
      payload: { decision: 'apply' },
    });
    expect(apply.statusCode).toBe(200);
    expect(apply.json()).toEqual({ count: first?.held });
    const status = await t.inject({ method: 'GET', url: base, session: owner.session });
    expect(status.json().held).toBeNull();
    // An ordinary sync running before the queued one carries them out instead of holding them again.
    const next = await runGuildSync(t.ctx, hangout.id);
    expect(next).toMatchObject({ held: 0, failed: 0 });
    const members = [...(await groupState(t))]
      .filter(([, m]) => m.membershipStatus === 'member')
      .map(([id]) => id);
    expect(members.sort()).toEqual([vrc['Aurora Skye'], vrc.Bastian, vrc['VRCLink Bot']].sort());
  });
});

describe('following the group through its audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
    await guildGroup(t, { ...hangoutGroup, enabled: true });
  });
  afterAll(() => t?.close());
  const tick = () => new Promise((r) => setTimeout(r, 20));

  it('asks for a sync when someone leaves or asks to join, not for what the bot did itself', async () => {
    // The first poll only starts the cursor.
    expect(await followGroupAuditLogs(t.ctx)).toBe(0);
    await tick();
    expect(await followGroupAuditLogs(t.ctx)).toBe(0);

    await t.control('POST', `/vrchat/groups/${groupId}/members/${vrc['Dave Doubleauth']}/leave`);
    await tick();
    expect(await followGroupAuditLogs(t.ctx)).toBe(1);
    expect(await followGroupAuditLogs(t.ctx)).toBe(0);

    await t.ctx.vrchat.inviteToGroup(groupId, vrc['Carol Casual']);
    await t.ctx.vrchat.addGroupMemberRole(groupId, vrc['Iris Nova'], groupRoles.linked);
    await tick();
    expect(await followGroupAuditLogs(t.ctx)).toBe(0);

    await t.control('POST', `/vrchat/groups/${groupId}/requests`, { userId: vrc['Carol Casual'] });
    await tick();
    expect(await followGroupAuditLogs(t.ctx)).toBe(1);
  });
});

describe('a group too large for VRChat to list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
    await guildGroup(t, { ...hangoutGroup, enabled: true, autoKick: true });
    // VRChat stops listing after 5 members here: the engine must still reach linked members past that.
    await t.control('PATCH', '/vrchat/config', { groupMemberListCap: 5 });
  });
  afterAll(() => t?.close());

  it('reads linked members past the listing by id, and Auto Remove only removes members it saw', async () => {
    const role = await discordRole(t, hangout.id, 'Crew');
    const umbra = await discordMember(t, hangout.id, { roles: [role] });
    await vrchatLink(t, { discordUserId: umbra.id, vrcUserId: vrc.Umbra, vrchatName: 'Umbra' });
    await t.ctx.db.insert(discordGroupMappings).values([
      { guildId: hangout.id, discordRoleId: role, groupRoleId: null, action: 'Membership' },
      {
        guildId: hangout.id,
        discordRoleId: role,
        groupRoleId: groupRoles.eventHost,
        action: 'GrantRolePermanent',
      },
    ]);
    const owner = await signInHangoutOwner(t);
    const preview = (
      await t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}/sync/preview`, session: owner.session })
    ).json();
    expect(preview.complete).toBe(false);
    // Umbra is a member the listing does not reach: read by id, so the role comes and no removal hits him.
    expect(preview.actions).toContainEqual(
      expect.objectContaining({ kind: 'addGroupRole', vrcUserId: vrc.Umbra }),
    );
    const removals = preview.actions.filter((a: { kind: string }) => a.kind === 'remove');
    expect(removals.map((a: { vrcUserId: string }) => a.vrcUserId)).not.toContain(vrc.Umbra);
    // Listed: 5 members, minus the owner, the bot and Bastian (ranked above the bot).
    expect(removals.length).toBeLessThanOrEqual(5);
  });

  it('does not invite twice a user who blocked the group', async () => {
    const role = await discordRole(t, hangout.id, 'Blockers');
    const xeno = await discordMember(t, hangout.id, { roles: [role] });
    await vrchatLink(t, {
      discordUserId: xeno.id,
      vrcUserId: vrchatSeed.blockedHangoutUserId,
      vrchatName: 'Xeno Blitz',
    });
    await t.ctx.db
      .insert(discordGroupMappings)
      .values({ guildId: hangout.id, discordRoleId: role, groupRoleId: null, action: 'Membership' });
    await t.ctx.database.executeSql(
      `update guild_groups set auto_kick = false where guild_id = '${hangout.id}'`,
    );
    await runGuildSync(t.ctx, hangout.id);
    expect(
      await rows(t, 'group_invites', 'vrc_user_id = $1', [vrchatSeed.blockedHangoutUserId]),
    ).toHaveLength(1);
    const again = await runGuildSync(t.ctx, hangout.id);
    expect(again?.planned).toBe(0);
  });
});
