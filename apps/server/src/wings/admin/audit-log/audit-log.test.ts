import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, rows, signInMember, vrchatUser } from '../../../../test/factories.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';

const { hangout, danceClub } = seedGuildIds;
const base = `/api/groups/audit_log/${hangout.id}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
type Entry = {
  id: string;
  eventType: string;
  actorId: string;
  actorDisplayname: string | null;
  targetId: string;
};

describe('GET /api/groups/audit_log/{guildId} (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let member: { id: string; session: string; username: string };
  let worldId: string;
  let keyId: string;
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forManyDiscordCalls));
    member = await signInMember(t, hangout.id, { username: 'audit_viewer' });
    const created = await t.inject({
      method: 'PUT',
      url: `/api/guilds/${hangout.id}/worlds`,
      session: owner.session,
      payload: {},
    });
    worldId = created.json().worlds.at(-1).id;
    await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/worlds/${worldId}`,
      session: owner.session,
      payload: { name: 'Moonlit 50%_Lounge' },
    });
    await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${member.id}`,
      session: owner.session,
      payload: { permissions: ['ViewGuild'] },
    });
    const key = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/api_keys/create`,
      session: owner.session,
      payload: { name: 'World bot', permissions: ['ManageWorlds'], validUntil: inDays(5) },
    });
    keyId = key.json().id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/guilds/${hangout.id}/worlds`,
      payload: {},
      headers: { authorization: key.json().token },
    });
    await audit(t.ctx.db, {
      action: 'world.create',
      actor: userActor(owner.id),
      guildId: danceClub.id,
      targetId: 'x',
    });
  });
  afterAll(() => t?.close());

  const get = async (query = '', session = owner.session) => {
    const res = await t.inject({ method: 'GET', url: `${base}?${query}`, session });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { auditLogs: Entry[]; totalCount: number; eventTypes: string[] };
  };
  const ids = (entries: Entry[]) => entries.map((e) => Number(e.id));

  it('answers the server’s own entries, newest first, with who did it and a description', async () => {
    const res = await get();
    expect(res.totalCount).toBe(5);
    expect(ids(res.auditLogs)).toEqual([...ids(res.auditLogs)].sort((a, b) => b - a));
    expect(res.auditLogs.map((e) => e.eventType)).toEqual([
      'world.create',
      'api_key.create',
      'permissions.set',
      'world.update',
      'world.create',
    ]);
    expect(res.auditLogs[0]).toMatchObject({ actorId: `apikey:${keyId}`, actorDisplayname: 'World bot' });
    expect(res.auditLogs[3]).toMatchObject({
      actorId: owner.id,
      actorDisplayname: 'demo_admin',
      targetId: worldId,
      description: 'Updated world settings',
      data: expect.objectContaining({ name: expect.anything() }),
    });
    expect(res.auditLogs.some((e) => e.targetId === 'x')).toBe(false);
    expect(res.eventTypes).toEqual(['api_key.create', 'permissions.set', 'world.create', 'world.update']);
  });

  it('names each event in words and each target by its kind and current name', async () => {
    const res = (await t.inject({ method: 'GET', url: base, session: owner.session })).json();
    const byType = (type: string) => res.auditLogs.find((e: Entry) => e.eventType === type);
    expect(byType('world.update')).toMatchObject({
      eventLabel: 'Updated world settings',
      target: { kind: 'world', name: 'Moonlit 50%_Lounge' },
    });
    expect(byType('api_key.create')).toMatchObject({
      eventLabel: 'Created an API key',
      target: { kind: 'apiKey', name: 'World bot' },
    });
    expect(byType('permissions.set').target).toEqual({ kind: 'member', name: 'audit_viewer' });
    expect(res.eventLabels['permissions.set']).toBe('Granted permissions');
  });

  it('filters by event type, actor id, actor name and target, as lists or repeated parameters', async () => {
    expect((await get('eventTypes=world.create,world.update')).totalCount).toBe(3);
    expect((await get('eventTypes=world.create&eventTypes=permissions.set')).totalCount).toBe(3);
    expect((await get(`actorIds=apikey:${keyId}`)).totalCount).toBe(1);
    expect((await get(`actorIds=${owner.id}`)).totalCount).toBe(4);
    expect((await get('actorNames=DEMO_ADMIN')).totalCount).toBe(4);
    expect((await get('actorNames=world bot,nobody')).totalCount).toBe(1);
    const target = await get(`targetIds=${member.id}`);
    expect(target.auditLogs.map((e) => e.eventType)).toEqual(['permissions.set']);
  });

  it('filters by an inclusive date range', async () => {
    const all = (await get()).auditLogs as unknown as { createdAt: string }[];
    const [newest, oldest] = [all[0].createdAt, all[all.length - 1].createdAt];
    expect((await get(`startDate=${oldest}&endDate=${newest}`)).totalCount).toBe(5);
    expect((await get(`startDate=${inDays(1)}`)).totalCount).toBe(0);
    expect((await get(`endDate=${inDays(-1)}`)).totalCount).toBe(0);
    expect((await get(`endDate=${newest.slice(0, 10)}`)).totalCount).toBe(5);
  });

  it('accepts dates and zoned date-times from year 1 to 9999, the whole range PostgreSQL is asked about', async () => {
    expect((await get('startDate=0001-01-01&endDate=9999-12-31')).totalCount).toBe(5);
    expect((await get('endDate=9999-12-31T23:59:59.999Z')).totalCount).toBe(5);
    expect((await get('startDate=0001-01-01T00:00:00Z')).totalCount).toBe(5);
    const newest = ((await get()).auditLogs as unknown as { createdAt: string }[])[0].createdAt;
    // The same instant written in another zone.
    const later = new Date(Date.parse(newest) + 1).toISOString();
    const shifted = `${new Date(Date.parse(later) + 2 * 3_600_000).toISOString().slice(0, 23)}+02:00`;
    expect((await get(`startDate=${encodeURIComponent(shifted)}`)).totalCount).toBe(0);
    expect((await get(`endDate=${encodeURIComponent(shifted)}`)).totalCount).toBe(5);
  });

  it.each([
    ['startDate', '0000-01-01'],
    ['endDate', '10000-01-01'],
    ['startDate', '1'],
    ['startDate', '2026'],
    ['endDate', '2026-02-30'],
    ['startDate', '2026-13-01'],
    ['startDate', '2026-11-23T18:00:00'],
    ['startDate', '2026-11-23T25:00:00Z'],
    ['startDate', '0001-01-01T00:00:00+01:00'],
    ['endDate', '9999-12-31T23:59:59-01:00'],
    ['startDate', 'soon'],
    ['startDate', ''],
  ])('answers 400 with a sentence to %s=%s', async (name, value) => {
    const res = await t.inject({
      method: 'GET',
      url: `${base}?${name}=${encodeURIComponent(value)}`,
      session: owner.session,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `${name} must be an ISO 8601 date from 0001-01-01 to 9999-12-31, e.g. 2026-11-23 or 2026-11-23T18:00:00Z.`,
    );
  });

  it('searches descriptions and details case-insensitively, taking % and _ literally', async () => {
    expect((await get('fullTextSearch=moonlit 50%25_')).auditLogs.map((e) => e.eventType)).toEqual([
      'world.update',
    ]);
    expect((await get('fullTextSearch=granted PERMISSIONS')).totalCount).toBe(1);
    expect((await get('fullTextSearch=%25')).totalCount).toBe(1);
    expect((await get('fullTextSearch=_x_')).totalCount).toBe(0);
  });

  it('sorts by each field both ways, with id as the tie-breaker', async () => {
    const cases: [string, (e: Entry & { description: string; createdAt: string }) => string][] = [
      ['CreatedAt', (e) => e.createdAt],
      ['EventType', (e) => e.eventType],
      ['ActorDisplayname', (e) => e.actorDisplayname ?? ''],
      ['TargetId', (e) => e.targetId ?? ''],
      ['Description', (e) => e.description],
    ];
    for (const [field, key] of cases) {
      const asc = (await get(`sortBy=${field}&sortOrder=Ascending`)).auditLogs as never[];
      const desc = (await get(`sortBy=${field}&sortOrder=Descending`)).auditLogs as never[];
      const byKey = (list: never[]) => list.map(key);
      expect(byKey(asc), field).toEqual([...byKey(asc)].sort());
      expect(ids(desc), field).toEqual(ids(asc).reverse());
    }
  });

  it('answers 400 for a page size the dashboard does not offer or a bad sort', async () => {
    for (const query of [
      'pageSize=10',
      'pageSize=abc',
      'page=0',
      'sortBy=Nope',
      'sortOrder=Up',
      'startDate=soon',
    ]) {
      const res = await t.inject({ method: 'GET', url: `${base}?${query}`, session: owner.session });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('needs Admin: 401 anonymous, 403 with ViewGuild only', async () => {
    expect((await t.inject({ method: 'GET', url: base })).statusCode).toBe(401);
    const res = await t.inject({ method: 'GET', url: base, session: member.session });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You need the Admin permission in this server.');
  });
  it('pages with a total count, pages never overlapping', async () => {
    for (let i = 0; i < 25; i++)
      await audit(t.ctx.db, {
        action: 'guest.assigned',
        actor: userActor(member.id),
        guildId: hangout.id,
        targetId: `${i}`,
      });
    const first = await get('page=1&pageSize=25');
    const second = await get('page=2&pageSize=25');
    expect(first.totalCount).toBe(30);
    expect(first.auditLogs).toHaveLength(25);
    expect(second).toMatchObject({ totalCount: 30 });
    expect(second.auditLogs).toHaveLength(5);
    expect(new Set([...ids(first.auditLogs), ...ids(second.auditLogs)]).size).toBe(30);
    expect((await get('page=3')).auditLogs).toEqual([]);
    expect((await get('pageSize=50')).auditLogs).toHaveLength(30);
    expect((await get(`actorNames=${member.username}`)).totalCount).toBe(25);
  });

  it('pages by cursor, every row exactly once in each order, while rows are added between pages', async () => {
    let n = 0;
    const add = async (count: number) => {
      for (let i = 0; i < count; i++, n++)
        await audit(t.ctx.db, {
          action: n % 3 ? 'guest.assigned' : 'guest.removed',
          actor: userActor(n % 2 ? member.id : owner.id),
          guildId: hangout.id,
          // Some without a target: nulls sort last ascending, first descending.
          targetId: n % 4 ? `t${n % 7}` : undefined,
        });
    };
    await add(40);
    type Page = {
      auditLogs: Entry[];
      totalCount: number;
      nextCursor: string | null;
      previousCursor: string | null;
    };
    for (const sortBy of ['CreatedAt', 'EventType', 'ActorDisplayname', 'TargetId', 'Description'])
      for (const sortOrder of ['Descending', 'Ascending']) {
        const order = `sortBy=${sortBy}&sortOrder=${sortOrder}`;
        const before = new Set(ids((await get(`${order}&pageSize=1000`)).auditLogs));
        const sort = `${order}&pageSize=25`;
        const seen: number[] = [];
        const pages: Page[] = [];
        let page = (await get(sort)) as unknown as Page;
        expect(page.previousCursor).toBeNull();
        for (;;) {
          pages.push(page);
          seen.push(...ids(page.auditLogs));
          if (!page.nextCursor) break;
          // Written between two page loads: never shifts a row into a second page or out of every page.
          await add(3);
          page = (await get(`${sort}&cursor=${page.nextCursor}`)) as unknown as Page;
        }
        const label = `${sortBy} ${sortOrder}`;
        expect(seen.length, label).toBe(new Set(seen).size);
        for (const id of before) expect(seen, label).toContain(id);
        // Back from the last page with previousCursor: the 25 rows just before it, as they are now.
        const last = pages.at(-1) as Page;
        expect(last.previousCursor, label).not.toBeNull();
        const back = (await get(`${sort}&cursor=${last.previousCursor}`)) as unknown as Page;
        const all = ids((await get(`${order}&pageSize=1000`)).auditLogs);
        const at = all.indexOf(Number(last.auditLogs[0]?.id));
        expect(ids(back.auditLogs), label).toEqual(all.slice(Math.max(0, at - 25), at));
        expect(back.nextCursor, label).not.toBeNull();
      }
  });

  it('answers 400 for a cursor edited or made for another sort', async () => {
    const first = (await get('pageSize=25')) as unknown as { nextCursor: string };
    for (const query of [
      `cursor=${first.nextCursor}&sortOrder=Ascending`,
      `cursor=${first.nextCursor}&sortBy=EventType`,
      `cursor=${first.nextCursor.slice(0, -4)}`,
      'cursor=nonsense',
    ]) {
      const res = await t.inject({ method: 'GET', url: `${base}?${query}`, session: owner.session });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toBe(
        'This page of the audit log is out of date or not valid. Open the first page again.',
      );
    }
  });

  it("shows a member's link in the Audit Log of each server they are in, and of none for a user in none", async () => {
    const linker = await signInMember(t, hangout.id);
    const outsider = await signIn(t);
    for (const user of [linker, outsider]) {
      const account = await vrchatUser(t);
      const res = await t.inject({
        method: 'POST',
        url: `/api/users/link?vrcId=${account.id}`,
        session: user.session,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const linked = await get(`eventTypes=link.created&actorIds=${linker.id}`);
    expect(linked.auditLogs).toEqual([
      expect.objectContaining({ eventType: 'link.created', actorId: linker.id }),
    ]);
    // One entry per server the member is in (here the Hangout only), none for the user in no server.
    expect((await rows(t, 'audit_log', 'actor_id = $1', [linker.id])).map((r) => r.guild_id)).toEqual([
      hangout.id,
    ]);
    expect(
      (await rows(t, 'audit_log', "actor_id = $1 and action = 'link.created'", [outsider.id])).map(
        (r) => r.guild_id,
      ),
    ).toEqual([null]);
    expect((await get(`actorIds=${outsider.id}`)).totalCount).toBe(0);
  });
});
