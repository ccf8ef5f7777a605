import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, discordRole, guildGroup, signInMember } from '../../../../test/factories.js';
import { discordGroupMappings, guildGroups, guildSettings } from '../../../db/schema/index.js';
import { waitFor } from '../../../platforms/testing.js';
import type { SetupCheck } from './setup-checks.js';

const { hangout } = seedGuildIds;
const groupId = vrchatSeed.groupIds.hangout;
const groupRoles = vrchatSeed.roleIds.hangout;
const botVrcId = vrchatSeed.userIds['VRCLink Bot'];
const botRole = hangout.roles.VRCLink;
const URL = `/api/guilds/${hangout.id}/setup_check`;
const MANAGE_ROLES = 1n << 28n;
const SEND_MESSAGES = String(1 << 11);

describe('GET /api/guilds/{guildId}/setup_check (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let linkedRole: string;

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    linkedRole = await discordRole(t, hangout.id, 'Doctor Linked');
    await t.ctx.db.insert(guildSettings).values({ guildId: hangout.id, linkedRoleId: linkedRole });
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official' });
    await t.ctx.db.update(guildGroups).set({ enabled: true }).where(eq(guildGroups.guildId, hangout.id));
    await t.ctx.db.insert(discordGroupMappings).values([
      { guildId: hangout.id, discordRoleId: linkedRole, groupRoleId: null, action: 'Membership' },
      {
        guildId: hangout.id,
        discordRoleId: linkedRole,
        groupRoleId: groupRoles.linked,
        action: 'GrantRoleTemporary',
      },
    ]);
  });
  afterAll(() => t?.close());

  const checks = async (): Promise<SetupCheck[]> => {
    const res = await t.inject({ method: 'GET', url: URL, session: owner.session });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().checks;
  };
  const check = async (id: string) => (await checks()).find((c) => c.id === id);
  const problems = async () => (await checks()).filter((c) => !c.ok);
  /** Discord changes reach the bot through the gateway: wait until the doctor sees the expected state. */
  const eventually = (id: string, ok: boolean) =>
    waitFor(async () => {
      const found = await check(id);
      return found?.ok === ok ? found : null;
    });
  const rolePosition = async (roleId: string) =>
    (await t.control('GET', `/discord/guilds/${hangout.id}`)).body.roles.find(
      (r: { id: string }) => r.id === roleId,
    ).position as number;

  it('finds nothing wrong in a working setup, and lists what it checked', async () => {
    expect(await problems()).toEqual([]);
    expect((await checks()).map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'discord.manageRoles',
        `discord.role.${linkedRole}`,
        'vrchat.group',
        'vrchat.botInGroup',
        'vrchat.permission.group-roles-assign',
        'vrchat.permission.group-invites-manage',
        'vrchat.joinState',
      ]),
    );
  });

  it("flags a configured role moved above the bot's role, and clears once it is moved back", async () => {
    await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${linkedRole}`, {
      position: await rolePosition(botRole),
    });
    const flagged = await eventually(`discord.role.${linkedRole}`, false);
    expect(flagged).toMatchObject({
      area: 'discord',
      problem: "The bot's role must be above Doctor Linked to manage it.",
      fix: "In Server Settings → Roles, drag the bot's role (VRCLink) above Doctor Linked.",
    });
    await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${linkedRole}`, { position: 1 });
    await eventually(`discord.role.${linkedRole}`, true);
  });

  it('flags Manage Roles missing from the bot, and clears once given back', async () => {
    const state = (await t.control('GET', `/discord/guilds/${hangout.id}`)).body;
    const permissions = BigInt(state.roles.find((r: { id: string }) => r.id === botRole).permissions);
    await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${botRole}`, {
      permissions: String(permissions & ~MANAGE_ROLES),
    });
    expect(await eventually('discord.manageRoles', false)).toMatchObject({
      problem: 'The bot needs the Manage Roles permission to change roles.',
    });
    await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${botRole}`, {
      permissions: String(permissions),
    });
    await eventually('discord.manageRoles', true);
  });

  it('flags a configured role that was deleted', async () => {
    const doomed = await discordRole(t, hangout.id, 'Doomed Guest');
    await t.ctx.db
      .update(guildSettings)
      .set({ ageVerifiedPlus18RoleId: doomed })
      .where(eq(guildSettings.guildId, hangout.id));
    await eventually(`discord.role.${doomed}`, true);
    await t.control('DELETE', `/discord/guilds/${hangout.id}/roles/${doomed}`);
    expect(await eventually(`discord.role.${doomed}`, false)).toMatchObject({
      problem: 'The role chosen for the 18+ Verified Role no longer exists on Discord.',
      fix: 'Choose another role for the 18+ Verified Role.',
    });
    await t.ctx.db
      .update(guildSettings)
      .set({ ageVerifiedPlus18RoleId: null })
      .where(eq(guildSettings.guildId, hangout.id));
    expect(await check(`discord.role.${doomed}`)).toBeUndefined();
  });

  it('flags a log channel the bot cannot post in, and clears once it can', async () => {
    expect(await check('discord.logChannel')).toBeUndefined();
    const res = await t.inject({
      method: 'PATCH',
      url: `/api/guilds/logging/${hangout.id}/config`,
      payload: { channelId: hangout.channels.botLog, eventTypes: ['failures'] },
      session: owner.session,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await check('discord.logChannel')).toMatchObject({ ok: true });
    await t.control('PATCH', `/discord/channels/${hangout.channels.botLog}`, {
      permissionOverwrites: [{ id: botRole, type: 0, deny: SEND_MESSAGES }],
    });
    expect(await check('discord.logChannel')).toMatchObject({
      ok: false,
      problem: 'The bot lacks Send Messages in #bot-log.',
    });
    await t.control('PATCH', `/discord/channels/${hangout.channels.botLog}`, { permissionOverwrites: [] });
    expect(await check('discord.logChannel')).toMatchObject({ ok: true });
  });

  it("flags the bot's VRChat account outside the group, and clears once it is back", async () => {
    expect((await t.control('DELETE', `/vrchat/groups/${groupId}/members/${botVrcId}`)).status).toBe(204);
    expect(await check('vrchat.botInGroup')).toMatchObject({
      ok: false,
      problem: "The bot's VRChat account is not a member of the linked group.",
    });
    expect(
      (
        await t.control('POST', `/vrchat/groups/${groupId}/members/${botVrcId}`, {
          roleIds: [groupRoles.bot],
        })
      ).status,
    ).toBe(201);
    expect(await check('vrchat.botInGroup')).toMatchObject({ ok: true });
  });

  it('flags a group permission the mappings need, and clears once the role has it', async () => {
    // The Linked role carries no management permissions.
    await t.control('PUT', `/vrchat/groups/${groupId}/members/${botVrcId}/roles`, {
      roleIds: [groupRoles.linked],
    });
    const missing = (await problems()).map((c) => c.id);
    expect(missing).toEqual(
      expect.arrayContaining([
        'vrchat.permission.group-roles-assign',
        'vrchat.permission.group-invites-manage',
      ]),
    );
    expect(await check('vrchat.permission.group-roles-assign')).toMatchObject({
      problem:
        "The bot's role in the group lacks Assign Group Roles (group-roles-assign), which the role mappings that grant or revoke group roles needs.",
    });
    await t.control('PUT', `/vrchat/groups/${groupId}/members/${botVrcId}/roles`, {
      roleIds: [groupRoles.bot],
    });
    expect(await problems()).toEqual([]);
  });

  it("names a mapping's group role ranked at or above the bot's, and clears once the bot's role is moved above it", async () => {
    // Saved before the rank changed (the save refuses it): VRChat moved the role above the bot later.
    const [mapping] = await t.ctx.db
      .insert(discordGroupMappings)
      .values({
        guildId: hangout.id,
        discordRoleId: linkedRole,
        groupRoleId: groupRoles.moderator,
        action: 'GrantRolePermanent',
      })
      .returning();
    try {
      expect(await check(`vrchat.groupRole.${groupRoles.moderator}`)).toMatchObject({
        ok: false,
        title: 'Group role Moderator',
        problem: "The bot's role in the group must rank above Moderator to give or take it.",
        fix: "In the group's settings on VRChat, move the bot's role above Moderator, or map a lower role.",
      });
      expect(await check(`vrchat.groupRole.${groupRoles.linked}`)).toMatchObject({ ok: true });
      // The bot holding Owner ranks above every role.
      await t.control('PUT', `/vrchat/groups/${groupId}/members/${botVrcId}/roles`, {
        roleIds: [groupRoles.owner],
      });
      expect(await check(`vrchat.groupRole.${groupRoles.moderator}`)).toMatchObject({ ok: true });
    } finally {
      await t.control('PUT', `/vrchat/groups/${groupId}/members/${botVrcId}/roles`, {
        roleIds: [groupRoles.bot],
      });
      await t.ctx.db.delete(discordGroupMappings).where(eq(discordGroupMappings.id, mapping.id));
    }
  });

  it('flags a join state that does not fit the chosen actions, and clears once it does', async () => {
    await t.control('PATCH', `/vrchat/groups/${groupId}`, { joinState: 'closed' });
    expect(await check('vrchat.joinState')).toMatchObject({
      ok: false,
      problem: 'The group is closed, so members the bot invites cannot join it.',
    });
    await t.control('PATCH', `/vrchat/groups/${groupId}`, { joinState: 'request' });
    expect(await check('vrchat.joinState')).toMatchObject({ ok: true });
    // Auto Remove in an open group: those removed can walk back in.
    await t.ctx.db.update(guildGroups).set({ autoKick: true }).where(eq(guildGroups.guildId, hangout.id));
    await t.control('PATCH', `/vrchat/groups/${groupId}`, { joinState: 'open' });
    expect(await check('vrchat.joinState')).toMatchObject({
      ok: false,
      problem: 'The group is open to anyone, so members the bot removes can join again at once.',
    });
    await t.control('PATCH', `/vrchat/groups/${groupId}`, { joinState: 'request' });
    await t.ctx.db.update(guildGroups).set({ autoKick: false }).where(eq(guildGroups.guildId, hangout.id));
    expect(await problems()).toEqual([]);
  });

  it('answers 401 to an anonymous caller and 403 to a member without ViewGuild', async () => {
    expect((await t.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    const member = await signInMember(t, hangout.id);
    const res = await t.inject({ method: 'GET', url: URL, session: member.session });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You need the ViewGuild permission in this server.');
  });
});
