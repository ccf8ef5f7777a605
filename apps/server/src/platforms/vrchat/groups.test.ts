import { vrchatAccounts, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LAX_SIMULATOR, type SimHarness, startSimHarness } from '../testing.js';
import { createVrchatPlatform, memorySessionStore, type VrchatPlatform } from './index.js';

const { groupIds, roleIds, userIds } = vrchatSeed;
const hangout = groupIds.hangout;
const bot = vrchatAccounts.bot.userId;

describe('VRChat adapter: users and groups against the simulator', () => {
  let sim: SimHarness;
  let vrchat: VrchatPlatform;

  beforeAll(async () => {
    // Lax: VRChat paced at 200/s here (strict allows ~1/s); not a test of the limits.
    sim = await startSimHarness(LAX_SIMULATOR);
    vrchat = createVrchatPlatform({
      config: sim.config.vrchat,
      sessionStore: memorySessionStore(),
      log: sim.log,
      pacer: { ratePerSecond: 200, burst: 20 },
    });
    await vrchat.start();
  });
  afterAll(async () => {
    await vrchat?.close();
    await sim?.close();
  });

  describe('users', () => {
    it('searchUsers answers small summaries, and nothing for an empty query', async () => {
      const found = await vrchat.searchUsers('aurora', { n: 5 });
      expect(found).toEqual([
        {
          id: userIds['Aurora Skye'],
          displayName: 'Aurora Skye',
          thumbnailUrl: expect.stringMatching(/^http/),
        },
      ]);
      expect(await vrchat.searchUsers('   ')).toEqual([]);
    });

    it('getUser answers the age fields and bio, and null for an unknown user', async () => {
      expect(await vrchat.getUser(userIds['Echo Lumen'])).toMatchObject({
        displayName: 'Echo Lumen',
        ageVerificationStatus: '18+',
        ageVerified: true,
        bio: 'Photographer. Worlds, light and sound.',
      });
      expect(await vrchat.getUser(userIds.Lumi)).toMatchObject({
        ageVerificationStatus: 'hidden',
        ageVerified: false,
      });
      expect(await vrchat.getUser('usr_00000000-0000-4000-8000-000000000000')).toBeNull();
    });
  });

  describe('groups', () => {
    it('getGroup answers the group with its roles on request, and null for an unknown group', async () => {
      const group = await vrchat.getGroup(hangout, { includeRoles: true });
      expect(group).toMatchObject({
        id: hangout,
        name: 'VRC Hangout Official',
        joinState: 'request',
        shortCode: expect.any(String),
      });
      expect(group?.roles?.map((r) => r.id)).toContain(roleIds.hangout.verified18);
      expect((await vrchat.getGroup(hangout))?.roles).toBeNull();
      expect(await vrchat.getGroup('grp_00000000-0000-4000-8000-000000000000')).toBeNull();
    });

    it('getGroupRoles answers the roles highest rank first', async () => {
      const roles = await vrchat.getGroupRoles(hangout);
      expect(roles[0]).toMatchObject({ id: roleIds.hangout.owner, name: 'Owner', isManagementRole: true });
      expect(roles.map((r) => r.order)).toEqual([...roles.map((r) => r.order)].sort((a, b) => a - b));
    });

    it('getGroupMember answers a member, and null for someone who is not one', async () => {
      expect(await vrchat.getGroupMember(hangout, userIds.Glimmer)).toMatchObject({
        userId: userIds.Glimmer,
        roleIds: expect.arrayContaining([roleIds.hangout.verified18, roleIds.hangout.eventHost]),
        membershipStatus: 'member',
      });
      expect(await vrchat.getGroupMember(hangout, userIds['Yuki Frost'])).toBeNull();
      expect(await vrchat.getGroupMember(hangout, vrchatSeed.invitedHangoutUserId)).toBeNull();
    });

    it('listGroupMembers pages through every member', async () => {
      const { members, complete } = await vrchat.listGroupMembers(hangout);
      // 16 members, listed as VRChat lists them: all but the caller, whose membership is the group's
      // myMember; the listing still counts as complete.
      expect(complete).toBe(true);
      expect(members.length).toBe(15);
      expect(new Set(members.map((m) => m.userId)).size).toBe(15);
      expect(members.some((m) => m.userId === bot)).toBe(false);
      const linked = await vrchat.listGroupMembers(hangout, { roleId: roleIds.hangout.linked });
      expect(linked).toEqual({
        members: [expect.objectContaining({ userId: userIds['Kitsune Kai'] })],
        complete: true,
      });
    });

    it('adds and removes a group role, answering the role ids after each change', async () => {
      const user = userIds['Iris Nova'];
      expect(await vrchat.addGroupMemberRole(hangout, user, roleIds.hangout.linked)).toContain(
        roleIds.hangout.linked,
      );
      expect((await vrchat.getGroupMember(hangout, user))?.roleIds).toContain(roleIds.hangout.linked);
      expect(await vrchat.removeGroupMemberRole(hangout, user, roleIds.hangout.linked)).not.toContain(
        roleIds.hangout.linked,
      );
    });

    it('throws a VrchatError for a role above the bot', async () => {
      await expect(
        vrchat.addGroupMemberRole(hangout, userIds['Iris Nova'], roleIds.hangout.moderator),
      ).rejects.toMatchObject({
        name: 'VrchatError',
        status: 403,
        message: expect.stringContaining('Moderator'),
      });
    });

    it('maps every invite outcome', async () => {
      expect(await vrchat.inviteToGroup(hangout, userIds['Yuki Frost'])).toBe('invited');
      expect(await vrchat.inviteToGroup(hangout, userIds['Yuki Frost'])).toBe('already_invited');
      expect(await vrchat.inviteToGroup(hangout, vrchatSeed.invitedHangoutUserId)).toBe('already_invited');
      expect(await vrchat.inviteToGroup(hangout, userIds.Glimmer)).toBe('already_member');
      expect(await vrchat.inviteToGroup(hangout, vrchatSeed.blockedHangoutUserId)).toBe('blocked');
    });

    it('lists join requests and accepts one', async () => {
      const requests = await vrchat.listJoinRequests(hangout);
      expect(requests).toEqual([
        expect.objectContaining({ userId: vrchatSeed.requestedHangoutUserId, displayName: 'Pixel Panda' }),
      ]);
      await vrchat.respondJoinRequest(hangout, vrchatSeed.requestedHangoutUserId, 'accept');
      expect(await vrchat.listJoinRequests(hangout)).toEqual([]);
      expect(await vrchat.getGroupMember(hangout, vrchatSeed.requestedHangoutUserId)).not.toBeNull();
    });

    it('kicks a member, and answers false for someone who is not one', async () => {
      expect(await vrchat.kickGroupMember(hangout, vrchatSeed.requestedHangoutUserId)).toBe(true);
      expect(await vrchat.getGroupMember(hangout, vrchatSeed.requestedHangoutUserId)).toBeNull();
      expect(await vrchat.kickGroupMember(hangout, vrchatSeed.requestedHangoutUserId)).toBe(false);
    });

    it('reads the audit log, newest first, filtered by event type', async () => {
      const page = await vrchat.getGroupAuditLogs(hangout, { n: 5 });
      expect(page.entries.length).toBeGreaterThan(0);
      expect(page.entries[0]).toMatchObject({
        eventType: 'group.member.remove',
        actorId: bot,
        targetId: vrchatSeed.requestedHangoutUserId,
      });
      const invites = await vrchat.getGroupAuditLogs(hangout, { eventTypes: ['group.invite.create'] });
      expect(invites.entries.map((e) => e.targetId)).toContain(userIds['Yuki Frost']);
      expect(invites.entries.every((e) => e.eventType === 'group.invite.create')).toBe(true);
    });
  });

  describe('what a group sync relies on', () => {
    const dance = groupIds.danceClub;

    it('listGroupMembers says complete: false when VRChat stops listing before memberCount', async () => {
      await sim.control('PATCH', '/vrchat/config', { groupMemberListCap: 5 });
      try {
        const { members, complete } = await vrchat.listGroupMembers(hangout);
        expect(members).toHaveLength(5);
        expect(complete).toBe(false);
      } finally {
        await sim.control('PATCH', '/vrchat/config', { groupMemberListCap: 5100 });
      }
      expect((await vrchat.listGroupMembers(hangout)).complete).toBe(true);
    });

    it('a large group lists only the first 5100, also by role', async () => {
      // ~100 pages: lift the simulator's rate limit (10/s by default) for this test only.
      const { rate } = (await sim.control('GET', '/vrchat/config')).body as { rate: unknown };
      await sim.control('PATCH', '/vrchat/config', { rate: { capacity: 1000, perSecond: 1000 } });
      onTestFinished(() => sim.control('PATCH', '/vrchat/config', { rate }).then(() => undefined));
      const seeded = await sim.control('POST', `/vrchat/groups/${dance}/bulk-members`, {
        count: 6000,
        roleIds: [roleIds.danceClub.dancer],
      });
      expect(seeded.status).toBe(201);
      const all = await vrchat.listGroupMembers(dance);
      expect(all.members).toHaveLength(5100);
      expect(all.complete).toBe(false);
      const dancers = await vrchat.listGroupMembers(dance, { roleId: roleIds.danceClub.dancer });
      expect(dancers.members).toHaveLength(5100);
      expect(dancers.complete).toBe(false);
      // A role listing ending on a short page is complete.
      const owners = await vrchat.listGroupMembers(dance, { roleId: roleIds.danceClub.owner });
      expect(owners).toMatchObject({ members: [expect.anything()], complete: true });
    }, 60_000);

    it('listGroupInvites answers the pending invites with display names', async () => {
      const carol = vrchatAccounts.carol.userId;
      expect(await vrchat.inviteToGroup(hangout, carol)).toBe('invited');
      const invites = await vrchat.listGroupInvites(hangout);
      expect(invites).toEqual(
        expect.arrayContaining([
          { userId: carol, displayName: 'Carol Casual' },
          { userId: vrchatSeed.invitedHangoutUserId, displayName: 'Nyx Ember' },
        ]),
      );
      expect(invites.some((i) => i.userId === userIds.Glimmer)).toBe(false);
    });

    it('maps requiresPurchase on roles', async () => {
      const created = await sim.control('POST', `/vrchat/groups/${hangout}/roles`, {
        name: 'Supporter',
        requiresPurchase: true,
      });
      const supporterId = (created.body as { id: string }).id;
      const roles = await vrchat.getGroupRoles(hangout);
      expect(roles.find((r) => r.id === supporterId)).toMatchObject({
        name: 'Supporter',
        requiresPurchase: true,
      });
      expect(roles.find((r) => r.id === roleIds.hangout.linked)?.requiresPurchase).toBe(false);
      const group = await vrchat.getGroup(hangout, { includeRoles: true });
      expect(group?.roles?.find((r) => r.id === supporterId)?.requiresPurchase).toBe(true);
    });

    it('getGroupAuditLogs passes startDate and answers newest first', async () => {
      const since = new Date();
      await new Promise((r) => setTimeout(r, 5));
      const leavers = [userIds.Glimmer, userIds['Iris Nova']];
      for (const id of leavers) await sim.control('POST', `/vrchat/groups/${hangout}/members/${id}/leave`);
      const page = await vrchat.getGroupAuditLogs(hangout, { startDate: since });
      expect(page.entries.map((e) => [e.eventType, e.targetId])).toEqual([
        ['group.member.leave', userIds['Iris Nova']],
        ['group.member.leave', userIds.Glimmer],
      ]);
      expect(page).toMatchObject({ totalCount: 2, hasNext: false });
      const later = await vrchat.getGroupAuditLogs(hangout, { startDate: new Date(Date.now() + 60_000) });
      expect(later.entries).toEqual([]);
    });
  });
});
