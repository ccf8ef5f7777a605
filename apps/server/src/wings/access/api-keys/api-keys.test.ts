import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { rows, signInMember, withOwnerApp } from '../../../../test/factories.js';

const { hangout, danceClub } = seedGuildIds;
const base = `/api/guilds/${hangout.id}/api_keys`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('API keys (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  withOwnerApp(laxSimulator.forManyDiscordCalls, (scene) => {
    ({ t, owner } = scene);
  });

  const create = (payload: object, session = owner.session) =>
    t.inject({ method: 'POST', url: `${base}/create`, session, payload });
  /** A call as an integration would make it: the key in Authorization, no cookies. */
  const withKey = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { authorization: token } });

  it('creates a key whose token is shown once, lists it without the token, and audit-logs it', async () => {
    const res = await create({
      name: '  Supporter board  ',
      permissions: ['ViewWorlds'],
      validUntil: inDays(30),
    });
    expect(res.statusCode).toBe(200);
    const key = res.json();
    expect(key).toMatchObject({ name: 'Supporter board', permissions: ['ViewWorlds'], lastUsedAt: null });
    expect(key.token).toMatch(/^vrcl_[A-Za-z0-9_-]{43}$/);
    const list = (await t.inject({ method: 'GET', url: base, session: owner.session })).json();
    const listed = list.apiKeys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toEqual({
      id: key.id,
      name: 'Supporter board',
      createdOn: key.createdOn,
      validUntil: key.validUntil,
      permissions: ['ViewWorlds'],
      lastUsedAt: null,
    });
    expect(JSON.stringify(list)).not.toContain(key.token);
    expect(await rows(t, 'audit_log', "action = 'api_key.create' and target_id = $1", [key.id])).toHaveLength(
      1,
    );
  });

  it('acts in its own server with its own permissions only', async () => {
    const { token } = (
      await create({ name: 'reader', permissions: ['ViewWorlds'], validUntil: inDays(1) })
    ).json();
    expect((await withKey(token, 'GET', `/api/guilds/${hangout.id}/worlds`)).statusCode).toBe(200);
    expect((await withKey(`Bearer ${token}`, 'GET', `/api/guilds/${hangout.id}/worlds`)).statusCode).toBe(
      200,
    );
    const manage = await withKey(token, 'PUT', `/api/guilds/${hangout.id}/worlds`, {});
    expect(manage.statusCode).toBe(403);
    expect(manage.json().message).toBe('You need the ManageWorlds permission in this server.');
    const elsewhere = await withKey(token, 'GET', `/api/guilds/${danceClub.id}/worlds`);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe('This API key is not valid for this server.');
    // Not a user: the user routes and the key management refuse it.
    expect((await withKey(token, 'GET', '/api/user')).statusCode).toBe(401);
    expect((await withKey(token, 'GET', '/api/guilds')).statusCode).toBe(401);
    expect((await withKey(token, 'GET', base)).statusCode).toBe(403);
  });

  it('records when a key was last used', async () => {
    const key = (await create({ name: 'used', permissions: ['ViewWorlds'], validUntil: inDays(1) })).json();
    await withKey(key.token, 'GET', `/api/guilds/${hangout.id}/worlds`);
    const list = (await t.inject({ method: 'GET', url: base, session: owner.session })).json();
    const used = list.apiKeys.find((k: { id: string }) => k.id === key.id);
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('stops working once deleted or expired', async () => {
    const key = (await create({ name: 'temp', permissions: ['ViewWorlds'], validUntil: inDays(1) })).json();
    expect(
      (await t.inject({ method: 'DELETE', url: `${base}/${key.id}`, session: owner.session })).statusCode,
    ).toBe(204);
    expect((await withKey(key.token, 'GET', `/api/guilds/${hangout.id}/worlds`)).statusCode).toBe(401);
    expect(
      (await t.inject({ method: 'DELETE', url: `${base}/${key.id}`, session: owner.session })).statusCode,
    ).toBe(404);
    const expiring = (
      await create({ name: 'expiring', permissions: ['ViewWorlds'], validUntil: inDays(1) })
    ).json();
    await t.ctx.database.executeSql(
      `update api_keys set valid_until = now() - interval '1 second' where id = $1`,
      [expiring.id],
    );
    expect((await withKey(expiring.token, 'GET', `/api/guilds/${hangout.id}/worlds`)).statusCode).toBe(401);
  });

  it('answers the spec texts for a missing name or permission, and refuses Admin and bad dates', async () => {
    const noName = await create({ name: '   ', permissions: ['ViewWorlds'], validUntil: inDays(30) });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('Please enter a name for the API key.');
    const noPermission = await create({ name: 'x', permissions: [], validUntil: inDays(30) });
    expect(noPermission.statusCode).toBe(400);
    expect(noPermission.json().message).toBe('Select at least one permission.');
    expect((await create({ name: 'x', permissions: ['Admin'], validUntil: inDays(30) })).statusCode).toBe(
      400,
    );
    expect(
      (await create({ name: 'x', permissions: ['ViewWorlds'], validUntil: inDays(-1) })).statusCode,
    ).toBe(400);
    expect(
      (await create({ name: 'x', permissions: ['ViewWorlds'], validUntil: inDays(400) })).statusCode,
    ).toBe(400);
    expect(
      (await create({ name: 'x', permissions: ['ViewWorlds'], validUntil: 'tomorrow' })).statusCode,
    ).toBe(400);
  });

  it('caps the keys per server at 25, also under simultaneous creates', async () => {
    const admin = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.inject({
          method: 'POST',
          url: `/api/guilds/${danceClub.id}/api_keys/create`,
          session: admin.session,
          payload: { name: `Burst ${i}`, permissions: ['ViewGuild'], validUntil: inDays(5) },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(25);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0].json().message).toBe('A server can have at most 25 API keys.');
    const listed = await t.inject({
      method: 'GET',
      url: `/api/guilds/${danceClub.id}/api_keys`,
      session: admin.session,
    });
    expect(listed.json().apiKeys).toHaveLength(25);
  });

  it('is managed by server admins only', async () => {
    const member = await signInMember(t, hangout.id);
    await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${member.id}`,
      session: owner.session,
      payload: { permissions: ['ManageWorlds', 'ManageImages', 'ViewGuild'] },
    });
    for (const res of [
      await t.inject({ method: 'GET', url: base, session: member.session }),
      await create({ name: 'x', permissions: ['ViewWorlds'], validUntil: inDays(1) }, member.session),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You need the Admin permission in this server.');
    }
  });
});
