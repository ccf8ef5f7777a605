import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { discordRole, rows, signInMember, withOwnerApp } from '../../../../test/factories.js';
import { guildPermissions } from '../../../db/schema/index.js';
import { waitFor } from '../../../platforms/testing.js';
import { createSession } from '../../identity/index.js';
import { reconcileAllGuildMembers } from '../members/member-mirror.reconcile.js';

const { hangout, danceClub, quietCorner } = seedGuildIds;
type User = { id: string; session: string };

describe('server permissions (against the simulators)', () => {
  let t: TestApp, owner: User;
  withOwnerApp(laxSimulator.forManyDiscordCalls, (scene) => {
    ({ t, owner } = scene);
  });

  const guilds = (user: User) => t.inject({ method: 'GET', url: '/api/guilds', session: user.session });
  const grant = (by: User, guildId: string, userId: string, permissions: string[]) =>
    t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${guildId}/${userId}`,
      session: by.session,
      payload: { permissions },
    });
  const revoke = (by: User, guildId: string, userId: string) =>
    t.inject({ method: 'DELETE', url: `/api/guilds/permissions/${guildId}/${userId}`, session: by.session });
  const list = (by: User, guildId: string) =>
    t.inject({ method: 'GET', url: `/api/guilds/permissions/${guildId}`, session: by.session });
  const worlds = (user: User, guildId = hangout.id) =>
    t.inject({ method: 'GET', url: `/api/guilds/${guildId}/worlds`, session: user.session });

  describe('GET /api/guilds', () => {
    it('lists the servers the Discord owner runs, with every permission', async () => {
      const res = await guilds(owner);
      expect(res.statusCode).toBe(200);
      const hangoutEntry = res.json().find((g: { id: string }) => g.id === hangout.id);
      expect(hangoutEntry).toMatchObject({
        name: 'VRChat Hangout',
        icon: expect.stringContaining('/icons/'),
      });
      expect(hangoutEntry.permissions).toEqual([
        'Admin',
        'WorldPreview',
        'ViewGuild',
        'ViewWorlds',
        'ManageWorlds',
        'ViewImages',
        'ManageImages',
      ]);
    });

    it('makes members whose Discord role grants Administrator admins here too', async () => {
      const admin = await signInMember(t, hangout.id, { roles: [hangout.roles.Admin] });
      expect((await guilds(admin)).json().map((g: { id: string }) => g.id)).toEqual([hangout.id]);
      expect((await worlds(admin)).statusCode).toBe(200);
    });

    it('makes members whose Discord role grants Manage Server admins too', async () => {
      const manager = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
      const res = await guilds(manager);
      expect(res.json()).toEqual([expect.objectContaining({ id: danceClub.id })]);
      expect(res.json()[0].permissions).toContain('Admin');
    });

    it('leaves out servers where the caller has no permission (moderators and plain members)', async () => {
      const moderator = await signInMember(t, hangout.id, { roles: [hangout.roles.Moderator] });
      expect((await guilds(moderator)).json()).toEqual([]);
      const res = await worlds(moderator);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You need the ViewWorlds permission in this server.');
    });

    it('accepts the Unity SDK access token as Authorization: Bearer', async () => {
      const token = await createSession(t.ctx.db, owner.id, 'sdk');
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/guilds',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().map((g: { id: string }) => g.id)).toContain(hangout.id);
    });
  });

  describe('granting permissions', () => {
    it('gives a member exactly what was granted plus what it implies, and audit-logs it', async () => {
      const member = await signInMember(t, hangout.id);
      const res = await grant(owner, hangout.id, member.id, ['ViewWorlds']);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        userId: member.id,
        permissions: ['ViewWorlds'],
        effective: ['WorldPreview', 'ViewWorlds'],
      });
      expect((await guilds(member)).json()).toEqual([
        expect.objectContaining({ id: hangout.id, permissions: ['WorldPreview', 'ViewWorlds'] }),
      ]);
      expect((await worlds(member)).statusCode).toBe(200);
      const create = await t.inject({
        method: 'PUT',
        url: `/api/guilds/${hangout.id}/worlds`,
        session: member.session,
        payload: {},
      });
      expect(create.statusCode).toBe(403);
      expect(create.json().message).toBe('You need the ManageWorlds permission in this server.');
      const audit = await rows(t, 'audit_log', "action = 'permissions.set' and target_id = $1", [member.id]);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor_id: owner.id, guild_id: hangout.id });
      // Names the member and says what changed, for the audit log and the Discord log post.
      expect(audit[0].details).toEqual({
        targetName: member.username,
        summary: `${member.username}: none → ViewWorlds`,
        before: [],
        after: ['ViewWorlds'],
      });
    });

    it('lists granted users with their Discord name, and replaces a grant on update', async () => {
      const member = await signInMember(t, hangout.id, { username: 'grant_list_member' });
      await grant(owner, hangout.id, member.id, ['ViewImages']);
      await grant(owner, hangout.id, member.id, ['ManageImages', 'ViewGuild']);
      const res = await list(owner, hangout.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().users).toContainEqual({
        userId: member.id,
        username: 'grant_list_member',
        avatar: null,
        permissions: ['ManageImages', 'ViewGuild'],
        implicit: false,
        reason: null,
      });
    });

    it('lists the admins Discord makes as implicit read-only rows, with the reason', async () => {
      const discordAdmin = await signInMember(t, hangout.id, {
        username: 'implicit_admin',
        roles: [hangout.roles.Admin],
      });
      const moderator = await signInMember(t, hangout.id, { roles: [hangout.roles.Moderator] });
      await waitFor(async () =>
        (await list(owner, hangout.id))
          .json()
          .users.some((u: { userId: string }) => u.userId === discordAdmin.id),
      );
      const users = (await list(owner, hangout.id)).json().users;
      expect(users).toContainEqual(
        expect.objectContaining({
          userId: owner.id,
          username: 'demo_admin',
          permissions: ['Admin'],
          implicit: true,
          reason: 'Server owner',
        }),
      );
      expect(users).toContainEqual({
        userId: discordAdmin.id,
        username: 'implicit_admin',
        avatar: null,
        permissions: ['Admin'],
        implicit: true,
        reason: 'Discord Administrator',
      });
      expect(users).not.toContainEqual(expect.objectContaining({ userId: moderator.id }));
      expect(
        users.filter((u: { implicit: boolean }) => !u.implicit).map((u: { userId: string }) => u.userId),
      ).not.toContain(owner.id);

      const manager = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
      await waitFor(async () =>
        (await list(manager, danceClub.id))
          .json()
          .users.some((u: { userId: string }) => u.userId === manager.id),
      );
      expect((await list(manager, danceClub.id)).json().users).toContainEqual(
        expect.objectContaining({ userId: manager.id, implicit: true, reason: 'Manage Server' }),
      );
    });

    it('keeps a granted entry editable for a Discord admin, with the reason alongside', async () => {
      const discordAdmin = await signInMember(t, hangout.id, { roles: [hangout.roles.Admin] });
      await grant(owner, hangout.id, discordAdmin.id, ['ViewGuild']);
      const rowsFor = (await list(owner, hangout.id))
        .json()
        .users.filter((u: { userId: string }) => u.userId === discordAdmin.id);
      expect(rowsFor).toEqual([
        expect.objectContaining({
          permissions: ['ViewGuild'],
          implicit: false,
          reason: 'Discord Administrator',
        }),
      ]);
    });

    it('refuses callers who are not Admin of that server, whatever they hold elsewhere', async () => {
      const member = await signInMember(t, hangout.id);
      const other = await signInMember(t, hangout.id);
      await grant(owner, hangout.id, member.id, ['ManageWorlds', 'ManageImages', 'ViewGuild']);
      for (const res of [
        await grant(member, hangout.id, other.id, ['Admin']),
        await grant(member, hangout.id, member.id, ['Admin']),
        await revoke(member, hangout.id, member.id),
        await list(member, hangout.id),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe('You need the Admin permission in this server.');
      }
      // An admin of the Hangout has no say in the Dance Club.
      const hangoutAdmin = await signInMember(t, hangout.id, { roles: [hangout.roles.Admin] });
      const res = await grant(hangoutAdmin, danceClub.id, member.id, ['Admin']);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You are not a member of this server.');
    });

    it('lets a granted Admin manage permissions in that server', async () => {
      const admin = await signInMember(t, hangout.id);
      const member = await signInMember(t, hangout.id);
      await grant(owner, hangout.id, admin.id, ['Admin']);
      expect((await grant(admin, hangout.id, member.id, ['WorldPreview'])).statusCode).toBe(200);
    });

    it('answers 400 for an empty or unknown permission list, and 404 for someone outside the server', async () => {
      const member = await signInMember(t, hangout.id);
      const empty = await grant(owner, hangout.id, member.id, []);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('Select at least one permission.');
      expect((await grant(owner, hangout.id, member.id, ['Root'])).statusCode).toBe(400);
      const outsider = await grant(owner, hangout.id, seedUserIds.unaffiliated[0], ['ViewWorlds']);
      expect(outsider.statusCode).toBe(404);
      expect(outsider.json().message).toBe('That user is not a member of this server.');
    });

    it('answers 404 where the bot is not installed', async () => {
      const res = await list(owner, quietCorner.id);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('The bot is not in this server.');
    });

    it('deletes an entry (audit-logged); the user loses access; a second delete is 404', async () => {
      const member = await signInMember(t, hangout.id);
      await grant(owner, hangout.id, member.id, ['ViewWorlds']);
      expect((await revoke(owner, hangout.id, member.id)).statusCode).toBe(204);
      expect((await worlds(member)).statusCode).toBe(403);
      expect((await guilds(member)).json()).toEqual([]);
      const again = await revoke(owner, hangout.id, member.id);
      expect(again.statusCode).toBe(404);
      expect(
        await rows(t, 'audit_log', "action = 'permissions.delete' and target_id = $1", [member.id]),
      ).toHaveLength(1);
    });

    it('gives nothing to someone who left the server, whatever was granted', async () => {
      const member = await signInMember(t, hangout.id);
      await grant(owner, hangout.id, member.id, ['Admin']);
      expect((await worlds(member)).statusCode).toBe(200);
      await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${member.id}`);
      await waitFor(async () => (await t.ctx.discord.getMember(hangout.id, member.id)) === null);
      const res = await worlds(member);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You are not a member of this server.');
      expect((await guilds(member)).json()).toEqual([]);
    });

    it('ends a grant when the member leaves (audit-logged by the bot); rejoining gives nothing back', async () => {
      const member = await signInMember(t, hangout.id);
      await grant(owner, hangout.id, member.id, ['ViewGuild']);
      expect((await guilds(member)).json()).toHaveLength(1);
      await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${member.id}`);
      await waitFor(
        async () => (await rows(t, 'guild_permissions', 'user_id = $1', [member.id])).length === 0,
      );
      const ended = await rows(
        t,
        'audit_log',
        "action = 'permissions.ended_left_server' and target_id = $1",
        [member.id],
      );
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({ actor_id: 'bot', guild_id: hangout.id });
      expect(ended[0].details).toEqual({ before: ['ViewGuild'] });

      await t.control('POST', `/discord/guilds/${hangout.id}/members`, { userId: member.id });
      await waitFor(async () => (await t.ctx.discord.getMember(hangout.id, member.id)) !== null);
      expect((await guilds(member)).json()).toEqual([]);
      expect(await rows(t, 'guild_permissions', 'user_id = $1', [member.id])).toEqual([]);
      expect((await list(owner, hangout.id)).json().users).not.toContainEqual(
        expect.objectContaining({ userId: member.id }),
      );
    });

    it('ends the grants of members the reconciliation finds gone (a leave missed while offline)', async () => {
      const member = await signInMember(t, hangout.id);
      await grant(owner, hangout.id, member.id, ['ViewWorlds']);
      const gone = seedUserIds.unaffiliated[1];
      // What a restart finds: a grant whose holder left while the bot was not listening.
      await t.ctx.db
        .insert(guildPermissions)
        .values({ guildId: hangout.id, userId: gone, permissions: ['ViewGuild'], grantedBy: owner.id });
      await reconcileAllGuildMembers(t.ctx);
      expect(await rows(t, 'guild_permissions', 'user_id = $1', [gone])).toEqual([]);
      expect(await rows(t, 'guild_permissions', 'user_id = $1', [member.id])).toHaveLength(1);
      const ended = await rows(
        t,
        'audit_log',
        "action = 'permissions.ended_left_server' and target_id = $1",
        [gone],
      );
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({ actor_id: 'bot', guild_id: hangout.id });
    });

    it('follows Discord: a member given an Administrator role becomes Admin, and loses it with the role', async () => {
      const member = await signInMember(t, hangout.id);
      const role = await discordRole(t, hangout.id);
      await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${role}`, {
        permissions: String(1 << 3),
      });
      await t.control('PUT', `/discord/guilds/${hangout.id}/members/${member.id}/roles/${role}`);
      await waitFor(async () => (await guilds(member)).json().length === 1);
      await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${member.id}/roles/${role}`);
      await waitFor(async () => (await guilds(member)).json().length === 0);
    });
  });
});
