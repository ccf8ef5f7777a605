import { Writable } from 'node:stream';
import { seedGuildIds, vrchatGroupIds, vrchatRoleIds } from '@vrclink/simulator';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  guestRoleEntry,
  guildGroup,
  newWorld,
  signInHangoutOwner,
  signInMember,
  updateWorld,
  vrchatLink,
  vrchatUser,
} from '../../../../test/factories.js';
import { worlds } from '../../../db/schema/index.js';
import { worldsRebuildHandler } from '../../../jobs/handlers/worlds-rebuild.js';
import { waitFor } from '../../../platforms/testing.js';
import { decodeWorldBody } from './codec/lzw.js';
import { worldDataCacheOf } from './world-data.service.js';
import { WorldDataCache } from './world-data-cache.js';
import { listenWorldData, notifyWorldData } from './world-data-notify.js';
import { makeWorldBody, readWorldAndBody, storeWorldBody } from './world-data-store.js';

const { hangout } = seedGuildIds;
const base = `/api/guilds/${hangout.id}/worlds`;

/** Every log line the app writes (LOG_LEVEL info, as in production). */
const logLines: Record<string, unknown>[] = [];
const logSink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(JSON.parse(String(chunk)));
    done();
  },
});

describe('world data (against the simulators)', () => {
  let t: TestApp;
  let owner: { id: string; session: string };
  /** The app over a real socket: downloads answered by the fast path in front of Fastify. */
  let origin: string;
  beforeAll(async () => {
    t = await createTestApp({
      ...laxSimulator.forVrchatTestPacing,
      env: { LOG_LEVEL: 'info' },
      log: pino({ level: 'info' }, logSink),
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    owner = await signInHangoutOwner(t);
    // Linked members: Alpha (Admin, Verified, 18+), Bravo (Verified), Charlie (unproven link, Event Host).
    const { Admin, Verified } = hangout.roles;
    const alpha = await signInMember(t, hangout.id, { roles: [Admin, Verified] });
    const bravo = await signInMember(t, hangout.id, { roles: [Verified] });
    const charlie = await signInMember(t, hangout.id, { roles: [hangout.roles['Event Host']] });
    await vrchatLink(t, { discordUserId: alpha.id, vrchatName: 'Alpha', plus18: true });
    await vrchatLink(t, { discordUserId: bravo.id, vrchatName: 'Bravo' });
    await vrchatLink(t, { discordUserId: charlie.id, vrchatName: 'Charlie', isVerified: false });
    // A VRChat-only guest, assigned by an Event Host through the guest feature.
    await guestRoleEntry(t, {
      guildId: hangout.id,
      mainRoleId: hangout.roles['Event Host'],
      guestRoleId: hangout.roles.Guest,
      count: 1,
    });
    const guest = await vrchatUser(t, { displayName: 'Guesty' });
    const assigned = await t.inject({
      method: 'POST',
      url: `/api/users/guests/${hangout.id}/assign`,
      session: charlie.session,
      payload: { vrcId: guest.id, vrcDisplayName: guest.displayName },
    });
    expect(assigned.statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  const createWorld = () => newWorld(t, hangout.id, owner);
  const update = (id: string, payload: object) => updateWorld(t, { guildId: hangout.id, id }, owner, payload);
  const setRoles = async (id: string, payload: object) => {
    const res = await t.inject({
      method: 'POST',
      url: `${base}/${id}/roles`,
      session: owner.session,
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const preview = (id: string) =>
    t.inject({ method: 'GET', url: `${base}/preview/${id}`, session: owner.session });
  /** What a world downloads: no cookies, no headers. */
  const download = (id: string) => t.app.inject({ method: 'GET', url: `/data/v2/${id}` });

  it('encodes each linked member under their highest encode role and every always role they hold', async () => {
    const id = await createWorld();
    await setRoles(id, { discordEncodeRoles: [hangout.roles.Verified, hangout.roles.Admin] });
    await setRoles(id, { discordAlwaysEncodeRoles: [hangout.roles['Event Host'], hangout.roles.Guest] });
    await update(id, { customData: 'hello world' });
    const res = await preview(id);
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc)).toEqual([
      'Version',
      'LastUpdated',
      'MemberCount',
      'GuildUsers',
      'GuildRoleMap',
      'AgeVerifiedUsers',
      'CustomData',
    ]);
    expect(doc).toMatchObject({
      Version: 1,
      MemberCount: 2,
      // Picker order; Alpha only under Admin (the higher one); Charlie's link is unproven, so not listed.
      GuildUsers: { Verified: ['Bravo'], Admin: ['Alpha'], 'Event Host': [], Guest: ['Guesty'] },
      GuildRoleMap: {
        [hangout.roles.Verified]: 'Verified',
        [hangout.roles.Admin]: 'Admin',
        [hangout.roles['Event Host']]: 'Event Host',
        [hangout.roles.Guest]: 'Guest',
      },
      AgeVerifiedUsers: ['Alpha'],
      CustomData: 'hello world',
    });
    expect(Object.keys(doc.GuildUsers)).toEqual(['Verified', 'Admin', 'Event Host', 'Guest']);
    expect(Date.now() - Date.parse(doc.LastUpdated)).toBeLessThan(60_000);
  });

  it('serves the document publicly as plain JSON, the same as the preview', async () => {
    const id = await createWorld();
    await setRoles(id, { discordEncodeRoles: [hangout.roles.Admin] });
    await update(id, { jsonMode: true, customData: '{"motd":"hi","n":[1,2]}' });
    const res = await download(id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body.startsWith('{')).toBe(true);
    const doc = JSON.parse(res.body);
    expect(doc.CustomData).toEqual({ motd: 'hi', n: [1, 2] });
    const { LastUpdated: _a, ...served } = doc;
    const { LastUpdated: _b, ...previewed } = (await preview(id)).json();
    expect(served).toEqual(previewed);
  });

  it('serves the compressed form once Compression is on, which decodes to the same document', async () => {
    const id = await createWorld();
    await setRoles(id, { discordEncodeRoles: [hangout.roles.Admin, hangout.roles.Verified] });
    const plain = JSON.parse((await download(id)).body);
    await update(id, { compression: true });
    const res = await download(id);
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('{')).toBe(false);
    expect([...res.body].every((c) => c.charCodeAt(0) < 256)).toBe(true);
    const doc = JSON.parse(decodeWorldBody(res.body));
    expect(doc.GuildUsers).toEqual(plain.GuildUsers);
    expect(doc.MemberCount).toBe(plain.MemberCount);
  });

  it('stores a compressed body (it holds U+0000) for other processes and restarts, without a warning', async () => {
    // Stored and read back as is: NUL and characters above U+00FF survive the column.
    const probe = await createWorld();
    const [row] = (await t.ctx.database.executeSql('select updated_at from worlds where id = $1', [probe]))
      .rows;
    const odd = makeWorldBody(
      probe,
      'a\u0000b\u00ff\u0000é😀',
      new Date(String(row?.updated_at)).getTime(),
      1,
    );
    await storeWorldBody(t.ctx.db, odd);
    const back = (await readWorldAndBody(t.ctx.db, probe))?.stored;
    expect(back?.text).toBe(odd.text);
    expect(back?.etag).toBe(odd.etag);

    const id = await createWorld();
    await update(id, { compression: true });
    const warningsBefore = logLines.filter((l) => l.msg === 'World data: body not stored').length;
    const served = await download(id);
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('\u0000');
    const stored = await waitFor(async () => {
      const found = (await readWorldAndBody(t.ctx.db, id))?.stored;
      return found?.etag === served.headers.etag ? found : null;
    });
    expect(stored.text).toBe(served.body);
    expect(logLines.filter((l) => l.msg === 'World data: body not stored')).toHaveLength(warningsBefore);
  });

  it('rebuilds at most once a minute, but at once after a settings change', async () => {
    const id = await createWorld();
    const first = await download(id);
    expect((await download(id)).body).toBe(first.body);
    await update(id, { customData: 'changed' });
    const after = JSON.parse((await download(id)).body);
    expect(after.CustomData).toBe('changed');
  });

  it('includes the linked group’s roles: highest role only for encode roles, every one for always roles', async () => {
    await guildGroup(t, {
      guildId: hangout.id,
      groupId: vrchatGroupIds.hangout,
      name: 'VRC Hangout Official',
    });
    const id = await createWorld();
    const roles = vrchatRoleIds.hangout;
    await update(id, { includeGroupData: true, includeDiscordData: false });
    await setRoles(id, { groupEncodeRoles: [roles.moderator, roles.verified18] });
    await setRoles(id, { groupAlwaysEncodeRoles: [roles.eventHost] });
    const listed = (await t.inject({ method: 'GET', url: base, session: owner.session })).json();
    expect(listed.groupRoles.map((r: { name: string }) => r.name)).toContain('Verified 18+');
    const doc = JSON.parse((await download(id)).body);
    expect(doc.GuildUsers).toBeUndefined();
    expect(doc.GroupUsers).toEqual({
      Moderator: ['Bastian'],
      'Verified 18+': ['Echo Lumen', 'Glimmer'],
      'Event Host': ['Glimmer'],
    });
    expect(doc.GroupRoleMap).toEqual({
      [roles.moderator]: 'Moderator',
      [roles.verified18]: 'Verified 18+',
      [roles.eventHost]: 'Event Host',
    });
  });

  it('keeps serving the last body while VRChat is down, and 503 when there is none yet', async () => {
    const id = await createWorld();
    await update(id, { includeGroupData: true });
    const before = (await download(id)).body;
    await update(id, { customData: 'new text' });
    const fault = await t.control('POST', '/faults', { platform: 'vrchat', kind: 'server_error' });
    expect(fault.status).toBeLessThan(300);
    try {
      const stale = await download(id);
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(before);
      const fresh = await createWorld();
      await update(fresh, { includeGroupData: true });
      const none = await download(fresh);
      expect(none.statusCode).toBe(503);
      expect(none.json().message).toBe('VRChat is not reachable right now. Try again later.');
    } finally {
      await t.control('DELETE', '/faults');
    }
    // The next attempt (a couple of seconds after the failed one: no build per request) is fresh.
    await waitFor(async () => JSON.parse((await download(id)).body).CustomData === 'new text', 10_000);
  });

  it('answers 404 for an unknown world and 400 for a malformed id', async () => {
    const missing = await download('3f2b6c1e-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(missing.body).toBe('World not found.');
    expect((await download('nope')).statusCode).toBe(400);
  });

  const fetchData = (path: string, headers?: Record<string, string>, method = 'GET') =>
    fetch(`${origin}${path}`, { headers, method });

  it('answers If-None-Match with the current ETag with 304, and a settings change with a new ETag', async () => {
    const id = await createWorld();
    const first = await download(id);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const notModified = await t.app.inject({
      method: 'GET',
      url: `/data/v2/${id}`,
      headers: { 'if-none-match': etag },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    // Over the socket too (the fast path), weak form included.
    expect((await fetchData(`/data/v2/${id}`, { 'if-none-match': etag })).status).toBe(304);
    expect((await fetchData(`/data/v2/${id}`, { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await fetchData(`/data/v2/${id}`, { 'if-none-match': '"other"' })).status).toBe(200);

    await update(id, { customData: 'etag changes' });
    const after = await download(id);
    expect(after.headers.etag).not.toBe(etag);
    expect(JSON.parse(after.body).CustomData).toBe('etag changes');
    expect((await fetchData(`/data/v2/${id}`, { 'if-none-match': etag })).status).toBe(200);
  });

  it('serves warm downloads from memory before Fastify, with the same bytes and headers as the route', async () => {
    const id = await createWorld();
    await update(id, { customData: 'from memory' });
    const viaRoute = await download(id);
    const serve = vi.spyOn(worldDataCacheOf(t.ctx), 'serve');
    try {
      const res = await fetchData(`/data/v2/${id}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(viaRoute.body);
      for (const name of [
        'content-type',
        'content-length',
        'etag',
        'cache-control',
        'content-security-policy',
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'strict-transport-security',
        'cross-origin-resource-policy',
      ]) {
        // A header the route leaves off (world data is not HTML) is left off before Fastify too.
        const sent = viaRoute.headers[name];
        expect(res.headers.get(name), name).toBe(sent === undefined ? null : String(sent));
      }
      const head = await fetchData(`/data/v2/${id}`, undefined, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(viaRoute.headers['content-length']));
      expect(await head.text()).toBe('');
      expect(serve).not.toHaveBeenCalled();
    } finally {
      serve.mockRestore();
    }
  });

  it('keeps a body built from a change served from memory when the change’s notice comes after it', async () => {
    const id = await createWorld();
    const marker = await createWorld();
    const cache = worldDataCacheOf(t.ctx);
    // What the trigger says of a change, heard on a listener of the test's own.
    const heard: string[] = [];
    const listener = await listenWorldData(
      t.ctx.database,
      { message: (payload) => heard.push(payload), resync: () => {} },
      t.ctx.log,
    );
    try {
      await update(id, { customData: 'noticed late' });
      const notice = await waitFor(() => heard.find((p) => p.startsWith(`u:${id}`)) ?? null, 30_000);
      // PostgreSQL delivers a NOTIFY when it does: here the body is built first and the notice heard after it.
      const viaRoute = await download(id);
      expect(JSON.parse(viaRoute.body).CustomData).toBe('noticed late');
      await download(marker);
      const noticeOf = (worldId: string, ms: number) => `u:${worldId}:${ms}`;
      const stamp = Number(notice.split(':')[2]);
      // One statement, so the notices arrive in order: once the marker's is heard, so is the world's.
      const tell = (payload: string) =>
        t.ctx.database.executeSql("select pg_notify('world_data', $1), pg_notify('world_data', $2)", [
          payload,
          noticeOf(marker, 1),
        ]);
      await tell(notice);
      await waitFor(() => (cache.states.get(marker)?.current === false ? true : null), 30_000);
      expect(cache.states.get(id)?.current).toBe(true);
      const serve = vi.spyOn(cache, 'serve');
      try {
        expect(await (await fetchData(`/data/v2/${id}`)).text()).toBe(viaRoute.body);
        expect(serve).not.toHaveBeenCalled();
      } finally {
        serve.mockRestore();
      }
      // A notice naming another time (a writer whose clock is behind moved updated_at back) is a change.
      await download(marker);
      await tell(noticeOf(id, stamp - 1000));
      await waitFor(() => (cache.states.get(marker)?.current === false ? true : null), 30_000);
      expect(cache.states.get(id)?.current).toBe(false);
    } finally {
      await listener.close();
    }
  });

  it('makes a body current when the notice of the settings it was built from comes during its build', async () => {
    const id = await createWorld();
    await update(id, { customData: 'noticed while building' });
    const [row] = (await t.ctx.database.executeSql('select updated_at from worlds where id = $1', [id])).rows;
    const stamp = new Date(row?.updated_at as string).getTime();
    // A cache of its own, whose build waits for the test: the notice is heard between the read and the body.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let building = false;
    const cache = new WorldDataCache(t.ctx, async () => {
      building = true;
      await held;
      return '{"CustomData":"noticed while building"}';
    });
    await cache.start();
    try {
      const served = cache.serve(id);
      await waitFor(() => building, 30_000);
      await notifyWorldData(t.ctx.database, `u:${id}:${stamp}`);
      await waitFor(() => (cache.states.get(id)?.generation === 1 ? true : null), 30_000);
      release();
      expect((await served)?.stamp).toBe(stamp);
      expect(cache.states.get(id)?.current).toBe(true);
      // A notice naming other settings has the body checked again.
      await notifyWorldData(t.ctx.database, `u:${id}:${stamp + 1}`);
      await waitFor(() => (cache.states.get(id)?.current === false ? true : null), 30_000);
    } finally {
      release();
      await cache.stop();
    }
  });

  it('takes the settings change of updated_at from the database at once (e.g. an atlas generated)', async () => {
    const id = await createWorld();
    const before = (await fetchData(`/data/v2/${id}`)).headers.get('etag');
    await t.ctx.database.executeSql(
      "update worlds set custom_data = 'set elsewhere', updated_at = now() + interval '1 second' where id = $1",
      [id],
    );
    // PGlite tells before the update returns; PostgreSQL's NOTIFY arrives within milliseconds.
    const res = await waitFor(async () => {
      const r = await fetchData(`/data/v2/${id}`);
      return r.headers.get('etag') !== before ? r : null;
    }, 2000);
    expect(JSON.parse(await res.text()).CustomData).toBe('set elsewhere');
  });

  it('takes a body another process built from the database when told on the world_data channel', async () => {
    const id = await createWorld();
    const served = await download(id);
    const doc = { ...JSON.parse(served.body), CustomData: 'built by another process' };
    const [row] = (await t.ctx.database.executeSql('select updated_at from worlds where id = $1', [id])).rows;
    const other = makeWorldBody(
      id,
      JSON.stringify(doc),
      new Date(row?.updated_at as string).getTime(),
      Date.now() + 1000,
    );
    await storeWorldBody(t.ctx.db, other);
    // Not told yet: still the body in memory (no database read per request).
    expect((await fetchData(`/data/v2/${id}`)).headers.get('etag')).toBe(served.headers.etag);
    await notifyWorldData(t.ctx.database, `b:another-process:${id}`);
    const taken = await waitFor(async () => {
      const res = await fetchData(`/data/v2/${id}`);
      return res.headers.get('etag') === other.etag ? res.text() : null;
    });
    expect(JSON.parse(taken).CustomData).toBe('built by another process');
  });

  it('answers unknown addresses under /data and a deleted world with 404 and a short text, never the web app', async () => {
    const id = await createWorld();
    expect((await fetchData(`/data/v2/${id}`)).status).toBe(200);
    const upper = `/data/v2/${id.toUpperCase()}`;
    expect((await fetchData(upper)).status).toBe(200);
    for (const path of [`/data/v2/${id}/`, '/data/unknown', '/data/', '/data/v3/x', `/data/v2/${id}/extra`]) {
      const res = await fetchData(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
      expect(await res.text(), path).toBe('Not found.');
    }
    const post = await fetchData(`/data/v2/${id}`, undefined, 'POST');
    expect(post.status).toBe(404);
    expect(await post.text()).toBe('Not found.');

    await update(id, { locked: false });
    const deleted = await t.inject({ method: 'DELETE', url: `${base}/${id}`, session: owner.session });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    // At once: the deletion reached this process on the world_data channel (NOTIFY: within milliseconds).
    const gone = await waitFor(async () => {
      const r = await fetchData(`/data/v2/${id}`);
      return r.status === 404 ? r : null;
    }, 2000);
    expect(gone.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await gone.text()).toBe('World not found.');
    expect((await fetchData(upper)).status).toBe(404);
  });

  it('rebuilds the worlds downloaded in the last hour every minute (the job), and the served body follows', async () => {
    const downloaded = await createWorld();
    const idle = await createWorld();
    const first = await fetchData(`/data/v2/${downloaded}`);
    expect(first.status).toBe(200);
    await worldDataCacheOf(t.ctx).flush();
    await new Promise((r) => setTimeout(r, 5));
    await worldsRebuildHandler.run(t.ctx, {});
    const after = await fetchData(`/data/v2/${downloaded}`);
    // Rebuilt (a new LastUpdated) and swapped in memory: served without a request waiting on a build.
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
    const stored = await t.ctx.database.executeSql(
      'select world_id from world_data_cache where world_id = $1',
      [idle],
    );
    expect(stored.rows).toEqual([]);
  });

  it('stops serving a world whose server the bot left at its next rebuild (404, stored body dropped)', async () => {
    // A world of a server the bot is not in, with a body stored while it still was.
    const [world] = await t.ctx.db
      .insert(worlds)
      .values({ guildId: '1399999999999999999', name: 'Left behind' })
      .returning();
    const id = world?.id as string;
    await storeWorldBody(
      t.ctx.db,
      makeWorldBody(id, '{"Version":1}', world?.updatedAt.getTime() ?? 0, Date.now()),
    );
    const served = await fetchData(`/data/v2/${id}`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('{"Version":1}');
    const found = await readWorldAndBody(t.ctx.db, id);
    expect(await worldDataCacheOf(t.ctx).rebuild(found?.world as never)).toBeNull();
    const gone = await fetchData(`/data/v2/${id}`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe('World not found.');
    expect((await readWorldAndBody(t.ctx.db, id))?.stored).toBeUndefined();
    // For the next minute without asking Discord again on every download.
    const getGuild = vi.spyOn(t.ctx.discord, 'getGuild');
    try {
      expect((await fetchData(`/data/v2/${id}`)).status).toBe(404);
      expect(getGuild).not.toHaveBeenCalled();
    } finally {
      getGuild.mockRestore();
    }
  });

  it('counts downloads without a log line each, stores the counts and shows them per world', async () => {
    const id = await createWorld();
    await worldDataCacheOf(t.ctx).flush();
    const linesBefore = logLines.length;
    for (let i = 0; i < 20; i++) expect((await fetchData(`/data/v2/${id}`)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await download(id)).statusCode).toBe(200);
    const requestLines = logLines.slice(linesBefore).filter((l) => JSON.stringify(l).includes('/data/v2/'));
    expect(requestLines).toEqual([]);
    await worldDataCacheOf(t.ctx).flush();
    const res = await t.inject({ method: 'GET', url: `${base}/requests`, session: owner.session });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().worlds).toContainEqual({ worldId: id, last24h: 25 });
    // A second minute adds to the same hour.
    await download(id);
    await worldDataCacheOf(t.ctx).flush();
    const again = await t.inject({ method: 'GET', url: `${base}/requests`, session: owner.session });
    expect(again.json().worlds).toContainEqual({ worldId: id, last24h: 26 });
  });
});
