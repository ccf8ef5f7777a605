import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  guildGroup,
  itRefusesOutsiders,
  rows,
  signInMember,
} from '../../../../test/factories.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';
import { MAPPING_CHANGED } from '../../../kernel/versions.js';

const { hangout } = seedGuildIds;
const hangoutGroup = vrchatSeed.groupIds.hangout;
const groupRoles = vrchatSeed.roleIds.hangout;
const guildBase = `/api/guilds/${hangout.id}/guild_roles`;
const groupBase = `/api/groups/${hangout.id}/group_roles`;
const unknownId = '3f2b6c1e-0000-4000-8000-000000000000';
type User = { id: string; session: string };

/** Every role-mapping route, with a valid request. */
const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
  ['GET', guildBase],
  ['POST', guildBase],
  ['PUT', guildBase, { id: unknownId, action: 'None' }],
  ['DELETE', `${guildBase}/${unknownId}`],
  ['GET', groupBase],
  ['POST', groupBase],
  ['PUT', groupBase, { id: unknownId, action: 'None' }],
  ['DELETE', `${groupBase}/${unknownId}`],
];

describe('VRChat tab: role mappings both ways (against the simulators)', () => {
  let t: TestApp, owner: User;
  let purchaseRole: { id: string; name: string } | null = null;
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    const made = await t.control('POST', `/vrchat/groups/${hangoutGroup}/roles`, {
      name: 'Supporter Tier',
      requiresPurchase: true,
    });
    if (made.status === 201) purchaseRole = { id: made.body.id, name: 'Supporter Tier' };
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.ctx.database.executeSql('delete from guild_groups');
    await t.ctx.database.executeSql('delete from discord_group_mappings');
    await t.ctx.database.executeSql('delete from group_discord_mappings');
    await t.ctx.database.executeSql("delete from audit_log where action like 'mapping.%'");
    await guildGroup(t, { guildId: hangout.id, groupId: hangoutGroup, name: 'VRC Hangout Official' });
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, user = owner) =>
    t.inject({ method, url, payload, session: user.session });
  const create = async (base: string): Promise<string> => {
    const res = await call('POST', base);
    expect(res.statusCode).toBe(200);
    return res.json().id;
  };

  describe('access', () => {
    itRefusesOutsiders(
      () => t,
      hangout.id,
      routes,
      () => 'You need the Admin permission in this server.',
    );

    it('refuses ViewGuild too: only Admin sees the mappings', async () => {
      const viewer = await signInMember(t, hangout.id);
      const grant = await call('POST', `/api/guilds/permissions/${hangout.id}/${viewer.id}`, {
        permissions: ['ViewGuild'],
      });
      expect(grant.statusCode).toBe(200);
      expect((await call('GET', guildBase, undefined, viewer)).statusCode).toBe(403);
      expect((await call('GET', groupBase, undefined, viewer)).statusCode).toBe(403);
    });

    it.each(routes)('%s %s answers 404 when the server has no linked group', async (method, url, payload) => {
      await t.ctx.database.executeSql('delete from guild_groups');
      const res = await call(method, url, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'No VRChat group is linked to this server.' });
    });
  });

  describe('Discord to group: /api/guilds/:guildId/guild_roles', () => {
    it('answers the roles to choose from and makes the @everyone entry once, with action None', async () => {
      const res = await call('GET', guildBase);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual([
        'everyoneRole',
        'groupRoles',
        'guildRoles',
        'linkedGroupRoles',
      ]);
      expect(body.everyoneRole).toEqual({
        id: expect.any(String),
        discordRoleId: hangout.id,
        groupRoleId: null,
        action: 'None',
        version: 0,
      });
      expect(body.linkedGroupRoles).toEqual([]);
      const guildIds = body.guildRoles.map((r: { id: string }) => r.id);
      expect(guildIds).toContain(hangout.roles.Verified);
      expect(guildIds).not.toContain(hangout.id);
      expect(guildIds).not.toContain(hangout.roles.VRCLink); // managed by the bot's integration
      expect(body.guildRoles[0]).toEqual({ id: expect.any(String), name: expect.any(String) });
      const groupIds = body.groupRoles.map((r: { id: string }) => r.id);
      expect(groupIds).toContain(groupRoles.linked);
      expect(groupIds).not.toContain(groupRoles.owner);
      expect(body.groupRoles).toContainEqual({ id: groupRoles.verified18, name: 'Verified 18+' });

      const again = (await call('GET', guildBase)).json();
      expect(again.everyoneRole.id).toBe(body.everyoneRole.id);
      expect(await rows(t, 'audit_log', "action like 'mapping.%'")).toEqual([]);
    });

    it('adds an empty entry, fills it in and clears the group role for actions without one', async () => {
      const id = await create(guildBase);
      expect((await call('GET', guildBase)).json().linkedGroupRoles).toEqual([
        { id, discordRoleId: null, groupRoleId: null, action: 'None', version: 0 },
      ]);
      const grant = await call('PUT', guildBase, {
        id,
        discordRoleId: hangout.roles.Verified,
        groupRoleId: groupRoles.verified18,
        action: 'GrantRoleTemporary',
      });
      expect(grant.statusCode).toBe(200);
      expect(grant.json()).toEqual({
        id,
        discordRoleId: hangout.roles.Verified,
        groupRoleId: groupRoles.verified18,
        action: 'GrantRoleTemporary',
        version: 1,
      });
      const membership = await call('PUT', guildBase, { id, action: 'Membership' });
      expect(membership.json()).toEqual({
        id,
        discordRoleId: hangout.roles.Verified,
        groupRoleId: null,
        action: 'Membership',
        version: 2,
      });
      const stored = await t.ctx.database.executeSql(
        'select group_role_id from discord_group_mappings where id = $1',
        [id],
      );
      expect(stored.rows[0].group_role_id).toBeNull();
    });

    it('lets the @everyone entry use only None or Membership, and keeps its role', async () => {
      const { everyoneRole } = (await call('GET', guildBase)).json();
      const ok = await call('PUT', guildBase, { id: everyoneRole.id, action: 'Membership' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().action).toBe('Membership');
      const refused = await call('PUT', guildBase, {
        id: everyoneRole.id,
        action: 'GrantRolePermanent',
        groupRoleId: groupRoles.linked,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('The @everyone entry can only use the actions None or Membership.');
      const moved = await call('PUT', guildBase, {
        id: everyoneRole.id,
        discordRoleId: hangout.roles.Verified,
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().message).toBe(
        'The @everyone entry always maps @everyone; its Discord role cannot change.',
      );
      const del = await call('DELETE', `${guildBase}/${everyoneRole.id}`);
      expect(del.statusCode).toBe(400);
      expect(del.json().message).toBe(
        'The @everyone entry cannot be deleted; set its action to None instead.',
      );
    });

    it.each([
      [
        { action: 'Kick' },
        'Action must be one of: None, Membership, NoMembership, GrantRolePermanent, GrantRoleTemporary, RevokeRole.',
      ],
      [{ discordRoleId: '999' }, 'Unknown role: 999'],
      [{ discordRoleId: hangout.id }, 'The @everyone role cannot be chosen.'],
      [
        { discordRoleId: hangout.roles.VRCLink },
        'VRCLink is managed by an integration and cannot be mapped.',
      ],
      [{ action: 'RevokeRole', groupRoleId: 'grol_nope' }, 'Unknown group role: grol_nope'],
      [
        { action: 'GrantRolePermanent', groupRoleId: groupRoles.owner },
        "Owner is the group's owner role and cannot be mapped.",
      ],
    ])('refuses %j with a sentence', async (change, message) => {
      const id = await create(guildBase);
      const res = await call('PUT', guildBase, { id, ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });

    it('answers 404 for an unknown entry, and deletes a known one', async () => {
      expect((await call('PUT', guildBase, { id: unknownId, action: 'None' })).statusCode).toBe(404);
      const gone = await call('DELETE', `${guildBase}/${unknownId}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe('Role mapping not found.');
      const id = await create(guildBase);
      expect((await call('DELETE', `${guildBase}/${id}`)).statusCode).toBe(204);
      expect((await call('GET', guildBase)).json().linkedGroupRoles).toEqual([]);
    });
  });

  describe('Group to Discord: /api/groups/:guildId/group_roles', () => {
    it('answers the roles to choose from and the entries, oldest first', async () => {
      const first = await create(groupBase);
      const second = await create(groupBase);
      const body = (await call('GET', groupBase)).json();
      expect(Object.keys(body).sort()).toEqual(['groupRoles', 'guildRoles', 'linkedGuildRoles']);
      expect(body.linkedGuildRoles.map((e: { id: string }) => e.id)).toEqual([first, second]);
      expect(body.linkedGuildRoles[0]).toEqual({
        id: first,
        discordRoleId: null,
        groupRoleId: null,
        action: 'None',
        version: 0,
      });
      expect(body.groupRoles.map((r: { id: string }) => r.id)).not.toContain(groupRoles.owner);
      expect(body.guildRoles.map((r: { id: string }) => r.id)).not.toContain(hangout.id);
    });

    it("marks the Discord roles at or above the bot's highest as ones the bot cannot give", async () => {
      const body = (await call('GET', groupBase)).json();
      const unavailable = (id: string) =>
        body.guildRoles.find((r: { id: string }) => r.id === id)?.unavailable;
      expect(unavailable(hangout.roles.Moderator)).toBe('aboveBot');
      expect(unavailable(hangout.roles['Event Host'])).toBeNull();
      // The picker's mark matches what saving answers.
      const id = await create(groupBase);
      const refused = await call('PUT', groupBase, {
        id,
        groupRoleId: groupRoles.eventHost,
        discordRoleId: hangout.roles.Moderator,
        action: 'GrantRolePermanent',
      });
      expect(refused.statusCode).toBe(400);
    });

    it('answers 409 with a sentence to the second of two changes from the same read; nothing is lost', async () => {
      const id = await create(groupBase);
      const read = (await call('GET', groupBase))
        .json()
        .linkedGuildRoles.find((e: { id: string }) => e.id === id);
      const first = await call('PUT', groupBase, {
        id,
        groupRoleId: groupRoles.eventHost,
        discordRoleId: hangout.roles['Event Host'],
        action: 'GrantRolePermanent',
        version: read.version,
      });
      expect(first.statusCode, first.body).toBe(200);
      const second = await call('PUT', groupBase, { id, action: 'None', version: read.version });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(MAPPING_CHANGED);
      const now = (await call('GET', groupBase))
        .json()
        .linkedGuildRoles.find((e: { id: string }) => e.id === id);
      expect(now).toEqual({ ...first.json(), version: read.version + 1 });
      expect(await rows(t, 'audit_log', "action = 'mapping.updated' and target_id = $1", [id])).toHaveLength(
        1,
      );
    });

    it('keeps the Discord role for the grant actions only', async () => {
      const id = await create(groupBase);
      const grant = await call('PUT', groupBase, {
        id,
        groupRoleId: groupRoles.eventHost,
        discordRoleId: hangout.roles['Event Host'],
        action: 'GrantRolePermanent',
      });
      expect(grant.statusCode).toBe(200);
      expect(grant.json()).toEqual({
        id,
        groupRoleId: groupRoles.eventHost,
        discordRoleId: hangout.roles['Event Host'],
        action: 'GrantRolePermanent',
        version: 1,
      });
      const none = await call('PUT', groupBase, { id, action: 'None' });
      expect(none.json()).toEqual({
        id,
        groupRoleId: groupRoles.eventHost,
        discordRoleId: null,
        action: 'None',
        version: 2,
      });
    });

    it.each([
      [{ action: 'RevokeRole' }, 'Action must be one of: None, GrantRolePermanent, GrantRoleTemporary.'],
      [
        { action: 'GrantRolePermanent', discordRoleId: hangout.roles.Admin },
        "The bot's role must be above Admin to manage it.",
      ],
      [
        { action: 'GrantRoleTemporary', discordRoleId: hangout.roles.VRCLink },
        'VRCLink is managed by an integration and cannot be given to members.',
      ],
      [{ action: 'GrantRolePermanent', discordRoleId: hangout.id }, 'The @everyone role cannot be chosen.'],
      [{ groupRoleId: groupRoles.owner }, "Owner is the group's owner role and cannot be mapped."],
      [{ groupRoleId: 'grol_nope' }, 'Unknown group role: grol_nope'],
    ])('refuses %j with a sentence', async (change, message) => {
      const id = await create(groupBase);
      const res = await call('PUT', groupBase, { id, ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });

    it('answers 404 for an unknown entry, and deletes a known one', async () => {
      expect((await call('DELETE', `${groupBase}/${unknownId}`)).statusCode).toBe(404);
      const id = await create(groupBase);
      expect((await call('DELETE', `${groupBase}/${id}`)).statusCode).toBe(204);
      expect((await call('GET', groupBase)).json().linkedGuildRoles).toEqual([]);
    });
  });

  describe('group roles at or above the bot', () => {
    it('refuses a Discord-to-group mapping to a group role ranked at or above the bot, naming it', async () => {
      const id = await create(guildBase);
      for (const [roleId, name] of [
        [groupRoles.moderator, 'Moderator'],
        [groupRoles.bot, 'Bot'],
      ]) {
        const res = await call('PUT', guildBase, {
          id,
          discordRoleId: hangout.roles.Verified,
          groupRoleId: roleId,
          action: 'GrantRolePermanent',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(
          `The bot's role in the group must rank above ${name} to give or take it.`,
        );
      }
      const stored = await t.ctx.database.executeSql(
        'select group_role_id from discord_group_mappings where id = $1',
        [id],
      );
      expect(stored.rows[0].group_role_id).toBeNull();
      // A role below the bot's is saved.
      const below = await call('PUT', guildBase, {
        id,
        discordRoleId: hangout.roles.Verified,
        groupRoleId: groupRoles.eventHost,
        action: 'RevokeRole',
      });
      expect(below.statusCode).toBe(200);
    });
  });

  describe('purchase-only group roles (VRChat manages them)', () => {
    it('are neither offered nor accepted, either way', async () => {
      expect(purchaseRole, 'the simulator creates purchase-only roles').not.toBeNull();
      const role = purchaseRole!;
      for (const base of [guildBase, groupBase]) {
        const offered = (await call('GET', base)).json().groupRoles.map((r: { id: string }) => r.id);
        expect(offered).not.toContain(role.id);
        const id = await create(base);
        const res = await call('PUT', base, { id, action: 'GrantRolePermanent', groupRoleId: role.id });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(
          `${role.name} is given by VRChat through a purchase and cannot be mapped.`,
        );
      }
    });
  });

  describe('audit and sync', () => {
    it('records every change and asks for a sync after each', async () => {
      const send = vi.spyOn(t.ctx.jobs, 'send');
      try {
        const id = await create(guildBase);
        await call('PUT', guildBase, { id, discordRoleId: hangout.roles.Verified, action: 'NoMembership' });
        await call('DELETE', `${guildBase}/${id}`);
        const other = await create(groupBase);
        await call('PUT', groupBase, { id: other, groupRoleId: groupRoles.linked });
        await call('DELETE', `${groupBase}/${other}`);
        const { rows: entries } = await t.ctx.database.executeSql(
          "select * from audit_log where action like 'mapping.%' order by created_at, id",
        );
        expect(entries.map((e) => [e.action, e.target_id, e.guild_id, e.actor_id])).toEqual([
          ['mapping.created', id, hangout.id, owner.id],
          ['mapping.updated', id, hangout.id, owner.id],
          ['mapping.deleted', id, hangout.id, owner.id],
          ['mapping.created', other, hangout.id, owner.id],
          ['mapping.updated', other, hangout.id, owner.id],
          ['mapping.deleted', other, hangout.id, owner.id],
        ]);
        expect(entries[1].details).toMatchObject({
          direction: 'discordToGroup',
          before: { action: 'None', discordRoleId: null },
          after: { action: 'NoMembership', discordRoleId: hangout.roles.Verified },
        });
        expect(entries[4].details).toMatchObject({ direction: 'groupToDiscord' });
        // Each entry says what changed, roles by name (the seeded Hangout's 'Verified', the group's roles).
        const groupRole = (await t.ctx.vrchat.getGroupRoles(hangoutGroup)).find(
          (r) => r.id === groupRoles.linked,
        );
        expect(entries.map((e) => (e.details as { summary: string }).summary)).toEqual([
          'Added Discord → group mapping: none · None · none',
          'Discord → group mapping: none · None · none → Verified · NoMembership · none',
          'Deleted Discord → group mapping: Verified · NoMembership · none',
          'Added Group → Discord mapping: none · None · none',
          `Group → Discord mapping: none · None · none → ${groupRole?.name} · None · none`,
          `Deleted Group → Discord mapping: ${groupRole?.name} · None · none`,
        ]);
        expect(send).toHaveBeenCalledTimes(6);
        expect(send).toHaveBeenCalledWith(
          syncGuildJob,
          { guildId: hangout.id, reason: 'mappings' },
          expect.objectContaining({ singletonKey: hangout.id }),
        );
      } finally {
        send.mockRestore();
      }
    });

    it('names a group role by its id when VRChat cannot be read, and still saves', async () => {
      const id = await create(groupBase);
      expect((await call('PUT', groupBase, { id, groupRoleId: groupRoles.linked })).statusCode).toBe(200);
      // The copy the PUT read is young enough to answer for a minute: older, the delete asks VRChat.
      await t.ctx.database.executeSql("update group_role_cache set read_at = now() - interval '2 minutes'");
      await t.control('POST', '/faults', {
        platform: 'vrchat',
        kind: 'server_error',
        pathContains: `/groups/${hangoutGroup}/roles`,
      });
      try {
        expect((await call('DELETE', `${groupBase}/${id}`)).statusCode).toBe(204);
      } finally {
        await t.control('DELETE', '/faults');
      }
      const [deleted] = await rows(t, 'audit_log', "action = 'mapping.deleted' and target_id = $1", [id]);
      expect((deleted.details as { summary: string }).summary).toBe(
        `Deleted Group → Discord mapping: ${groupRoles.linked} · None · none`,
      );
    });
  });
});
