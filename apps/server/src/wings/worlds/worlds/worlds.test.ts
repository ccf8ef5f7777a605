import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { discordRole, rows, signInMember, withOwnerApp } from '../../../../test/factories.js';
import { createSession } from '../../identity/index.js';

const { hangout, danceClub } = seedGuildIds;
const base = `/api/guilds/${hangout.id}/worlds`;
type User = { id: string; session: string };

describe('worlds (against the simulators)', () => {
  let t: TestApp, owner: User;
  withOwnerApp(laxSimulator.forManyDiscordCalls, (scene) => {
    ({ t, owner } = scene);
  });

  const create = async (name?: string) => {
    const res = await t.inject({
      method: 'PUT',
      url: base,
      session: owner.session,
      payload: name ? { name } : {},
    });
    expect(res.statusCode).toBe(200);
    return res.json().worlds.at(-1) as { id: string; name: string; locked: boolean; untrustedUrl: string };
  };
  const update = (id: string, payload: object, user = owner) =>
    t.inject({ method: 'POST', url: `${base}/${id}`, session: user.session, payload });
  const setRoles = (id: string, payload: object) =>
    t.inject({ method: 'POST', url: `${base}/${id}/roles`, session: owner.session, payload });
  const remove = (id: string) => t.inject({ method: 'DELETE', url: `${base}/${id}`, session: owner.session });

  it('creates a locked world with the defaults and answers the list with the server roles', async () => {
    const world = await create('Club Night');
    expect(world).toMatchObject({
      name: 'Club Night',
      locked: true,
      compression: false,
      jsonMode: false,
      enabled: false,
      includeDiscordData: true,
      includeGroupData: false,
      customData: '',
      discordEncodeRoles: [],
      // Demo mode (the simulators): this server serves the mirror itself.
      trustedUrl: `http://127.0.0.1:3000/mirror/worlds/${world.id}`,
      untrustedUrl: `http://127.0.0.1:3000/data/v2/${world.id}`,
    });
    expect(world.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const list = (await t.inject({ method: 'GET', url: base, session: owner.session })).json();
    expect(list.worlds.map((w: { id: string }) => w.id)).toContain(world.id);
    // @everyone is not a choice; roles come highest first with their colour.
    expect(list.discordRoles.map((r: { id: string }) => r.id)).not.toContain(hangout.id);
    expect(list.discordRoles[0]).toMatchObject({ id: hangout.roles.Admin, name: 'Admin', color: 0xe74c3c });
    expect(list.groupRoles).toEqual([]);
    const audit = await rows(t, 'audit_log', "action = 'world.create' and target_id = $1", [world.id]);
    expect(audit[0]).toMatchObject({ actor_id: owner.id, guild_id: hangout.id });
  });

  it('names a world when no name is given', async () => {
    expect((await create()).name).toMatch(/^World \d+$/);
  });

  it('gets one world, and only through its own server', async () => {
    const world = await create();
    expect(
      (await t.inject({ method: 'GET', url: `${base}/${world.id}`, session: owner.session })).json().id,
    ).toBe(world.id);
    const elsewhere = await t.inject({
      method: 'GET',
      url: `/api/guilds/${danceClub.id}/worlds/${world.id}`,
      session: owner.session,
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe('World not found.');
  });

  it('updates any setting and audit-logs what changed', async () => {
    const world = await create();
    const res = await update(world.id, {
      name: 'Renamed',
      jsonMode: true,
      customData: '{"motd":"hi"}',
      includeGroupData: true,
      enabled: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      jsonMode: true,
      customData: '{"motd":"hi"}',
      enabled: true,
    });
    const audit = await rows(t, 'audit_log', "action = 'world.update' and target_id = $1", [world.id]);
    expect(audit[0].details).toEqual({
      name: 'Renamed',
      jsonMode: true,
      customData: { length: 13 },
      includeGroupData: true,
      enabled: true,
    });
  });

  it('never turns Compression off once on', async () => {
    const world = await create();
    expect((await update(world.id, { compression: true })).statusCode).toBe(200);
    const res = await update(world.id, { compression: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Compression cannot be turned off once on.');
  });

  it('refuses Custom World Data that is not JSON in JSON mode, keeping the old data', async () => {
    const world = await create();
    await update(world.id, { customData: 'plain text' });
    const res = await update(world.id, { jsonMode: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Custom World Data is not valid JSON.');
    const bad = await update(world.id, { customData: '{oops', jsonMode: true });
    expect(bad.statusCode).toBe(400);
    const now = await t.inject({ method: 'GET', url: `${base}/${world.id}`, session: owner.session });
    expect(now.json()).toMatchObject({ jsonMode: false, customData: 'plain text' });
  });

  it('answers 400 for unknown fields and bad values, never 500', async () => {
    const world = await create();
    expect((await update(world.id, { colour: 'red' })).statusCode).toBe(400);
    expect((await update(world.id, { name: '' })).statusCode).toBe(400);
    expect((await update(world.id, { customData: 'x'.repeat(200_001) })).statusCode).toBe(400);
    expect(
      (await t.inject({ method: 'GET', url: `${base}/not-a-uuid`, session: owner.session })).statusCode,
    ).toBe(400);
  });

  it('keeps role lists in picker order, resolves their names, and refuses unknown roles', async () => {
    const world = await create();
    const dj = await discordRole(t, hangout.id, 'Picker Role');
    const order = [hangout.roles.Verified, dj, hangout.roles.Admin];
    const res = await setRoles(world.id, { discordEncodeRoles: order });
    expect(res.statusCode).toBe(200);
    expect(
      res.json().discordEncodeRoles.map((r: { roleId: string; roleName: string }) => r.roleName),
    ).toEqual(['Verified', 'Picker Role', 'Admin']);
    const unknown = await setRoles(world.id, { discordAlwaysEncodeRoles: ['1400000000000009999'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown role: 1400000000000009999');
    expect((await setRoles(world.id, { discordEncodeRoles: [], groupEncodeRoles: [] })).statusCode).toBe(400);
    const group = await setRoles(world.id, { groupEncodeRoles: ['grol_x'] });
    expect(group.statusCode).toBe(400);
    expect(group.json().message).toBe('Link a VRChat group first.');
    // A role deleted in Discord stays listed (so it can be removed) and the list can still be saved.
    await t.control('DELETE', `/discord/guilds/${hangout.id}/roles/${dj}`);
    const { waitFor } = await import('../../../platforms/testing.js');
    await waitFor(async () => !(await t.ctx.discord.getGuild(hangout.id))?.roles.some((r) => r.id === dj));
    const after = await setRoles(world.id, { discordEncodeRoles: [dj, hangout.roles.Admin] });
    expect(after.statusCode).toBe(200);
    expect(after.json().discordEncodeRoles[0]).toEqual({
      roleId: dj,
      roleName: 'Deleted role',
      color: 0,
      position: -1,
    });
  });

  it('deletes only unlocked worlds, and audit-logs it', async () => {
    const world = await create();
    const locked = await remove(world.id);
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe('Unlock the world before deleting it.');
    await update(world.id, { locked: false });
    expect((await remove(world.id)).statusCode).toBe(204);
    expect((await remove(world.id)).statusCode).toBe(404);
    expect(await rows(t, 'audit_log', "action = 'world.delete' and target_id = $1", [world.id])).toHaveLength(
      1,
    );
  });

  it('caps the number of worlds per server, also under simultaneous requests', async () => {
    const other = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    const url = `/api/guilds/${danceClub.id}/worlds`;
    const results = await Promise.all(
      Array.from({ length: 55 }, () => t.inject({ method: 'PUT', url, session: other.session, payload: {} })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(50);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0].json().message).toBe('A server can have at most 50 worlds.');
  });

  describe('permissions', () => {
    it('lets ViewWorlds read but not change, and ManageWorlds change', async () => {
      const world = await create();
      const viewer = await signInMember(t, hangout.id);
      const manager = await signInMember(t, hangout.id);
      const grant = (user: User, permissions: string[]) =>
        t.inject({
          method: 'POST',
          url: `/api/guilds/permissions/${hangout.id}/${user.id}`,
          session: owner.session,
          payload: { permissions },
        });
      await grant(viewer, ['ViewWorlds']);
      await grant(manager, ['ManageWorlds']);
      expect(
        (await t.inject({ method: 'GET', url: `${base}/${world.id}`, session: viewer.session })).statusCode,
      ).toBe(200);
      const refused = await update(world.id, { name: 'nope' }, viewer);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('You need the ManageWorlds permission in this server.');
      expect((await update(world.id, { name: 'ok' }, manager)).statusCode).toBe(200);
    });

    it('refuses a member with no permission on every world route', async () => {
      const world = await create();
      const member = await signInMember(t, hangout.id);
      const calls: [string, string, object?][] = [
        ['GET', base],
        ['PUT', base, {}],
        ['GET', `${base}/${world.id}`],
        ['POST', `${base}/${world.id}`, { name: 'x' }],
        ['DELETE', `${base}/${world.id}`],
        ['POST', `${base}/${world.id}/roles`, { discordEncodeRoles: [] }],
        ['GET', `${base}/preview/${world.id}`],
      ];
      for (const [method, url, payload] of calls) {
        const res = await t.inject({ method: method as 'GET', url, session: member.session, payload });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    });

    it('accepts the Unity SDK access token on the editor’s calls (/api/user, /api/guilds, worlds)', async () => {
      const world = await create('Editor World');
      const token = await createSession(t.ctx.db, owner.id, 'sdk');
      const bearer = (url: string) =>
        t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect((await bearer('/api/user')).json().username).toBe('demo_admin');
      expect((await bearer('/api/guilds')).json().map((g: { id: string }) => g.id)).toContain(hangout.id);
      const worlds = await bearer(base);
      expect(worlds.statusCode).toBe(200);
      expect(worlds.json().worlds.map((w: { name: string }) => w.name)).toContain('Editor World');
      // The token is scoped to the editor's three reads: one world's settings are not among them.
      expect((await bearer(`${base}/${world.id}`)).statusCode).toBe(403);
    });
  });
});
