import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  discordRole,
  itRefusesOutsiders,
  rows,
  signInMember,
  vrchatLink,
  withOwnerApp,
} from '../../../../test/factories.js';
import { SETTINGS_CHANGED } from '../../../kernel/versions.js';
import { waitFor } from '../../../platforms/testing.js';

const { hangout, quietCorner } = seedGuildIds;
const base = `/api/guilds/${hangout.id}`;
const entryId = '1c2b3d4e-0000-4000-8000-000000000000';
type User = { id: string; session: string };

/** Every route of the Discord tab, with a valid request. */
const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
  ['GET', base],
  ['POST', base, { autoAssignRoles: {} }],
  ['POST', `${base}/contact`, { email: 'admin@example.com' }],
  ['GET', `${base}/guest_roles`],
  ['POST', `${base}/guest_roles`],
  ['PUT', `${base}/guest_roles`, { id: entryId, count: 1 }],
  ['DELETE', `${base}/guest_roles/${entryId}`],
];

describe('Discord tab settings (against the simulators)', () => {
  let t: TestApp, owner: User;
  withOwnerApp(laxSimulator.forVrchatTestPacing, (scene) => {
    ({ t, owner } = scene);
  });

  const get = (user = owner, url = base) => t.inject({ method: 'GET', url, session: user.session });
  const setRoles = (autoAssignRoles: object, user = owner) =>
    t.inject({ method: 'POST', url: base, session: user.session, payload: { autoAssignRoles } });
  const setContact = (payload: object, user = owner) =>
    t.inject({ method: 'POST', url: `${base}/contact`, session: user.session, payload });
  const grant = async (user: User, permissions: string[]) => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${user.id}`,
      session: owner.session,
      payload: { permissions },
    });
    expect(res.statusCode).toBe(200);
  };

  describe('access', () => {
    itRefusesOutsiders(
      () => t,
      hangout.id,
      routes,
      () => /^You need the (ViewGuild|Admin|ManageImages) permission/,
    );

    it('lets ViewGuild read the tab and its guest roles, but change nothing', async () => {
      const viewer = await signInMember(t, hangout.id);
      await grant(viewer, ['ViewGuild']);
      expect((await get(viewer)).statusCode).toBe(200);
      expect((await get(viewer, `${base}/guest_roles`)).statusCode).toBe(200);
      const expected: Record<string, string> = {
        [`POST ${base}`]: 'Admin',
        [`POST ${base}/contact`]: 'ManageImages',
      };
      for (const [method, url, payload] of routes.filter(([m]) => m !== 'GET')) {
        const res = await t.inject({ method, url, payload, session: viewer.session });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        const needed = expected[`${method} ${url}`] ?? 'Admin';
        expect(res.json().message).toBe(`You need the ${needed} permission in this server.`);
      }
    });

    it('answers 404 where the bot is not, and 400 for a malformed server id', async () => {
      const res = await get(owner, `/api/guilds/${quietCorner.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('The bot is not in this server.');
      expect((await get(owner, '/api/guilds/not-a-guild')).statusCode).toBe(400);
    });
  });

  describe('GET /api/guilds/:guildId', () => {
    it('answers the server with its counts, roles (no @everyone, highest first) and empty settings', async () => {
      const res = await get();
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const members = await t.ctx.discord.listMembers(hangout.id);
      expect(body).toMatchObject({
        id: hangout.id,
        name: 'VRChat Hangout',
        icon: expect.stringContaining(hangout.id),
        members: members.length,
        linkedMembers: 0,
        autoAssignRoles: { ageVerifiedRoleId: null, ageVerifiedPlus18RoleId: null, linkedRoleId: null },
        contactEmail: null,
      });
      expect(body.roles[0]).toMatchObject({ id: hangout.roles.Admin, name: 'Admin', color: 0xe74c3c });
      expect(body.roles.map((r: { id: string }) => r.id)).not.toContain(hangout.id);
      const positions = body.roles.map((r: { position: number }) => r.position);
      expect(positions).toEqual([...positions].sort((a, b) => b - a));
    });

    it("marks the roles the bot cannot give: an integration's, and those at or above the bot's highest", async () => {
      const unavailable = (body: { roles: { id: string; unavailable: string | null }[] }, id: string) =>
        body.roles.find((r) => r.id === id)?.unavailable;
      const body = (await get()).json();
      expect(unavailable(body, hangout.roles.VRCLink)).toBe('managed');
      expect(unavailable(body, hangout.roles.Moderator)).toBe('aboveBot');
      expect(unavailable(body, hangout.roles.Admin)).toBe('aboveBot');
      expect(unavailable(body, hangout.roles.Verified)).toBeNull();
      // Each is refused the same way when chosen anyway.
      expect((await setRoles({ linkedRoleId: hangout.roles.Moderator })).statusCode).toBe(400);
      expect((await setRoles({ linkedRoleId: hangout.roles.Verified })).statusCode).toBe(200);
    });

    it('counts the members with a VRChat link, not links of people elsewhere', async () => {
      const before = (await get()).json().linkedMembers;
      await vrchatLink(t, { discordUserId: seedUserIds.humans[4], vrchatName: 'Linked Member' });
      await vrchatLink(t, { discordUserId: seedUserIds.unaffiliated[0], vrchatName: 'Not Here' });
      expect((await get()).json().linkedMembers).toBe(before + 1);
    });
  });

  describe('POST /api/guilds/:guildId (auto-assigned roles)', () => {
    it('sets, keeps and clears roles, answering the tab and audit-logging before and after', async () => {
      const plus18 = await discordRole(t, hangout.id, '18+ Verified');
      const set = await setRoles({ ageVerifiedPlus18RoleId: plus18, linkedRoleId: hangout.roles.Verified });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({
        id: hangout.id,
        autoAssignRoles: {
          ageVerifiedRoleId: null,
          ageVerifiedPlus18RoleId: plus18,
          linkedRoleId: hangout.roles.Verified,
        },
      });
      const cleared = await setRoles({ linkedRoleId: null });
      expect(cleared.json().autoAssignRoles).toEqual({
        ageVerifiedRoleId: null,
        ageVerifiedPlus18RoleId: plus18,
        linkedRoleId: null,
      });
      expect((await get()).json().autoAssignRoles).toEqual(cleared.json().autoAssignRoles);
      const audits = await rows(t, 'audit_log', "action = 'guild.auto_assign_roles' and guild_id = $1", [
        hangout.id,
      ]);
      expect(audits.at(-1)).toMatchObject({
        actor_id: owner.id,
        details: {
          summary: 'Linked Users Role: Verified → none; Verified taken back from its holders',
          before: {
            ageVerifiedRoleId: null,
            ageVerifiedPlus18RoleId: plus18,
            linkedRoleId: hangout.roles.Verified,
          },
          after: { ageVerifiedRoleId: null, ageVerifiedPlus18RoleId: plus18, linkedRoleId: null },
        },
      });
      const saved = await rows(t, 'guild_settings', 'guild_id = $1', [hangout.id]);
      expect(saved[0]).toMatchObject({ age_verified_plus18_role_id: plus18, linked_role_id: null });
    });

    it.each([
      [hangout.id, 'The @everyone role cannot be chosen.'],
      ['1400000000000009999', 'Unknown role: 1400000000000009999'],
      [hangout.roles.Moderator, "The bot's role must be above Moderator to manage it."],
      [hangout.roles.VRCLink, 'VRCLink is managed by an integration and cannot be given to members.'],
    ])('refuses %s: %s, saving nothing', async (roleId, message) => {
      const before = (await get()).json().autoAssignRoles;
      const res = await setRoles({ ageVerifiedRoleId: roleId });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      expect((await get()).json().autoAssignRoles).toEqual(before);
    });

    it('answers 400 for malformed bodies', async () => {
      for (const [payload, message] of [
        [{}, 'autoAssignRoles is missing.'],
        [{ autoAssignRoles: { linkedRoleId: 'abc' } }, 'autoAssignRoles.linkedRoleId must be a Discord id.'],
        [{ autoAssignRoles: { x: null } }, 'autoAssignRoles has a field it does not know: x.'],
      ] as const) {
        const res = await t.inject({ method: 'POST', url: base, session: owner.session, payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toBe(message);
      }
    });

    it('does not check again a role saved before, so another role can still be changed', async () => {
      const role = await discordRole(t, hangout.id, 'Soon Above The Bot');
      expect((await setRoles({ ageVerifiedRoleId: role })).statusCode).toBe(200);
      // A server admin drags the role above the bot's in Discord.
      const position = async (id: string) =>
        (await t.ctx.discord.getGuild(hangout.id))?.roles.find((r) => r.id === id)?.position ?? 0;
      const botRank = await position(hangout.roles.VRCLink);
      await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${role}`, { position: botRank + 1 });
      await waitFor(async () => (await position(role)) > (await position(hangout.roles.VRCLink)));
      expect((await setRoles({ linkedRoleId: role })).json().message).toBe(
        "The bot's role must be above Soon Above The Bot to manage it.",
      );
      const res = await setRoles({ ageVerifiedRoleId: role, linkedRoleId: hangout.roles.Verified });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('POST /api/guilds/:guildId with the version read (no lost update)', () => {
    it('answers 409 with a sentence to the second of two saves from the same read; nothing is lost', async () => {
      const read = (await get()).json();
      const [a, b] = [
        await discordRole(t, hangout.id, 'First Save'),
        await discordRole(t, hangout.id, 'Late'),
      ];
      const save = (autoAssignRoles: object) =>
        t.inject({
          method: 'POST',
          url: base,
          session: owner.session,
          payload: { autoAssignRoles, version: read.version },
        });
      const first = await save({ linkedRoleId: a });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().version).toBe(read.version + 1);
      const second = await save({ linkedRoleId: b, ageVerifiedPlus18RoleId: b });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(SETTINGS_CHANGED);
      // The first save stands whole; the second changed nothing and wrote no audit entry.
      const now = (await get()).json();
      expect(now.autoAssignRoles).toEqual({ ...read.autoAssignRoles, linkedRoleId: a });
      expect(now.version).toBe(read.version + 1);
      const audits = await rows(t, 'audit_log', "action = 'guild.auto_assign_roles'");
      expect(audits.at(-1)?.details).toMatchObject({ after: { linkedRoleId: a } });
      // Saved again from the fresh read, it goes through.
      const again = await t.inject({
        method: 'POST',
        url: base,
        session: owner.session,
        payload: { autoAssignRoles: { ageVerifiedPlus18RoleId: b }, version: now.version },
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().autoAssignRoles).toMatchObject({ linkedRoleId: a, ageVerifiedPlus18RoleId: b });
    });

    it('answers 400 with a sentence for a version that is not a whole number', async () => {
      const res = await t.inject({
        method: 'POST',
        url: base,
        session: owner.session,
        payload: { autoAssignRoles: {}, version: 'latest' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('version must be the whole number the settings were read with.');
    });
  });

  describe('POST /api/guilds/:guildId/contact', () => {
    it('stores the contact e-mail, shows it on the tab and audit-logs the change', async () => {
      const res = await setContact({ email: ' images@example.com ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ contactEmail: 'images@example.com' });
      expect((await get()).json().contactEmail).toBe('images@example.com');
      expect((await setContact({ email: 'second@example.com' })).statusCode).toBe(200);
      const audits = await rows(t, 'audit_log', "action = 'guild.contact_email' and guild_id = $1", [
        hangout.id,
      ]);
      expect(audits.at(-1)).toMatchObject({
        actor_id: owner.id,
        details: { before: 'images@example.com', after: 'second@example.com' },
      });
    });

    it.each(['', 'not-an-email', 'a@b', 'two words@example.com'])(
      "answers 'Please enter a valid email address.' for %j",
      async (email) => {
        const res = await setContact({ email });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe('Please enter a valid email address.');
      },
    );

    it('answers 400 without an email field', async () => {
      expect((await setContact({})).statusCode).toBe(400);
    });

    it('lets a member with ManageImages set it', async () => {
      const images = await signInMember(t, hangout.id);
      await grant(images, ['ManageImages']);
      const res = await setContact({ email: 'worlds@example.com' }, images);
      expect(res.statusCode).toBe(200);
      // ManageImages does not include viewing the tab.
      expect((await get(images)).statusCode).toBe(403);
    });
  });
});
