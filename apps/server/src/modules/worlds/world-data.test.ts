import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGuildIds } from '../../../../simulator/src/discord/seed.js';
import { vrchatGroupIds, vrchatRoleIds } from '../../../../simulator/src/vrchat/seed-groups.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import {
  guestRoleEntry,
  guildGroup,
  signInHangoutOwner,
  signInMember,
  vrchatLink,
  vrchatUser,
} from '../../../test/factories.js';
import { decodeWorldBody } from './codec/lzw.js';

const { hangout } = seedGuildIds;
const base = `/api/guilds/${hangout.id}/worlds`;

describe('world data (against the simulators)', () => {
  let t: TestApp;
  let owner: { id: string; session: string };
  beforeAll(async () => {
    t = await createTestApp({ simulator: true });
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

  const createWorld = async () => {
    const res = await t.inject({ method: 'PUT', url: base, session: owner.session, payload: {} });
    return res.json().worlds.at(-1).id as string;
  };
  const update = async (id: string, payload: object) => {
    const res = await t.inject({ method: 'POST', url: `${base}/${id}`, session: owner.session, payload });
    expect(res.statusCode, res.body).toBe(200);
  };
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
    expect(JSON.parse((await download(id)).body).CustomData).toBe('new text');
  });

  it('answers 404 for an unknown world and 400 for a malformed id', async () => {
    const missing = await download('3f2b6c1e-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('World not found.');
    expect((await download('nope')).statusCode).toBe(400);
  });
});
