import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/app.js';
import { laxSimulator } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  discordRole,
  rows,
  vrchatLink,
} from '../../../../test/factories.js';
import { discordGroupMappings } from '../../../db/schema/index.js';
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
    // The audit entry names the VRChat account acted on (name and id) and the Discord member it went through.
    const log = await t.inject({
      method: 'GET',
      url: `/api/groups/audit_log/${hangout.id}?fullTextSearch=${encodeURIComponent(`(${proven})`)}`,
      session: owner.session,
    });
    expect(log.json().auditLogs.map((e: { description: string }) => e.description)).toEqual([
      `Gave a role (permanent mapping) · role Event Host · VRChat Lumi (${proven}) · member ${provenMember.username}`,
    ]);
  });
});
