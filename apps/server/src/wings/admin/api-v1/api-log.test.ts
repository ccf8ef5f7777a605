import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { signInMember, withOwnerApp } from '../../../../test/factories.js';
import { purgeExpired } from '../../../jobs/retention.js';
import { waitFor } from '../../../platforms/testing.js';

const { hangout, danceClub } = seedGuildIds;
const logUrl = `/api/guilds/${hangout.id}/api_log`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

interface Entry {
  id: string;
  time: string;
  apiKeyId: string | null;
  apiKeyName: string | null;
  userId: string | null;
  username: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

describe('API log (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  withOwnerApp(laxSimulator.forManyDiscordCalls, (scene) => {
    ({ t, owner } = scene);
  });

  const makeKey = async (guildId: string, name: string, session = owner.session) =>
    (
      await t.inject({
        method: 'POST',
        url: `/api/guilds/${guildId}/api_keys/create`,
        payload: { name, permissions: ['ViewGuild'], validUntil: inDays(30) },
        session,
      })
    ).json() as { id: string; token: string };
  const withKey = (token: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const readLog = async (session = owner.session, query = '') => {
    const res = await t.inject({ method: 'GET', url: `${logUrl}${query}`, session });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { entries: Entry[]; nextCursor: string | null };
  };
  const count = async (where: string, values: unknown[]) =>
    Number(
      (await t.ctx.database.executeSql(`select count(*) as n from api_log where ${where}`, values)).rows[0].n,
    );

  it("records each /api/v1 call of a key (after its answer) for the server's Admins, newest first", async () => {
    const key = await makeKey(hangout.id, 'Dashboard');
    expect((await withKey(key.token, `/api/v1/guilds/${hangout.id}/members?limit=5`)).statusCode).toBe(200);
    expect((await withKey(key.token, `/api/v1/guilds/${hangout.id}/members?limit=0`)).statusCode).toBe(400);
    const mine = await waitFor(async () => {
      const calls = (await readLog()).entries.filter((e) => e.apiKeyId === key.id);
      return calls.length === 2 ? calls : null;
    });
    expect(mine[0]).toMatchObject({
      apiKeyName: 'Dashboard',
      userId: null,
      method: 'GET',
      path: `/api/v1/guilds/${hangout.id}/members?limit=0`,
      status: 400,
    });
    expect(mine[1]).toMatchObject({ path: `/api/v1/guilds/${hangout.id}/members?limit=5`, status: 200 });
    expect(mine[1].durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(mine[1].time)).toBeGreaterThan(Date.now() - 60_000);
    // Other routes are not API calls: the key's call to the worlds list is not in the log.
    await withKey(key.token, `/api/guilds/${hangout.id}/worlds`);
    await new Promise((r) => setTimeout(r, 400));
    expect(await count('api_key_id = $1', [key.id])).toBe(2);
  });

  it("shows a key's calls to another server in its own server's log, and leaves out calls without a valid key", async () => {
    const outsider = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    const foreign = await makeKey(danceClub.id, 'Dance key', outsider.session);
    expect((await withKey(foreign.token, `/api/v1/guilds/${hangout.id}/members`)).statusCode).toBe(403);
    await t.app.inject({ method: 'GET', url: `/api/v1/guilds/${hangout.id}/members` });
    await withKey('vrcl_unknown', `/api/v1/guilds/${hangout.id}/members`);
    await waitFor(async () => (await count('api_key_id = $1', [foreign.id])) === 1);
    expect(
      await count('api_key_id = $1 and guild_id = $2 and status = 403', [foreign.id, danceClub.id]),
    ).toBe(1);
    expect((await readLog()).entries.some((e) => e.apiKeyId === foreign.id)).toBe(false);
    expect(await count('api_key_id is null and user_id is null', [])).toBe(0);
  });

  it('keeps the calls of a batch when one call addressed a server id with U+0000 in it (answered 400)', async () => {
    const key = await makeKey(hangout.id, 'Beside a NUL');
    // One batch: the signed-in owner's call to /guilds/%00/… and the key's calls right after it.
    const nul = await t.inject({ method: 'GET', url: '/api/v1/guilds/%00/members', session: owner.session });
    expect(nul.statusCode).toBe(400);
    for (let i = 0; i < 3; i++)
      expect(
        (await withKey(key.token, `/api/v1/guilds/${hangout.id}/members?limit=${i + 1}`)).statusCode,
      ).toBe(200);
    await waitFor(async () => (await count('api_key_id = $1', [key.id])) === 3);
    expect(await count("path like '%\\%00%'", [])).toBe(0);
  });

  it("writes nothing into a server's log for a stranger refused before its permission check", async () => {
    const stranger = await signInMember(t, danceClub.id);
    const calls = [
      `/api/v1/guilds/${hangout.id}/members?limit=0`,
      `/api/v1/guilds/${hangout.id}/members?cursor=%00`,
      `/api/v1/guilds/${hangout.id}/members`,
      `/api/v1/guilds/${hangout.id}/members/discord/${owner.id}`,
    ];
    for (const url of calls) {
      const res = await t.inject({ method: 'GET', url, session: stranger.session });
      expect([400, 403]).toContain(res.statusCode);
    }
    // The owner's call after them is written: the stranger's would be in the same batch.
    await t.inject({
      method: 'GET',
      url: `/api/v1/guilds/${hangout.id}/members?limit=7`,
      session: owner.session,
    });
    await waitFor(async () => (await count('user_id = $1 and path like $2', [owner.id, '%limit=7'])) === 1);
    expect(await count('user_id = $1', [stranger.id])).toBe(0);
  });

  it('keeps the entries of a deleted key, without its name', async () => {
    const key = await makeKey(hangout.id, 'Short-lived');
    await withKey(key.token, `/api/v1/guilds/${hangout.id}/members`);
    await waitFor(async () => (await count('api_key_id = $1', [key.id])) === 1);
    await t.inject({
      method: 'DELETE',
      url: `/api/guilds/${hangout.id}/api_keys/${key.id}`,
      session: owner.session,
    });
    const entry = (await readLog()).entries.find((e) => e.apiKeyId === key.id);
    expect(entry).toMatchObject({ apiKeyName: null, status: 200 });
  });

  it('pages 50 at a time with an opaque cursor', async () => {
    await t.ctx.database.executeSql(
      `insert into api_log (guild_id, api_key_id, method, path, status, duration_ms)
       select $1, null, 'GET', '/api/v1/guilds/' || $1 || '/members?n=' || i, 200, 1 from generate_series(1, 60) i`,
      [hangout.id],
    );
    const all: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await readLog(owner.session, cursor ? `?cursor=${cursor}` : '');
      expect(page.entries.length).toBeLessThanOrEqual(50);
      all.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(all.length).toBe(await count('guild_id = $1', [hangout.id]));
    expect(all.map(Number)).toEqual([...all.map(Number)].sort((a, b) => b - a));
    const bad = await t.inject({ method: 'GET', url: `${logUrl}?cursor=xyz`, session: owner.session });
    expect(bad.statusCode).toBe(400);
  });

  it("is read by the server's Admins only (API keys never hold Admin)", async () => {
    const viewer = await signInMember(t, hangout.id);
    await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${viewer.id}`,
      session: owner.session,
      payload: { permissions: ['ViewGuild', 'ManageWorlds'] },
    });
    const refused = await t.inject({ method: 'GET', url: logUrl, session: viewer.session });
    expect({ status: refused.statusCode, message: refused.json().message }).toEqual({
      status: 403,
      message: 'You need the Admin permission in this server.',
    });
    const key = await makeKey(hangout.id, 'reader');
    expect((await withKey(key.token, logUrl)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: logUrl })).statusCode).toBe(401);
  });

  it('is kept one month: the retention purge deletes older entries only', async () => {
    await t.ctx.database.executeSql(
      `insert into api_log (guild_id, method, path, status, duration_ms, created_at) values
       ($1, 'GET', '/old', 200, 1, now() - interval '31 days'),
       ($1, 'GET', '/recent', 200, 1, now() - interval '29 days')`,
      [hangout.id],
    );
    await purgeExpired(t.ctx.db, { keepDiscordTokens: true });
    expect(await count("path = '/old'", [])).toBe(0);
    expect(await count("path = '/recent'", [])).toBe(1);
  });
});
