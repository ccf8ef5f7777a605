import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  discordRole,
  guildGroup,
  rows,
  signInMember,
  simulatorRoles,
  vrchatLink,
} from '../../../../test/factories.js';
import { discordGroupMappings } from '../../../db/schema/index.js';
import { groupId, groupRoles, hangout, vrc } from './testing.js';

describe('POST /api/guilds/:guildId/sync/preview (what a settings change would do)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let verified: string;
  let eventHost: string;
  const hosts: { id: string; username: string }[] = [];
  const linked: { id: string; username: string }[] = [];
  const preview = (payload: object, session = owner.session) =>
    t.inject({ method: 'POST', url: `/api/guilds/${hangout.id}/sync/preview`, session, payload });

  const groupSettings = (set: string) =>
    t.ctx.database.executeSql(`update guild_groups set ${set} where guild_id = '${hangout.id}'`);

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    verified = await discordRole(t, hangout.id, 'Verified');
    eventHost = await discordRole(t, hangout.id, 'Event Host');
    // Five unlinked members hold Event Host; two linked members hold the linked role (Verified) already.
    for (let i = 0; i < 5; i++)
      hosts.push(await discordMember(t, hangout.id, { username: `host_${i}`, roles: [eventHost] }));
    for (const [i, name] of ['Carol Casual', 'Kitsune Kai'].entries()) {
      const m = await discordMember(t, hangout.id, { username: `linked_${i}`, roles: [verified] });
      await vrchatLink(t, {
        discordUserId: m.id,
        vrcUserId: vrc[name as keyof typeof vrc],
        vrchatName: name,
      });
      linked.push(m);
    }
    const res = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}`,
      session: owner.session,
      payload: { autoAssignRoles: { linkedRoleId: verified } },
    });
    expect(res.statusCode).toBe(200);
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official' });
  });
  afterAll(() => t?.close());

  it('counts who would lose and who would get the new Linked Users Role, and saves nothing', async () => {
    const res = await preview({ kind: 'autoRoles', autoAssignRoles: { linkedRoleId: eventHost } });
    expect(res.statusCode).toBe(200);
    expect(res.json().effects).toEqual([
      {
        kind: 'discordRole',
        roleName: 'Event Host',
        sentence: 'Event Host will be taken from 5 members and given to 2.',
        given: linked.map((m) => m.username).sort(),
        taken: hosts.map((m) => m.username).sort(),
      },
      // The old Linked Users Role is taken back from the members it was given to.
      {
        kind: 'discordRole',
        roleName: 'Verified',
        sentence: 'Verified will be taken from 2 members.',
        given: [],
        taken: linked.map((m) => m.username).sort(),
      },
    ]);
    expect(res.json()).toMatchObject({ total: 9, warnings: [], wouldHold: 0 });
    expect(res.json().oldRoles).toEqual([{ roleId: verified, roleName: 'Verified', members: 2 }]);
    // Nothing saved, nothing done, nothing audit-logged.
    const [settings] = await rows(t, 'guild_settings', 'guild_id = $1', [hangout.id]);
    expect(settings.linked_role_id).toBe(verified);
    expect(await simulatorRoles(t, hangout.id, hosts[0].id)).toContain(eventHost);
    expect(await rows(t, 'audit_log', "action like 'sync.%' or action like 'role.%'")).toEqual([]);
  });

  it('says a change that concerns nobody affects nobody', async () => {
    const res = await preview({ kind: 'autoRoles', autoAssignRoles: { linkedRoleId: verified } });
    expect(res.json()).toMatchObject({ effects: [], total: 0 });
  });

  it('counts the group members Auto Remove would remove, and says the breaker would hold them', async () => {
    await groupSettings('enabled = true, auto_kick = false');
    const res = await preview({ kind: 'groupSettings', autoKick: true });
    expect(res.statusCode).toBe(200);
    // No mapping entitles anyone: all 16 members go but the owner, the bot and the moderator ranked above it.
    expect(res.json()).toMatchObject({
      effects: [{ kind: 'remove', sentence: '13 members will be removed from the group.', given: [] }],
      total: 13,
      wouldHold: 13,
    });
    // Each names the VRChat account removed (name and id), and the Discord member whose link it went through.
    expect(res.json().effects[0].taken).toContain(`linked_1 · VRChat Kitsune Kai (${vrc['Kitsune Kai']})`);
    expect(res.json().effects[0].taken).toContain(`VRChat Glimmer (${vrc.Glimmer})`);
  });

  it('previews a new Discord to group mapping: who would be invited', async () => {
    const res = await preview({
      kind: 'discordToGroup',
      mapping: { discordRoleId: verified, groupRoleId: null, action: 'Membership' },
    });
    // Carol is in no group; Kitsune is a member already.
    expect(res.json().effects).toEqual([
      {
        kind: 'invite',
        roleName: null,
        sentence: '1 person will be invited to the group.',
        given: [`linked_0 · VRChat Carol Casual (${vrc['Carol Casual']})`],
        taken: [],
      },
    ]);
  });

  it("previews a mapping's deletion: with Auto Remove on, the member it kept in is removed", async () => {
    const [mapping] = await t.ctx.db
      .insert(discordGroupMappings)
      .values({ guildId: hangout.id, discordRoleId: verified, groupRoleId: null, action: 'Membership' })
      .returning();
    await groupSettings('enabled = true, auto_kick = true');
    const res = await preview({ kind: 'discordToGroup', id: mapping.id, mapping: null });
    expect(res.json().effects).toEqual([
      {
        kind: 'remove',
        roleName: null,
        sentence: '1 member will be removed from the group.',
        given: [],
        taken: [`linked_1 · VRChat Kitsune Kai (${vrc['Kitsune Kai']})`],
      },
    ]);
    await t.ctx.db.delete(discordGroupMappings);
    await groupSettings('enabled = false, auto_kick = false');
  });

  it('previews a new group to Discord mapping: who would get the Discord role', async () => {
    const res = await preview({
      kind: 'groupToDiscord',
      mapping: { groupRoleId: groupRoles.linked, discordRoleId: eventHost, action: 'GrantRolePermanent' },
    });
    // Kitsune holds the group's Linked role; the Groups feature being off does not stop group to Discord.
    expect(res.json().effects).toEqual([
      {
        kind: 'discordRole',
        roleName: 'Event Host',
        sentence: 'Event Host will be given to 1 member.',
        given: ['linked_1'],
        taken: [],
      },
    ]);
  });

  it('answers 400 with a sentence for an unknown kind of change', async () => {
    const res = await preview({ kind: 'everything' });
    expect(res.statusCode).toBe(400);
  });

  it('needs Admin of the server', async () => {
    const member = await signInMember(t, hangout.id);
    const res = await preview({ kind: 'groupSettings', enabled: true }, member.session);
    expect(res.statusCode).toBe(403);
  });
});
