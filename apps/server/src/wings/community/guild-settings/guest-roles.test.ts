import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  discordMember,
  discordRole,
  guestRoleEntry,
  rows,
  signInMember,
  simulatorRoles,
  withOwnerApp,
} from '../../../../test/factories.js';
import { GUEST_ROLE_CHANGED } from '../../../kernel/versions.js';

const { hangout, danceClub } = seedGuildIds;
const base = `/api/guilds/${hangout.id}/guest_roles`;
type User = { id: string; session: string };
type Entry = {
  id: string;
  primaryRoleId: string | null;
  guestRoleId: string | null;
  count: number;
  version: number;
};

describe('guest roles of the Discord tab (against the simulators)', () => {
  let t: TestApp, owner: User;
  withOwnerApp(laxSimulator.forManyDiscordCalls, (scene) => {
    ({ t, owner } = scene);
  });

  const list = async (url = base) =>
    (await t.inject({ method: 'GET', url, session: owner.session })).json().guestRoles as Entry[];
  const add = async () => {
    const res = await t.inject({ method: 'POST', url: base, session: owner.session });
    expect(res.statusCode).toBe(200);
    return (res.json().guestRoles as Entry[]).at(-1) as Entry;
  };
  const put = (payload: object) => t.inject({ method: 'PUT', url: base, session: owner.session, payload });
  const remove = (id: string) => t.inject({ method: 'DELETE', url: `${base}/${id}`, session: owner.session });
  /** A complete entry made through the API: holders of a new main role may give `count` guests a new role. */
  const setUp = async (count: number) => {
    const entry = await add();
    const mainRole = await discordRole(t, hangout.id);
    const guestRole = await discordRole(t, hangout.id);
    const res = await put({ id: entry.id, primaryRoleId: mainRole, guestRoleId: guestRole, count });
    expect(res.statusCode).toBe(200);
    return { id: entry.id, mainRole, guestRole };
  };
  const assign = async (host: User, guestId: string) => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/users/guests/${hangout.id}/assign`,
      session: host.session,
      payload: { discordId: guestId },
    });
    expect(res.statusCode).toBe(200);
  };
  const guestsOf = async (host: User) =>
    (await rows(t, 'guests', 'host_user_id = $1', [host.id])).map((g) => g.guest_discord_id);
  const holds = async (userId: string, roleId: string) =>
    (await simulatorRoles(t, hangout.id, userId))?.includes(roleId) ?? false;

  describe('GET and POST /api/guilds/:guildId/guest_roles', () => {
    it('adds empty entries, answering the whole list oldest first, audit-logged', async () => {
      expect(await list()).toEqual([]);
      const first = await add();
      expect(first).toEqual({
        id: expect.any(String),
        primaryRoleId: null,
        guestRoleId: null,
        count: 0,
        version: 0,
      });
      const second = await add();
      expect((await list()).map((e) => e.id)).toEqual([first.id, second.id]);
      const audits = await rows(t, 'audit_log', "action = 'guest_role.create' and target_id = $1", [
        first.id,
      ]);
      expect(audits[0]).toMatchObject({ actor_id: owner.id, guild_id: hangout.id });
    });

    it('caps a server at 25 entries, also under simultaneous requests', async () => {
      const admin = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
      const url = `/api/guilds/${danceClub.id}/guest_roles`;
      const results = await Promise.all(
        Array.from({ length: 28 }, () => t.inject({ method: 'POST', url, session: admin.session })),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(25);
      const refused = results.filter((r) => r.statusCode === 409);
      expect(refused).toHaveLength(3);
      expect(refused[0].json().message).toBe('A server can have at most 25 guest roles.');
    });
  });

  describe('PUT /api/guilds/:guildId/guest_roles', () => {
    it('changes roles and count, answers the entry and audit-logs before and after', async () => {
      const entry = await add();
      const guestRole = await discordRole(t, hangout.id, 'Visitor');
      const res = await put({
        id: entry.id,
        primaryRoleId: hangout.roles['Event Host'],
        guestRoleId: guestRole,
        count: 3,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: entry.id,
        primaryRoleId: hangout.roles['Event Host'],
        guestRoleId: guestRole,
        count: 3,
        version: 1,
      });
      const cleared = await put({ id: entry.id, primaryRoleId: null });
      expect(cleared.json()).toEqual({
        id: entry.id,
        primaryRoleId: null,
        guestRoleId: guestRole,
        count: 3,
        version: 2,
      });
      const audits = await rows(t, 'audit_log', "action = 'guest_role.update' and target_id = $1", [
        entry.id,
      ]);
      expect(audits.map((a) => a.details)).toEqual([
        { before: entry, after: res.json(), summary: 'Main role Event Host · guest role Visitor · 3 guests' },
        {
          before: res.json(),
          after: cleared.json(),
          summary: 'Main role none · guest role Visitor · 3 guests',
        },
      ]);
    });

    it.each([[-1], [26], [1.5], ['2']])('refuses count %j', async (count) => {
      const entry = await add();
      const res = await put({ id: entry.id, count });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('Guest role count must be a whole number from 0 to 25.');
    });

    it('answers 409 with a sentence to the second of two changes from the same read; nothing is lost', async () => {
      const entry = await add();
      const first = await put({ id: entry.id, count: 4, version: entry.version });
      expect(first.statusCode, first.body).toBe(200);
      const second = await put({ id: entry.id, count: 2, version: entry.version });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(GUEST_ROLE_CHANGED);
      const [now] = (await list()).filter((e) => e.id === entry.id);
      expect(now).toMatchObject({ count: 4, version: entry.version + 1 });
      expect(
        await rows(t, 'audit_log', "action = 'guest_role.update' and target_id = $1", [entry.id]),
      ).toHaveLength(1);
      expect((await put({ id: entry.id, count: 2, version: now.version })).statusCode).toBe(200);
    });

    it('accepts the counts 0 and 25', async () => {
      const entry = await add();
      expect((await put({ id: entry.id, count: 25 })).json().count).toBe(25);
      expect((await put({ id: entry.id, count: 0 })).json().count).toBe(0);
    });

    it.each([
      ['primaryRoleId', hangout.id, 'The @everyone role cannot be chosen.'],
      ['primaryRoleId', '1400000000000009999', 'Unknown role: 1400000000000009999'],
      ['guestRoleId', hangout.id, 'The @everyone role cannot be chosen.'],
      ['guestRoleId', hangout.roles.Moderator, "The bot's role must be above Moderator to manage it."],
      [
        'guestRoleId',
        hangout.roles.VRCLink,
        'VRCLink is managed by an integration and cannot be given to members.',
      ],
    ])('refuses %s %s: %s, saving nothing', async (field, roleId, message) => {
      const entry = await add();
      const res = await put({ id: entry.id, [field]: roleId });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      expect((await list()).find((e) => e.id === entry.id)).toEqual(entry);
    });

    it('accepts a main role above the bot (the bot never gives it)', async () => {
      const entry = await add();
      expect((await put({ id: entry.id, primaryRoleId: hangout.roles.Moderator })).statusCode).toBe(200);
    });

    it('refuses the same role as main and guest role', async () => {
      const entry = await add();
      const res = await put({
        id: entry.id,
        primaryRoleId: hangout.roles.Verified,
        guestRoleId: hangout.roles.Verified,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The guest role must differ from the main role.');
    });

    it('answers 404 for an unknown entry or one of another server, 400 for a malformed one', async () => {
      const other = await guestRoleEntry(t, {
        guildId: danceClub.id,
        mainRoleId: null,
        guestRoleId: null,
        count: 0,
      });
      for (const id of ['1c2b3d4e-0000-4000-8000-000000000000', other]) {
        const res = await put({ id, count: 1 });
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Guest role not found.');
      }
      for (const payload of [{ count: 1 }, { id: 'nope' }, { id: other, extra: true }]) {
        expect((await put(payload)).statusCode, JSON.stringify(payload)).toBe(400);
      }
    });
  });

  describe('DELETE /api/guilds/:guildId/guest_roles/:guestRoleId', () => {
    it('removes the entry (204), then answers 404; audit-logged', async () => {
      const entry = await add();
      expect((await remove(entry.id)).statusCode).toBe(204);
      expect((await list()).map((e) => e.id)).not.toContain(entry.id);
      const again = await remove(entry.id);
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe('Guest role not found.');
      expect((await remove('not-a-uuid')).statusCode).toBe(400);
      const audits = await rows(t, 'audit_log', "action = 'guest_role.delete' and target_id = $1", [
        entry.id,
      ]);
      expect(audits[0]).toMatchObject({ actor_id: owner.id, details: { before: entry } });
    });
  });

  describe('guest slots follow the entries', () => {
    it('gives no slots for an entry without a guest role, or without a main role', async () => {
      const entry = await add();
      const mainRole = await discordRole(t, hangout.id);
      expect((await put({ id: entry.id, primaryRoleId: mainRole, count: 3 })).statusCode).toBe(200);
      const member = await signInMember(t, hangout.id, { roles: [mainRole] });
      const info = await t.inject({
        method: 'GET',
        url: `/api/users/guests/${hangout.id}`,
        session: member.session,
      });
      expect(info.statusCode).toBe(403);
      expect(info.json().message).toBe('You cannot set up guests in this server.');
      const profile = await t.inject({ method: 'GET', url: '/api/users/profile', session: member.session });
      expect(profile.json().guilds.find((g: { id: string }) => g.id === hangout.id).canSetupGuests).toBe(
        false,
      );
    });

    it('takes the newest guest’s role when a count is lowered; the oldest stays', async () => {
      const { id, mainRole, guestRole } = await setUp(2);
      const host = await signInMember(t, hangout.id, { roles: [mainRole] });
      const oldest = await discordMember(t, hangout.id);
      const newest = await discordMember(t, hangout.id);
      await assign(host, oldest.id);
      await assign(host, newest.id);
      expect(await holds(newest.id, guestRole)).toBe(true);

      const res = await put({ id, count: 1 });
      expect(res.statusCode).toBe(200);
      expect(await guestsOf(host)).toEqual([oldest.id]);
      expect(await holds(oldest.id, guestRole)).toBe(true);
      expect(await holds(newest.id, guestRole)).toBe(false);
      const audits = await rows(
        t,
        'audit_log',
        "action = 'guest.revoked_host_lost_role' and target_id = $1",
        [newest.id],
      );
      expect(audits).toHaveLength(1);
    });

    it('takes the old guest role back when an entry’s guest role changes', async () => {
      const { id, mainRole, guestRole } = await setUp(2);
      const host = await signInMember(t, hangout.id, { roles: [mainRole] });
      const guest = await discordMember(t, hangout.id);
      await assign(host, guest.id);
      const newRole = await discordRole(t, hangout.id);
      expect((await put({ id, guestRoleId: newRole })).statusCode).toBe(200);
      expect(await guestsOf(host)).toEqual([]);
      expect(await holds(guest.id, guestRole)).toBe(false);
      // The host may add them again, now with the new role.
      await assign(host, guest.id);
      expect(await holds(guest.id, newRole)).toBe(true);
    });

    it('takes every guest role back when the entry is deleted', async () => {
      const { id, mainRole, guestRole } = await setUp(1);
      const host = await signInMember(t, hangout.id, { roles: [mainRole] });
      const guest = await discordMember(t, hangout.id);
      await assign(host, guest.id);
      expect((await remove(id)).statusCode).toBe(204);
      expect(await guestsOf(host)).toEqual([]);
      expect(await holds(guest.id, guestRole)).toBe(false);
    });

    it('leaves guests alone when a count is raised', async () => {
      const { id, mainRole } = await setUp(1);
      const host = await signInMember(t, hangout.id, { roles: [mainRole] });
      const guest = await discordMember(t, hangout.id);
      await assign(host, guest.id);
      expect((await put({ id, count: 4 })).statusCode).toBe(200);
      expect(await guestsOf(host)).toEqual([guest.id]);
    });
  });

  describe('POST /api/guilds/:guildId/sync/preview of a guest-role change', () => {
    const preview = (id: string, entry: object | null, session = owner.session) =>
      t.inject({
        method: 'POST',
        url: `/api/guilds/${hangout.id}/sync/preview`,
        session,
        payload: { kind: 'guestRole', id, entry },
      });
    /** An entry with `count` slots and a host with two Discord guests (named, oldest first). */
    const withTwoGuests = async (count: number) => {
      const set = await setUp(count);
      const host = await signInMember(t, hangout.id, { roles: [set.mainRole] });
      const oldest = await discordMember(t, hangout.id);
      const newest = await discordMember(t, hangout.id);
      await assign(host, oldest.id);
      await assign(host, newest.id);
      const names = [oldest.username, newest.username];
      const roleName = (await t.ctx.discord.getGuild(hangout.id))?.roles.find(
        (r) => r.id === set.guestRole,
      )?.name;
      return { ...set, host, oldest, newest, names, roleName };
    };

    it('names the newest guest for a lowered count, and saves nothing', async () => {
      const s = await withTwoGuests(2);
      const res = await preview(s.id, { count: 1 });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(1);
      expect(body.effects).toHaveLength(1);
      expect(body.effects[0].taken).toEqual([s.names[1]]);
      expect(body.effects[0].sentence).toBe(`${s.roleName} will be taken from 1 guest.`);
      expect((await list()).find((e) => e.id === s.id)?.count).toBe(2);
      expect(await holds(s.newest.id, s.guestRole)).toBe(true);
      // What the save then does matches the preview.
      expect((await put({ id: s.id, count: 1 })).statusCode).toBe(200);
      expect(await guestsOf(s.host)).toEqual([s.oldest.id]);
    });

    it('counts every guest for a new guest role or a deletion; nobody for a raised count', async () => {
      const s = await withTwoGuests(2);
      const newRole = await discordRole(t, hangout.id);
      const changed = (await preview(s.id, { guestRoleId: newRole })).json();
      expect(changed.total).toBe(2);
      expect(changed.effects[0].sentence).toBe(`${s.roleName} will be taken from 2 guests.`);
      expect([...changed.effects[0].taken].sort()).toEqual([...s.names].sort());
      expect((await preview(s.id, null)).json().total).toBe(2);
      const raised = (await preview(s.id, { count: 5 })).json();
      expect(raised).toMatchObject({ effects: [], total: 0 });
      // Nothing was saved: both guests are still there (rows in no particular order).
      expect((await guestsOf(s.host)).sort()).toEqual([s.oldest.id, s.newest.id].sort());
    });

    it('answers 404 for an unknown entry and 403 for a member without Admin', async () => {
      const unknown = await preview('00000000-0000-4000-8000-000000000000', { count: 1 });
      expect(unknown.statusCode).toBe(404);
      const { id } = await setUp(1);
      const member = await signInMember(t, hangout.id);
      expect((await preview(id, { count: 0 }, member.session)).statusCode).toBe(403);
    });
  });
});
