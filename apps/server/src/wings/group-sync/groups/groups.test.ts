import { seedGuildIds, vrchatAccounts, vrchatSeed } from '@vrclink/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  guildGroup,
  itRefusesOutsiders,
  rows,
  signInMember,
  withOwnerApp,
} from '../../../../test/factories.js';

const { hangout } = seedGuildIds;
const hangoutGroup = vrchatSeed.groupIds.hangout;
const base = `/api/groups/${hangout.id}`;
const grp = 'grp_3f2b6c1e-0000-4000-8000-000000000000';
type User = { id: string; session: string };

/** Every route of the VRChat tab, with a valid request. */
const routes: ['GET' | 'POST' | 'DELETE', string, object?][] = [
  ['GET', base],
  ['POST', base, { enabled: true }],
  ['DELETE', base],
  ['POST', `${base}/link/start`, { groupId: grp }],
  ['POST', `${base}/link/check`, { groupId: grp }],
  ['POST', `${base}/link/join`, { groupId: grp }],
];

describe('VRChat tab: linked group, settings and unlink (against the simulators)', () => {
  let t: TestApp, owner: User;
  withOwnerApp(laxSimulator.forVrchatTestPacing, (scene) => {
    ({ t, owner } = scene);
  });
  beforeEach(async () => {
    await t.ctx.database.executeSql('delete from guild_groups');
  });

  const get = (user = owner) => t.inject({ method: 'GET', url: base, session: user.session });
  const set = (payload: object, user = owner) =>
    t.inject({ method: 'POST', url: base, session: user.session, payload });
  const linkHangout = () => guildGroup(t, { guildId: hangout.id, groupId: hangoutGroup, name: 'Old name' });

  describe('access', () => {
    itRefusesOutsiders(
      () => t,
      hangout.id,
      routes,
      (method) => `You need the ${method === 'GET' ? 'ViewGuild' : 'Admin'} permission in this server.`,
    );

    it('lets ViewGuild read the group but change nothing', async () => {
      await linkHangout();
      const viewer = await signInMember(t, hangout.id);
      const grant = await t.inject({
        method: 'POST',
        url: `/api/guilds/permissions/${hangout.id}/${viewer.id}`,
        session: owner.session,
        payload: { permissions: ['ViewGuild'] },
      });
      expect(grant.statusCode).toBe(200);
      expect((await get(viewer)).statusCode).toBe(200);
      for (const [method, url, payload] of routes.filter(([m]) => m !== 'GET')) {
        const res = await t.inject({ method, url, payload, session: viewer.session });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().message).toBe('You need the Admin permission in this server.');
      }
    });
  });

  describe('GET /api/groups/:guildId', () => {
    it('answers 404 when no group is linked', async () => {
      const res = await get();
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'No VRChat group is linked to this server.' });
    });

    it('answers the group as VRChat shows it now, with the settings', async () => {
      await linkHangout();
      const res = await get();
      expect(res.statusCode).toBe(200);
      const group = res.json();
      expect(group).toMatchObject({
        id: hangoutGroup,
        name: 'VRC Hangout Official',
        iconUrl: expect.stringMatching(/^http/),
        memberCount: 16,
        enabled: false,
        autoKick: false,
      });
      expect(group.onlineMemberCount).toBeGreaterThan(0);
      expect(group.onlineMemberCount).toBeLessThan(group.memberCount);
    });

    it("answers the spec's defaults when VRChat no longer finds the group", async () => {
      await guildGroup(t, { guildId: hangout.id, groupId: grp, name: 'Gone' });
      await t.ctx.database.executeSql(`update guild_groups set enabled = true, auto_kick = true`);
      const res = await get();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: grp,
        name: 'Unknown',
        iconUrl: null,
        memberCount: 0,
        onlineMemberCount: 0,
        enabled: false,
        autoKick: false,
        // The bot account that serves the link (the first: none was stored) is still named.
        botAccount: { userId: vrchatAccounts.bot.userId, displayName: 'VRCLink Bot' },
      });
    });
  });

  describe('POST /api/groups/:guildId', () => {
    it('turns each setting on and off, one at a time, and audits the change', async () => {
      await linkHangout();
      const on = await set({ enabled: true });
      expect(on.statusCode).toBe(200);
      expect(on.json()).toMatchObject({ id: hangoutGroup, enabled: true, autoKick: false });
      const kick = await set({ autoKick: true });
      expect(kick.json()).toMatchObject({ enabled: true, autoKick: true });
      expect((await set({ enabled: false })).json()).toMatchObject({ enabled: false, autoKick: true });
      expect((await get()).json()).toMatchObject({ enabled: false, autoKick: true });
      const audits = await rows(t, 'audit_log', "action = 'group.settings' and guild_id = $1", [hangout.id]);
      expect(audits.at(-1)).toMatchObject({
        actor_id: owner.id,
        target_id: hangoutGroup,
        details: {
          summary: expect.stringMatching(/: Enable Groups feature: on → off$/),
          before: { enabled: true, autoKick: true },
          after: { enabled: false, autoKick: true },
        },
      });
    });

    it.each([[{}], [{ enabled: true, autoKick: true }], [{ enabled: 'yes' }], [{ other: true }]])(
      'answers 400 to %j',
      async (payload) => {
        await linkHangout();
        const res = await set(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(
          'The request body must be {"enabled": true or false} or {"autoKick": true or false}.',
        );
      },
    );

    it('answers 404 when no group is linked', async () => {
      const res = await set({ autoKick: true });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No VRChat group is linked to this server.');
    });
  });

  describe('DELETE /api/groups/:guildId', () => {
    it('unlinks the group, forgets its link codes and audits it', async () => {
      await linkHangout();
      await t.ctx.database.executeSql(
        `insert into group_link_codes (guild_id, group_id, code) values ($1, $2, 'VRCL-AAAAAAAA')`,
        [hangout.id, grp],
      );
      const res = await t.inject({ method: 'DELETE', url: base, session: owner.session });
      expect(res.statusCode).toBe(204);
      expect((await get()).statusCode).toBe(404);
      expect(await rows(t, 'group_link_codes', 'guild_id = $1', [hangout.id])).toEqual([]);
      const audits = await rows(t, 'audit_log', "action = 'group.unlinked' and guild_id = $1", [hangout.id]);
      expect(audits.at(-1)).toMatchObject({ actor_id: owner.id, target_id: hangoutGroup });
    });

    it('answers 404 when no group is linked', async () => {
      const res = await t.inject({ method: 'DELETE', url: base, session: owner.session });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No VRChat group is linked to this server.');
    });
  });
});
