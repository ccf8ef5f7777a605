import { seedUserIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  discordMember,
  discordRole,
  guildGroup,
  simulatorRoles,
  vrchatLink,
  withoutMembersIntent,
} from '../../../../test/factories.js';
import { discordGroupMappings, guildSettings } from '../../../db/schema/index.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';
import { waitFor } from '../../../platforms/testing.js';
import { getSync, mirrorDeps, refreshLinkedUser } from '../../access/index.js';
import { runGuildSync } from './sync.service.js';
import { groupId, hangout, vrc } from './testing.js';

/** The reasons of the sync jobs waiting for a server (requests collapse into one job per server). */
async function queuedSyncReasons(t: TestApp, guildId: string): Promise<string[]> {
  const res = await t.ctx.database.executeSql(
    "select data->>'reason' as reason from pgboss.job where name = 'sync.guild' and state = 'created' and data->>'guildId' = $1",
    [guildId],
  );
  return res.rows.map((r) => String(r.reason));
}
const forgetQueuedSyncs = (t: TestApp) =>
  t.ctx.database.executeSql("delete from pgboss.job where name = 'sync.guild'");
/** Waits for a sync job of the server to be queued and answers its reason. */
const queuedReason = async (t: TestApp, guildId: string) =>
  (await waitFor(async () => (await queuedSyncReasons(t, guildId))[0]))!;

async function useLinkedRole(t: TestApp, roleId: string) {
  await t.ctx.db
    .insert(guildSettings)
    .values({ guildId: hangout.id, linkedRoleId: roleId })
    .onConflictDoUpdate({ target: guildSettings.guildId, set: { linkedRoleId: roleId } });
}

describe('what sets off a sync (with the Server Members intent)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
  });
  afterAll(() => t?.close());

  it("does not sync again for the sync's own role writes coming back as member updates", async () => {
    const linkedRole = await discordRole(t, hangout.id, 'Linked');
    await useLinkedRole(t, linkedRole);
    const people = [];
    for (let i = 0; i < 3; i++) {
      const member = await discordMember(t, hangout.id);
      await vrchatLink(t, { discordUserId: member.id, vrchatName: `Linked ${i}` });
      people.push(member);
    }
    // Every sync request from here on, by reason: the queue keeps one waiting job per server, so a request still
    // on its way from the set-up (placing the new role moved others: an 'access' request each, seen landing late
    // on a loaded CI machine) would hold the ones this test is about.
    const requested: string[] = [];
    const send = t.ctx.jobs.send.bind(t.ctx.jobs);
    const spy = vi.spyOn(t.ctx.jobs, 'send').mockImplementation(async (job, payload, opts) => {
      if (job === syncGuildJob) requested.push((payload as { reason: string }).reason);
      return send(job, payload, opts);
    });
    try {
      expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ applied: 3, failed: 0 });
      for (const p of people) expect(await simulatorRoles(t, hangout.id, p.id)).toContain(linkedRole);
      // A later join asks for a sync; the three role updates coming back must not have asked before it.
      await discordMember(t, hangout.id);
      await waitFor(() => requested.includes('member'));
      expect(requested).not.toContain('roles');
    } finally {
      spy.mockRestore();
    }
  });

  it("syncs when a role changes (the bot's role moved back up, Manage Roles given back)", async () => {
    const botRole = hangout.roles.VRCLink;
    const role = (await t.control('GET', `/discord/guilds/${hangout.id}`)).body.roles.find(
      (r: { id: string }) => r.id === botRole,
    );
    // The sync job is one per server: a member sync the previous test's join queued late (seen once on a loaded
    // CI machine) takes this change in, and the job says 'member'. Then the change is made again on an empty queue.
    let reason = '';
    for (let attempt = 0; attempt < 3 && reason !== 'access'; attempt++) {
      await forgetQueuedSyncs(t);
      expect(
        (
          await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${botRole}`, {
            position: role.position,
          })
        ).status,
      ).toBe(200);
      reason = await queuedReason(t, hangout.id);
    }
    expect(reason).toBe('access');
  });

  it('syncs when the bot is given a role', async () => {
    const extra = await discordRole(t, hangout.id, 'Bot helper');
    await forgetQueuedSyncs(t);
    await t.control('PUT', `/discord/guilds/${hangout.id}/members/${seedUserIds.bot}/roles/${extra}`);
    expect(await queuedReason(t, hangout.id)).toBe('access');
  });
});

// On its own server process: the role tests above ask for 'access' syncs from events that may still be on their
// way (a role change moves other roles too), and one landing after this test forgets the queue would hold its
// request (one waiting job per server). A ban sends two departures (GUILD_BAN_ADD and GUILD_MEMBER_REMOVE), and
// the second may ask for a sync after the test is over, so nothing runs after it here either.
describe('what sets off a sync: departures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
  });
  afterAll(() => t?.close());

  it('syncs when a member leaves or is banned', async () => {
    // Each join asks for a sync once the mirror has stored it: wait for that request to land before forgetting
    // it, or it could land after and hold the departure's request (one waiting job per server).
    const joined = async () => {
      await forgetQueuedSyncs(t);
      const member = await discordMember(t, hangout.id);
      expect(await queuedReason(t, hangout.id)).toBe('member');
      await forgetQueuedSyncs(t);
      return member;
    };
    const leaver = await joined();
    const banned = await joined();
    await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${leaver.id}`);
    expect(await queuedReason(t, hangout.id)).toBe('departure');
    await forgetQueuedSyncs(t);
    expect((await t.control('POST', `/discord/guilds/${hangout.id}/members/${banned.id}/ban`)).status).toBe(
      204,
    );
    expect(await queuedReason(t, hangout.id)).toBe('departure');
  });
});

