import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import {
  discordMember,
  discordRole,
  guestRoleEntry,
  itAnswers401WhenLoggedOut,
  rows,
  signInMember,
  simulatorRoles,
  vrchatUser,
} from '../../../../test/factories.js';
import { guests, vrchatLinks } from '../../../db/schema/index.js';
import { waitFor } from '../../../platforms/testing.js';
import { reconcileGuildGuests } from './guests.reconcile.js';

const { hangout } = seedGuildIds;
const base = `/api/users/guests/${hangout.id}`;
const NO_FREE_SLOTS = 'No free guest slots available.';

describe('guest setup (against the simulators)', () => {
  let t: TestApp;
  /** Main roles: a holder of `host1` may give one guest `guestRole`, a holder of `host2` two more. */
  const roles = { host1: '', host2: '', unused: '', guestRole: '' };
  const roleNames = { host1: 'Supporter', host2: 'Patron', guestRole: 'Guest Pass' };

  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
    roles.host1 = await discordRole(t, hangout.id, roleNames.host1);
    roles.host2 = await discordRole(t, hangout.id, roleNames.host2);
    roles.unused = await discordRole(t, hangout.id);
    roles.guestRole = await discordRole(t, hangout.id, roleNames.guestRole);
    const entry = { guildId: hangout.id, guestRoleId: roles.guestRole };
    await guestRoleEntry(t, { ...entry, mainRoleId: roles.host1, count: 1 });
    await guestRoleEntry(t, { ...entry, mainRoleId: roles.host2, count: 2 });
    await guestRoleEntry(t, { ...entry, mainRoleId: roles.unused, count: 5 });
  });
  afterAll(() => t?.close());

  type User = { id: string; session: string };
  const host = (...mainRoles: string[]) => signInMember(t, hangout.id, { roles: mainRoles });
  const info = (user: User) => t.inject({ method: 'GET', url: base, session: user.session });
  const search = (user: User, query: string) =>
    t.inject({ method: 'GET', url: `${base}/search?${query}`, session: user.session });
  const assign = (user: User, payload: object) =>
    t.inject({ method: 'POST', url: `${base}/assign`, session: user.session, payload });
  const unassign = (user: User, guestId: string) =>
    t.inject({ method: 'DELETE', url: `${base}/unassign/${guestId}`, session: user.session });
  const hasGuestRole = async (userId: string) =>
    (await simulatorRoles(t, hangout.id, userId))?.includes(roles.guestRole) ?? false;
  const assignDiscordGuest = async (user: User) => {
    const guest = await discordMember(t, hangout.id);
    const res = await assign(user, { discordId: guest.id });
    expect(res.statusCode).toBe(200);
    return { ...guest, entryId: res.json().id as string };
  };

  describe('every route', () => {
    const uuid = '1c2b3d4e-0000-4000-8000-000000000000';
    const routes: ['GET' | 'POST' | 'DELETE', string, object?][] = [
      ['GET', base],
      ['GET', `${base}/search?memberQuery=a`],
      ['POST', `${base}/assign`, { discordId: '1300000000000000002' }],
      ['DELETE', `${base}/unassign/${uuid}`],
    ];

    itAnswers401WhenLoggedOut(() => t, routes);

    it.each(routes.filter(([m]) => m !== 'GET'))(
      '%s %s answers 403 without the XSRF header',
      async (method, url, payload) => {
        const user = await host(roles.host1);
        const res = await t.app.inject({ method, url, payload, cookies: { vrclink_session: user.session } });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe('Invalid or missing XSRF token.');
      },
    );

    it.each([
      ['GET', '/api/users/guests/not-a-guild', 'guildId must be a Discord id.'],
      ['GET', `${base}/search`, 'Give exactly one of memberQuery and vrcQuery.'],
      ['GET', `${base}/search?memberQuery=a&vrcQuery=b`, 'Give exactly one of memberQuery and vrcQuery.'],
      ['GET', `${base}/search?memberQuery=%20`, 'memberQuery must not be empty.'],
      ['POST', `${base}/assign`, 'discordId is missing.', {}],
      ['POST', `${base}/assign`, 'discordId must be a Discord id.', { discordId: 'abc' }],
      ['POST', `${base}/assign`, 'vrcDisplayName is missing.', { vrcId: 'usr_x' }],
      ['DELETE', `${base}/unassign/not-a-uuid`, 'guestEntryId must be a UUID.'],
    ] as ['GET' | 'POST' | 'DELETE', string, string, object?][])(
      '%s %s answers 400 with a sentence',
      async (method, url, message, payload) => {
        const user = await host(roles.host1);
        const res = await t.inject({ method, url, payload, session: user.session });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(message);
      },
    );

    it('answers 403 to a member without a main role, and to someone outside the server', async () => {
      const member = await host();
      const outsider = await signIn(t);
      for (const user of [member, outsider]) {
        for (const res of [
          await info(user),
          await search(user, 'memberQuery=a'),
          await assign(user, { discordId: '1300000000000000002' }),
        ]) {
          expect(res.statusCode).toBe(403);
          expect(res.json().message).toBe('You cannot set up guests in this server.');
        }
      }
    });
  });

  describe('GET /api/users/guests/:guildId', () => {
    it('sums the slots of every entry whose main role the host holds and names the roles', async () => {
      const user = await host(roles.host1, roles.host2);
      const res = await info(user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        slotsCount: 3,
        primaryRoleName: `${roleNames.host1}, ${roleNames.host2}`,
        guestRoleName: roleNames.guestRole,
        guests: [],
      });
      expect((await info(await host(roles.host2))).json().slotsCount).toBe(2);
    });

    it('lists the host’s own guests only', async () => {
      const [a, b] = [await host(roles.host1), await host(roles.host1)];
      const guest = await assignDiscordGuest(a);
      expect((await info(a)).json().guests).toEqual([
        {
          id: guest.entryId,
          guestUsername: guest.username,
          guestVrcName: null,
          guestVrcId: null,
          guestProfilePicUrl: null,
        },
      ]);
      expect((await info(b)).json().guests).toEqual([]);
    });
  });

  describe('GET /api/users/guests/:guildId/search', () => {
    it('finds Discord members of the server by name, saying whether they linked VRChat', async () => {
      const user = await host(roles.host1);
      const linked = await discordMember(t, hangout.id, { username: 'quokka_linked' });
      const plain = await discordMember(t, hangout.id, { username: 'quokka_plain' });
      await t.ctx.db
        .insert(vrchatLinks)
        .values({ discordUserId: linked.id, vrcUserId: 'usr_quokka', vrchatName: 'Quokka' });
      const res = await search(user, 'memberQuery=quokka_');
      expect(res.statusCode).toBe(200);
      expect(res.json().results).toEqual([
        {
          isDiscordUser: true,
          discordId: linked.id,
          discordName: 'quokka_linked',
          discordIcon: null,
          hasLinkedVrc: true,
        },
        {
          isDiscordUser: true,
          discordId: plain.id,
          discordName: 'quokka_plain',
          discordIcon: null,
          hasLinkedVrc: false,
        },
      ]);
    });

    it('finds VRChat users by name, once per 5 seconds per host', async () => {
      const user = await host(roles.host1);
      const target = await vrchatUser(t, { displayName: 'Marmalade Voyager' });
      const res = await search(user, 'vrcQuery=marmalade%20voy');
      expect(res.statusCode).toBe(200);
      expect(res.json().results).toEqual([
        {
          isDiscordUser: false,
          vrcId: target.id,
          vrcName: 'Marmalade Voyager',
          profileUrl: `${t.simulatorUrl}/home/user/${target.id}`,
        },
      ]);
      const again = await search(user, 'vrcQuery=marmalade');
      expect(again.statusCode).toBe(429);
      expect(again.json().message).toMatch(/^Please wait [1-5]s before searching VRChat again\.$/);
      // Another host is not held back; Discord searches never are.
      expect((await search(await host(roles.host1), 'vrcQuery=marmalade')).statusCode).toBe(200);
      expect((await search(user, 'memberQuery=a')).statusCode).toBe(200);
    });
  });

  describe('POST /api/users/guests/:guildId/assign', () => {
    it('gives a Discord guest the guest role and records them, audit-logged', async () => {
      const user = await host(roles.host1);
      const guest = await discordMember(t, hangout.id);
      const res = await assign(user, { discordId: guest.id });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ guestUsername: guest.username, guestVrcId: null });
      expect(await hasGuestRole(guest.id)).toBe(true);
      const audits = await rows(t, 'audit_log', "action = 'guest.assigned' and actor_id = $1", [user.id]);
      expect(audits).toEqual([expect.objectContaining({ guild_id: hangout.id, target_id: guest.id })]);
      // The entry names the role it gave, so the log reads after the role is renamed or deleted.
      expect(audits[0].details).toMatchObject({ roleName: roleNames.guestRole });
    });

    it('carries the guest’s linked VRChat account into the record', async () => {
      const user = await host(roles.host1);
      const guest = await discordMember(t, hangout.id);
      await t.ctx.db
        .insert(vrchatLinks)
        .values({ discordUserId: guest.id, vrcUserId: 'usr_linkedguest', vrchatName: 'Linked Guest' });
      const res = await assign(user, { discordId: guest.id });
      expect(res.json()).toMatchObject({ guestVrcId: 'usr_linkedguest', guestVrcName: 'Linked Guest' });
    });

    it('records a VRChat-only guest with the name VRChat knows', async () => {
      const user = await host(roles.host1);
      const target = await vrchatUser(t, { displayName: 'Only In VRChat' });
      const res = await assign(user, { vrcId: target.id, vrcDisplayName: 'typed name' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        guestUsername: null,
        guestVrcId: target.id,
        guestVrcName: 'Only In VRChat',
      });
      expect((await info(user)).json().guests).toHaveLength(1);
    });

    it('answers No free guest slots when every slot is used', async () => {
      const user = await host(roles.host1);
      await assignDiscordGuest(user);
      const extra = await discordMember(t, hangout.id);
      const res = await assign(user, { discordId: extra.id });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: NO_FREE_SLOTS });
      expect(await hasGuestRole(extra.id)).toBe(false);
    });

    it('lets only one of two simultaneous assignments take the last free slot', async () => {
      const user = await host(roles.host1);
      const [g1, g2] = [await discordMember(t, hangout.id), await discordMember(t, hangout.id)];
      const answers = await Promise.all([
        assign(user, { discordId: g1.id }),
        assign(user, { discordId: g2.id }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect(answers.find((r) => r.statusCode === 400)?.json().message).toBe(NO_FREE_SLOTS);
      expect((await info(user)).json().guests).toHaveLength(1);
      expect([await hasGuestRole(g1.id), await hasGuestRole(g2.id)].filter(Boolean)).toHaveLength(1);
    });

    it('refuses the host themself, a guest twice, and someone outside the server', async () => {
      const user = await host(roles.host1, roles.host2);
      const self = await assign(user, { discordId: user.id });
      expect(self.statusCode).toBe(400);
      expect(self.json().message).toBe('You cannot add yourself as a guest.');

      const guest = await assignDiscordGuest(user);
      const twice = await assign(user, { discordId: guest.id });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().message).toBe('That user is already your guest.');

      const outside = await assign(user, { discordId: '1200000000000000041' });
      expect(outside.statusCode).toBe(404);
      expect(outside.json().message).toBe('That Discord user is not a member of this server.');

      const unknownVrc = await assign(user, {
        vrcId: 'usr_00000000-0000-4000-8000-00000000dead',
        vrcDisplayName: 'Nobody',
      });
      expect(unknownVrc.statusCode).toBe(404);
      expect(unknownVrc.json().message).toBe('VRChat user not found.');
    });

    it('says what to change when the bot may not give the guest role, and records nothing', async () => {
      const mainRole = await discordRole(t, hangout.id);
      await guestRoleEntry(t, {
        guildId: hangout.id,
        mainRoleId: mainRole,
        guestRoleId: hangout.roles.Moderator,
        count: 1,
      });
      const user = await host(mainRole);
      const guest = await discordMember(t, hangout.id);
      const res = await assign(user, { discordId: guest.id });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe("The bot's role must be above Moderator to manage it.");
      expect((await info(user)).json().guests).toEqual([]);
    });

    it('answers 503 (not 500) and records nothing while Discord fails', async () => {
      const user = await host(roles.host1);
      const guest = await discordMember(t, hangout.id);
      await t.control('POST', '/faults', {
        platform: 'discord',
        kind: 'server_error',
        pathContains: '/roles/',
      });
      try {
        const res = await assign(user, { discordId: guest.id });
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe('Discord is not reachable right now. Try again later.');
      } finally {
        await t.control('DELETE', '/faults');
      }
      expect((await info(user)).json().guests).toEqual([]);
    });
  });

  describe('DELETE /api/users/guests/:guildId/unassign/:guestEntryId', () => {
    it('takes the guest role back and deletes the record', async () => {
      const user = await host(roles.host1);
      const guest = await assignDiscordGuest(user);
      const res = await unassign(user, guest.entryId);
      expect(res.statusCode).toBe(204);
      expect(await hasGuestRole(guest.id)).toBe(false);
      expect((await info(user)).json().guests).toEqual([]);
      const audits = await rows(t, 'audit_log', "action = 'guest.unassigned' and actor_id = $1", [user.id]);
      expect(audits).toHaveLength(1);
    });

    it('keeps the role of someone another host still has as a guest', async () => {
      const [a, b] = [await host(roles.host1), await host(roles.host1)];
      const guest = await assignDiscordGuest(a);
      expect((await assign(b, { discordId: guest.id })).statusCode).toBe(200);
      await unassign(a, guest.entryId);
      expect(await hasGuestRole(guest.id)).toBe(true);
    });

    it('answers 403 for another host’s guest and leaves it alone', async () => {
      const [owner, other] = [await host(roles.host1), await host(roles.host1)];
      const guest = await assignDiscordGuest(owner);
      const res = await unassign(other, guest.entryId);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('That guest was added by another host.');
      expect(await hasGuestRole(guest.id)).toBe(true);
      expect((await info(owner)).json().guests).toHaveLength(1);
    });
  });

  describe('when a host’s slots shrink', () => {
    it('takes the guest role from the newest guests beyond the remaining slots', async () => {
      const user = await host(roles.host1, roles.host2);
      const oldest = await assignDiscordGuest(user);
      const middle = await assignDiscordGuest(user);
      const newest = await assignDiscordGuest(user);

      // A server admin takes the 2-slot role away in Discord: one slot is left.
      await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${user.id}/roles/${roles.host2}`);
      await waitFor(async () => !(await hasGuestRole(middle.id)) && !(await hasGuestRole(newest.id)));
      expect(await hasGuestRole(oldest.id)).toBe(true);
      await waitFor(async () => (await rows(t, 'guests', 'host_user_id = $1', [user.id])).length === 1);
      expect((await info(user)).json().guests.map((g: { id: string }) => g.id)).toEqual([oldest.entryId]);
      const audits = await rows(t, 'audit_log', "action = 'guest.revoked_host_lost_role' and guild_id = $1", [
        hangout.id,
      ]);
      expect(audits.map((a) => a.target_id)).toEqual(expect.arrayContaining([middle.id, newest.id]));
    });

    it('frees the slot when a Discord guest leaves the server', async () => {
      const user = await host(roles.host1);
      const guest = await assignDiscordGuest(user);
      expect((await assign(user, { discordId: (await discordMember(t, hangout.id)).id })).statusCode).toBe(
        400,
      );
      await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${guest.id}`);
      await waitFor(async () => (await info(user)).json().guests.length === 0);
      const audits = await rows(t, 'audit_log', "action = 'guest.left_server' and target_id = $1", [
        guest.id,
      ]);
      expect(audits).toHaveLength(1);
      expect((await assign(user, { discordId: (await discordMember(t, hangout.id)).id })).statusCode).toBe(
        200,
      );
    });

    it('catches up on role changes and departures the bot missed while it was away', async () => {
      // What a restart finds: a host who lost every main role and a guest who left, both still on record.
      const formerHost = await host();
      const kept = await discordMember(t, hangout.id, { roles: [roles.guestRole] });
      const stayingHost = await host(roles.host1);
      await t.ctx.db.insert(guests).values([
        {
          guildId: hangout.id,
          hostUserId: formerHost.id,
          guestRoleId: roles.guestRole,
          guestDiscordId: kept.id,
        },
        {
          guildId: hangout.id,
          hostUserId: stayingHost.id,
          guestRoleId: roles.guestRole,
          guestDiscordId: '1999999999999999990',
        },
      ]);
      await reconcileGuildGuests(t.ctx, hangout.id);
      expect(await rows(t, 'guests', 'host_user_id in ($1, $2)', [formerHost.id, stayingHost.id])).toEqual(
        [],
      );
      expect(await hasGuestRole(kept.id)).toBe(false);
    });

    it('takes every guest role back when the host leaves the server', async () => {
      const user = await host(roles.host2);
      const guests = [await assignDiscordGuest(user), await assignDiscordGuest(user)];
      await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${user.id}`);
      await waitFor(async () => (await rows(t, 'guests', 'host_user_id = $1', [user.id])).length === 0);
      for (const g of guests) expect(await hasGuestRole(g.id)).toBe(false);
    });
  });
});
