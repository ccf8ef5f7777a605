import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  discordRole,
  rows,
  updateVrchatUser,
  vrchatLink,
} from '../../../../test/factories.js';
import { discordGroupMappings } from '../../../db/schema/index.js';
import { dispatchLinkEvents } from './link-events.js';
import { runGuildSync } from './sync.service.js';
import { groupId, groupRoles, hangout, hangoutGroupForMembers, vrc } from './testing.js';

/** The Hangout group's memberships as the simulated VRChat holds them: userId → status and roles. */
async function groupState(t: TestApp) {
  const res = await t.control('GET', `/vrchat/groups/${groupId}`);
  const list = res.body.memberships as { userId: string; status: string; roleIds: string[] }[];
  return new Map(list.map((m) => [m.userId, { status: m.status, roleIds: m.roleIds }]));
}

// An unproven link (linked without the code in the bio) may name a stranger's account: the member's Discord
// roles must never reach it.
describe('the sync acts on VRChat only for ownership-verified links (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let memberRole: string;
  let provenMember: { id: string; username: string };
  const strangers = {
    notInGroup: vrc['Carol Casual'],
    asking: vrchatSeed.requestedHangoutUserId,
    plainMember: vrc['Iris Nova'],
    keptOut: vrc['Jasper Vale'],
    withRole: vrc['Echo Lumen'],
  };
  const proven = vrc.Lumi;
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    memberRole = await discordRole(t, hangout.id, 'Group Member');
    const outRole = await discordRole(t, hangout.id, 'Kept Out');
    const revokeRole = await discordRole(t, hangout.id, 'No Verified 18');
    await hangoutGroupForMembers(t, memberRole);
    await t.ctx.db.insert(discordGroupMappings).values([
      {
        guildId: hangout.id,
        discordRoleId: memberRole,
        groupRoleId: groupRoles.eventHost,
        action: 'GrantRolePermanent',
      },
      { guildId: hangout.id, discordRoleId: outRole, groupRoleId: null, action: 'NoMembership' },
      {
        guildId: hangout.id,
        discordRoleId: revokeRole,
        groupRoleId: groupRoles.verified18,
        action: 'RevokeRole',
      },
    ]);
    const unproven = async (roles: string[], vrcUserId: string) => {
      const member = await discordMember(t, hangout.id, { roles });
      await vrchatLink(t, { discordUserId: member.id, vrcUserId, vrchatName: 'Claimed', isVerified: false });
    };
    await unproven([memberRole], strangers.notInGroup);
    await unproven([memberRole], strangers.asking);
    await unproven([memberRole], strangers.plainMember);
    await unproven([outRole], strangers.keptOut);
    await unproven([revokeRole], strangers.withRole);
    // The same mappings on a proven link do act (so the mappings above are live).
    provenMember = await discordMember(t, hangout.id, { roles: [memberRole] });
    await vrchatLink(t, { discordUserId: provenMember.id, vrcUserId: proven, vrchatName: 'Lumi' });
  });
  afterAll(() => t?.close());

  it('previews a mapping without the accounts unproven links name, and names each account acted on', async () => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/sync/preview`,
      session: owner.session,
      payload: {
        kind: 'discordToGroup',
        mapping: { discordRoleId: memberRole, groupRoleId: groupRoles.linked, action: 'GrantRoleTemporary' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().effects).toEqual([
      {
        kind: 'groupRole',
        roleName: 'Linked',
        sentence: 'The group role Linked will be given to 1 member.',
        given: [`${provenMember.username} · VRChat Lumi (${proven})`],
        taken: [],
      },
    ]);
  });

  it('neither invites, accepts, gives or takes a group role, nor removes the account an unproven link names', async () => {
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result).toMatchObject({ failed: 0, held: 0 });
    const group = await groupState(t);
    expect(group.get(strangers.notInGroup)).toBeUndefined();
    expect(group.get(strangers.asking)?.status).toBe('requested');
    expect(group.get(strangers.plainMember)).toEqual({ status: 'member', roleIds: [] });
    expect(group.get(strangers.keptOut)?.status).toBe('member');
    expect(group.get(strangers.withRole)?.roleIds).toEqual([groupRoles.verified18]);
    expect(group.get(proven)?.roleIds).toEqual([groupRoles.eventHost]);

    const acted = await rows(t, 'audit_log', "guild_id = $1 and actor_id = 'bot'", [hangout.id]);
    expect(acted.map((a) => a.target_id)).toEqual([proven]);
    // The audit entry names the VRChat account acted on (name and id) and the Discord member it went through;
    // searched as the database builds the sentence (no single detail holds this text).
    const named = `VRChat Lumi (${proven}) · member ${provenMember.username}`;
    const log = await t.inject({
      method: 'GET',
      url: `/api/groups/audit_log/${hangout.id}?fullTextSearch=${encodeURIComponent(named)}`,
      session: owner.session,
    });
    expect(log.json().auditLogs.map((e: { description: string }) => e.description)).toEqual([
      `Gave a role (permanent mapping) · role Event Host · VRChat Lumi (${proven}) · member ${provenMember.username}`,
    ]);
  });
});

// Links made unproven before the rule above could have caused invites and roles; when the account's owner
// verifies, the link moves to them (a takeover) and what the earlier link caused is undone or reported.
describe('a takeover by the account’s owner (against the simulators)', () => {
  let t: TestApp;
  const invited = vrc['Carol Casual'];
  const given = vrc['Iris Nova'];
  beforeAll(async () => {
    ({ t } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    const memberRole = await discordRole(t, hangout.id, 'Group Member');
    await hangoutGroupForMembers(t, memberRole);
    await t.ctx.db.insert(discordGroupMappings).values({
      guildId: hangout.id,
      discordRoleId: memberRole,
      groupRoleId: groupRoles.eventHost,
      action: 'GrantRolePermanent',
    });
    // What such links caused (made here through links verified for the sync, then marked unproven).
    for (const [vrcUserId, vrchatName] of [
      [invited, 'Carol Casual'],
      [given, 'Iris Nova'],
    ]) {
      const claimant = await discordMember(t, hangout.id, { roles: [memberRole] });
      await vrchatLink(t, { discordUserId: claimant.id, vrcUserId, vrchatName });
    }
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ failed: 0 });
    expect((await groupState(t)).get(invited)?.status).toBe('invited');
    expect((await groupState(t)).get(given)?.roleIds).toEqual([groupRoles.eventHost]);
    await t.ctx.database.executeSql('update vrchat_links set is_verified = false, verified_at = null');
    await dispatchLinkEvents(t.ctx);
  });
  afterAll(() => t?.close());

  /** The owner signs in, puts their code in the bio and verifies: the link moves to them. */
  const ownerVerifies = async (vrcUserId: string) => {
    const owner = await signIn(t);
    const check = await t.inject({
      method: 'GET',
      url: `/api/users/check?vrcId=${vrcUserId}`,
      session: owner.session,
    });
    await updateVrchatUser(t, vrcUserId, { bio: `mine: ${check.json().verificationCode}` });
    const res = await t.inject({
      method: 'POST',
      url: `/api/users/verify?vrcId=${vrcUserId}`,
      session: owner.session,
    });
    expect(res.json()).toEqual({ status: 'SuccessVerified' });
  };

  it('withdraws the invite the earlier link caused, and reports the group role VRChat keeps', async () => {
    await ownerVerifies(invited);
    await ownerVerifies(given);
    // VRChat failing: the takeover waits for the next run (the other link events are handled meanwhile).
    await t.control('POST', '/faults', {
      platform: 'vrchat',
      kind: 'server_error',
      pathContains: '/invites/',
      count: 10,
    });
    try {
      await dispatchLinkEvents(t.ctx);
    } finally {
      await t.control('DELETE', '/faults');
    }
    expect((await groupState(t)).get(invited)?.status).toBe('invited');
    const waiting = await rows(t, 'link_events', 'processed_at is null');
    expect(waiting.map((e) => [e.kind, e.vrc_user_id])).toEqual([['moved_away', invited]]);
    const writtenAt = async () =>
      (await rows(t, 'guild_sync_state', 'guild_id = $1', [hangout.id]))[0]?.group_written_at;
    const writtenBefore = await writtenAt();
    await dispatchLinkEvents(t.ctx);
    expect(await rows(t, 'link_events', 'processed_at is null')).toEqual([]);

    const group = await groupState(t);
    expect(group.get(invited)).toBeUndefined();
    expect(await rows(t, 'group_invites', 'vrc_user_id = $1', [invited])).toEqual([]);
    const undone = await rows(t, 'audit_log', "action = 'sync.takeover_undone'");
    expect(undone.map((a) => [a.guild_id, a.target_id])).toEqual([[hangout.id, invited]]);
    // Previews in every process read the group again (the withdrawn invite is a write to it).
    expect(await writtenAt()).not.toEqual(writtenBefore);
    expect(await writtenAt()).toBeTruthy();

    // The permanent role stays (it may be the owner's due, and VRChat has no undo): a manager is told.
    expect(group.get(given)?.roleIds).toEqual([groupRoles.eventHost]);
    const reported = await rows(t, 'audit_log', "action = 'sync.takeover_not_undone'");
    expect(reported).toEqual([
      expect.objectContaining({
        guild_id: hangout.id,
        target_id: given,
        details: expect.objectContaining({
          kept: ['group role given (Event Host)'],
          vrchatName: 'Iris Nova',
        }),
      }),
    ]);
  });
});