describe('the sync without the Server Members intent (linked members only)', () => {
  let t: TestApp;
  let memberRole: string;
  let member: { id: string };
  beforeAll(async () => {
    t = await createTestApp({
      ...laxSimulator.forVrchatTestPacing,
      jobs: true,
      beforeStart: withoutMembersIntent,
    });
    // The fill at connect (linked members only) is done before anyone links.
    await waitFor(async () => (await getSync(t.ctx.db, hangout.id))?.mode === 'linked');
    memberRole = await discordRole(t, hangout.id, 'Group Member');
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official', enabled: true });
    await t.ctx.db
      .insert(discordGroupMappings)
      .values({ guildId: hangout.id, discordRoleId: memberRole, groupRoleId: null, action: 'Membership' });
    const res = await t.control('POST', `/discord/guilds/${hangout.id}/members`, {
      username: 'carol_linked',
    });
    member = { id: res.body.userId };
    await vrchatLink(t, {
      discordUserId: member.id,
      vrcUserId: vrc['Carol Casual'],
      vrchatName: 'Carol Casual',
    });
    // As linking does: the mirror fetches the newly linked member.
    await refreshLinkedUser(mirrorDeps(t.ctx), [hangout.id], member.id);
    await runGuildSync(t.ctx, hangout.id);
  });
  afterAll(() => t?.close());

  const carolInGroup = async () => {
    const res = await t.control('GET', `/vrchat/groups/${groupId}`);
    return (res.body.memberships as { userId: string; status: string }[]).find(
      (m) => m.userId === vrc['Carol Casual'],
    )?.status;
  };

  it("reads a linked member's Discord roles at the sync, so a role change reaches VRChat", async () => {
    expect(await carolInGroup()).toBeUndefined();
    // No member event arrives without the intent: only the sync's own read sees the new role.
    await t.control('PUT', `/discord/guilds/${hangout.id}/members/${member.id}/roles/${memberRole}`);
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ applied: 1, failed: 0 });
    expect(await carolInGroup()).toBe('invited');
  });

  it('hears of a ban (Guild Moderation) and syncs', async () => {
    const banned = await t.control('POST', `/discord/guilds/${hangout.id}/members`, {
      username: 'to_be_banned',
    });
    await vrchatLink(t, { discordUserId: banned.body.userId, vrchatName: 'Banned Soon' });
    await refreshLinkedUser(mirrorDeps(t.ctx), [hangout.id], banned.body.userId);
    await runGuildSync(t.ctx, hangout.id);
    await forgetQueuedSyncs(t);
    await t.control('POST', `/discord/guilds/${hangout.id}/members/${banned.body.userId}/ban`);
    expect(await queuedReason(t, hangout.id)).toBe('departure');
    const left = await t.ctx.database.executeSql(
      'select left_at from guild_members where guild_id = $1 and user_id = $2',
      [hangout.id, banned.body.userId],
    );
    expect(left.rows[0].left_at).not.toBeNull();
  });

  it('fills the mirror in full at the next sync once the intent is on again', async () => {
    await t.control('PATCH', '/discord/application', { guildMembersIntent: true });
    await runGuildSync(t.ctx, hangout.id);
    expect(await getSync(t.ctx.db, hangout.id)).toMatchObject({ mode: 'full' });
    const discord = await t.control('GET', `/discord/guilds/${hangout.id}`);
    const count = await t.ctx.database.executeSql(
      'select count(*)::int as n from guild_members where guild_id = $1 and left_at is null',
      [hangout.id],
    );
    expect(count.rows[0].n).toBe(discord.body.members.length);
  });
});
