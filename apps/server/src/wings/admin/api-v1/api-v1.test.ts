import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  guildGroup,
  signInMember,
  vrchatLink,
} from '../../../../test/factories.js';
import { guildPermissionValues } from '../../access/index.js';
import { V1_UNAUTHORIZED } from './api-v1.routes.js';

const { hangout, danceClub } = seedGuildIds;
const v1 = `/api/v1/guilds/${hangout.id}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const keyPermissions = guildPermissionValues.filter((p) => p !== 'Admin');
const glimmer = vrchatSeed.userIds.Glimmer;

describe('/api/v1 (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  /** Linked members made here (the seeded members have no links): Glimmer, Glitter, Zed; one unlinked. */
  const m: Record<'glimmer' | 'glitter' | 'zed' | 'unlinked', { id: string; username: string }> = {} as never;
  const keys = new Map<string, string>();

  const makeKey = async (guildId: string, permissions: string[], session = owner.session) => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/guilds/${guildId}/api_keys/create`,
      payload: { name: `key ${permissions.join(' ')}`, permissions, validUntil: inDays(30) },
      session,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string; token: string };
  };
  const get = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const ids = (body: { members: { discordId: string }[] }) => body.members.map((x) => x.discordId);

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forVrchatTestPacing,
      env: { RATE_LIMIT_API_KEY: '40' },
    }));
    m.glimmer = await discordMember(t, hangout.id, {
      roles: [hangout.roles.Verified, hangout.roles['Event Host']],
    });
    m.glitter = await discordMember(t, hangout.id, { roles: [hangout.roles.Verified] });
    m.zed = await discordMember(t, hangout.id, { roles: [hangout.roles.Newcomer] });
    m.unlinked = await discordMember(t, hangout.id, { roles: [hangout.roles.Verified] });
    await vrchatLink(t, {
      discordUserId: m.glimmer.id,
      vrcUserId: glimmer,
      vrchatName: 'Glimmer',
      plus18: true,
    });
    await vrchatLink(t, {
      discordUserId: m.glitter.id,
      vrcUserId: 'usr_00000000-0000-4000-8000-00000000a11e',
      vrchatName: 'Glitter_Bomb',
      // Unproven: the account's 18+ says nothing about the member (it may be a stranger's).
      plus18: true,
      isVerified: false,
    });
    await vrchatLink(t, { discordUserId: m.zed.id, vrchatName: 'Zed' });
    await guildGroup(t, {
      guildId: hangout.id,
      groupId: vrchatSeed.groupIds.hangout,
      name: 'VRC Hangout Official',
    });
    for (const permission of keyPermissions)
      keys.set(permission, (await makeKey(hangout.id, [permission])).token);
  });
  afterAll(() => t?.close());

  const viewGuild = () => keys.get('ViewGuild') as string;

  it('lists the linked members only, with stable field names', async () => {
    const res = await get(`${v1}/members`, viewGuild());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(ids(body).sort()).toEqual([m.glimmer.id, m.glitter.id, m.zed.id].sort());
    expect(body.nextCursor).toBeNull();
    expect(body.members.find((x: { discordId: string }) => x.discordId === m.glimmer.id)).toEqual({
      discordId: m.glimmer.id,
      discordUsername: m.glimmer.username,
      discordDisplayName: m.glimmer.username,
      vrchatId: glimmer,
      vrchatDisplayName: 'Glimmer',
      verified: true,
      ageVerification: 'Plus18',
      discordRoleIds: expect.arrayContaining([hangout.roles.Verified, hangout.roles['Event Host']]),
      linkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Unproven and 18+ on VRChat: answered as not age-verified.
    expect(body.members.find((x: { discordId: string }) => x.discordId === m.glitter.id)).toMatchObject({
      verified: false,
      ageVerification: 'Unverified',
    });
  });

  it('filters by any of a set of Discord roles, VRChat name prefix, VRChat id, verification and age', async () => {
    const list = async (query: string) => {
      const res = await get(`${v1}/members?${query}`, viewGuild());
      expect(res.statusCode, res.body).toBe(200);
      return ids(res.json()).sort();
    };
    expect(await list(`discordRoleId=${hangout.roles['Event Host']}`)).toEqual([m.glimmer.id]);
    expect(
      await list(`discordRoleId=${hangout.roles['Event Host']}&discordRoleId=${hangout.roles.Newcomer}`),
    ).toEqual([m.glimmer.id, m.zed.id].sort());
    // The unlinked Verified holder is not listed.
    expect(await list(`discordRoleId=${hangout.roles.Verified}`)).toEqual(
      [m.glimmer.id, m.glitter.id].sort(),
    );
    expect(await list('vrcName=gli')).toEqual([m.glimmer.id, m.glitter.id].sort());
    expect(await list('vrcName=glitter_')).toEqual([m.glitter.id]);
    // `%` and `_` are literal, not wildcards.
    expect(await list('vrcName=gli%25')).toEqual([]);
    expect(await list('vrcName=Glitter%5FBomb')).toEqual([m.glitter.id]);
    expect(await list(`vrcId=${glimmer}`)).toEqual([m.glimmer.id]);
    expect(await list('verified=false')).toEqual([m.glitter.id]);
    expect(await list('verified=true&ageVerification=Plus18')).toEqual([m.glimmer.id]);
    expect(await list('ageVerification=Unverified')).toEqual([m.glitter.id, m.zed.id].sort());
    // An unproven link is never 18+, whatever its account says.
    expect(await list('ageVerification=Plus18')).toEqual([m.glimmer.id]);
    expect(await list(`vrcName=z&discordRoleId=${hangout.roles.Verified}`)).toEqual([]);
    // The server's id names @everyone: every linked member holds it.
    expect(await list(`discordRoleId=${hangout.id}&discordRoleId=${hangout.roles.Newcomer}`)).toEqual(
      [m.glimmer.id, m.glitter.id, m.zed.id].sort(),
    );
  });

  it('filters by roles in the linked VRChat group, read from VRChat', async () => {
    const { roleIds } = vrchatSeed;
    const res = await get(`${v1}/members?groupRoleId=${roleIds.hangout.eventHost}`, viewGuild());
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res.json())).toEqual([m.glimmer.id]);
    const none = await get(`${v1}/members?groupRoleId=${roleIds.hangout.owner}`, viewGuild());
    expect(ids(none.json())).toEqual([]);
    // Without a linked group the filter cannot be answered: 400, not an empty list.
    await t.ctx.database.executeSql('delete from guild_groups where guild_id = $1', [hangout.id]);
    const unlinked = await get(`${v1}/members?groupRoleId=${roleIds.hangout.eventHost}`, viewGuild());
    expect({ status: unlinked.statusCode, message: unlinked.json().message }).toEqual({
      status: 400,
      message: 'groupRoleId needs a VRChat group linked to this server.',
    });
    await guildGroup(t, {
      guildId: hangout.id,
      groupId: vrchatSeed.groupIds.hangout,
      name: 'VRC Hangout Official',
    });
  });

  it('pages with an opaque cursor in a stable order, and refuses a cursor it did not make', async () => {
    const all = ids((await get(`${v1}/members`, viewGuild())).json());
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await get(`${v1}/members?limit=1${cursor ? `&cursor=${cursor}` : ''}`, viewGuild());
      const body = res.json();
      seen.push(...ids(body));
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(all);
    expect(cursor).toBeNull();
    const bad = await get(`${v1}/members?cursor=nonsense`, viewGuild());
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('cursor is not valid: pass the nextCursor of the previous page.');
  });

  it('answers 400 with a sentence for bad filters', async () => {
    for (const [query, message] of [
      ['discordRoleId=abc', /discordRoleId/],
      ['vrcId=not-an-id', /vrcId/],
      ['verified=yes', /verified/],
      ['ageVerification=Maybe', /ageVerification/],
      ['limit=0', /limit/],
      ['limit=201', /limit/],
      ['groupRoleId=role', /groupRoleId/],
    ] as const) {
      const res = await get(`${v1}/members?${query}`, viewGuild());
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toMatch(message);
      expect(res.json().message, query).toMatch(/\.$/);
    }
  });

  it('finds one member by Discord id or VRChat id, and 404 for anyone not linked here', async () => {
    const byDiscord = await get(`${v1}/members/discord/${m.glitter.id}`, viewGuild());
    expect(byDiscord.statusCode).toBe(200);
    expect(byDiscord.json()).toMatchObject({ discordId: m.glitter.id, vrchatDisplayName: 'Glitter_Bomb' });
    const byVrchat = await get(`${v1}/members/vrchat/${glimmer}`, viewGuild());
    expect(byVrchat.statusCode).toBe(200);
    expect(byVrchat.json()).toMatchObject({ discordId: m.glimmer.id, vrchatId: glimmer });
    for (const url of [
      `${v1}/members/discord/${m.unlinked.id}`,
      `${v1}/members/vrchat/usr_00000000-0000-4000-8000-000000000404`,
    ]) {
      const res = await get(url, viewGuild());
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe('No linked member of this server has that id.');
    }
  });

  describe('permissions: every route needs ViewGuild', () => {
    const routes = [
      `${v1}/members`,
      `${v1}/members/discord/${'1'.repeat(18)}`,
      `${v1}/members/vrchat/usr_00000000-0000-4000-8000-000000000404`,
    ];
    it.each(keyPermissions)('a key holding only %s', async (permission) => {
      for (const url of routes) {
        const res = await get(url, keys.get(permission));
        if (permission === 'ViewGuild') expect([200, 404], url).toContain(res.statusCode);
        else {
          expect(res.statusCode, url).toBe(403);
          expect(res.json().message).toBe('You need the ViewGuild permission in this server.');
        }
      }
    });

    it('401 without a key, with an unknown, an expired or a deleted key', async () => {
      const expired = await makeKey(hangout.id, ['ViewGuild']);
      await t.ctx.database.executeSql(
        `update api_keys set valid_until = now() - interval '1 second' where id = $1`,
        [expired.id],
      );
      const deleted = await makeKey(hangout.id, ['ViewGuild']);
      expect((await get(`${v1}/members`, deleted.token)).statusCode).toBe(200);
      await t.inject({
        method: 'DELETE',
        url: `/api/guilds/${hangout.id}/api_keys/${deleted.id}`,
        session: owner.session,
      });
      for (const token of [undefined, 'vrcl_unknown', expired.token, deleted.token])
        for (const url of routes) {
          const res = await get(url, token);
          expect(res.statusCode, `${token} ${url}`).toBe(401);
          expect(res.json().message).toBe(V1_UNAUTHORIZED);
        }
    });

    it("403 for another server's key, whichever server the address names", async () => {
      const outsider = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
      const foreign = await makeKey(danceClub.id, ['ViewGuild'], outsider.session);
      expect((await get(`/api/v1/guilds/${danceClub.id}/members`, foreign.token)).statusCode).toBe(200);
      for (const url of routes) {
        const res = await get(url, foreign.token);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().message).toBe('This API key is not valid for this server.');
      }
      // A server the bot is not in: a key is refused as another server's key (a key is checked first) ...
      const unknown = await get('/api/v1/guilds/1999999999999999999/members', viewGuild());
      expect(unknown.statusCode).toBe(403);
      // ... while a signed-in user learns it does not exist for us (docs/decisions.md's one rule).
      const asUser = await t.inject({
        method: 'GET',
        url: '/api/v1/guilds/1999999999999999999/members',
        session: owner.session,
      });
      expect({ status: asUser.statusCode, message: asUser.json().message }).toEqual({
        status: 404,
        message: 'The bot is not in this server.',
      });
    });

    it('a signed-in user with ViewGuild may read too (same checks)', async () => {
      const res = await t.inject({ method: 'GET', url: `${v1}/members`, session: owner.session });
      expect(res.statusCode).toBe(200);
      const nobody = await signInMember(t, hangout.id);
      const refused = await t.inject({ method: 'GET', url: `${v1}/members`, session: nobody.session });
      expect(refused.statusCode).toBe(403);
    });
  });

  it('limits each key on its own, with RateLimit headers and 429 with Retry-After', async () => {
    const busy = await makeKey(hangout.id, ['ViewGuild']);
    const calm = await makeKey(hangout.id, ['ViewGuild']);
    for (let i = 0; i < 40; i++) {
      const res = await get(`${v1}/members/vrchat/${glimmer}`, busy.token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('40');
      expect(res.headers['ratelimit-remaining']).toBe(String(39 - i));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    const refused = await get(`${v1}/members`, busy.token);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.json().message).toMatch(/^Too many requests: wait \d+ seconds? and try again\.$/);
    expect((await get(`${v1}/members`, calm.token)).statusCode).toBe(200);
  });
});
