import { seedGuildIds, seedUserIds, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expandPermissions,
  type GuildPermission,
  guildPermissionValues,
} from '../src/wings/access/permissions/guild-permissions.js';
import { multipartFile, solidImage } from '../src/wings/worlds/world-images/testing.js';
import { laxSimulator, type TestApp } from './app.js';
import { appWithHangoutOwner, guildGroup, signInMember } from './factories.js';

/**
 * The 403 matrix (issue #12 §5), next to route-auth's 401 one: every server-scoped route of the Hangout against
 * a member of another server only, a member holding nothing, each single permission granted in the Hangout and
 * an API key of another server (the Furry Dance Club). The one rule of docs/decisions.md: the Hangout exists for all of them
 * (the bot is in it), so a refusal is 403 with the sentence naming why; the guest routes need a user (401 to an
 * API key) and guest rights, which no permission gives.
 */
const hangout = seedGuildIds.hangout.id;
const danceClub = seedGuildIds.danceClub;
const unknownId = '3f2b6c1e-0000-4000-8000-000000000000';
const grp = 'grp_3f2b6c1e-0000-4000-8000-000000000000';
/** A seeded Hangout member nobody here signs in as: the target of member details and permission changes. */
const bystander = seedUserIds.humans[9];
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** `Host`: the guest routes, which need a guest-role entry (not a permission). */
type Need = GuildPermission | 'Host';
interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `{world}`, `{guestRole}`, `{apiKey}`, `{guildMapping}`, `{groupMapping}`: made by the owner first. */
  url: string;
  need: Need;
  payload?: object;
}

const g = `/api/guilds/${hangout}`;
const wi = `/api/world_images/${hangout}`;
const r = (method: Route['method'], url: string, need: Need, payload?: object): Route => ({
  method,
  url,
  need,
  payload,
});
/**
 * Every route with a server in its address and the permission its service asks `requireGuildPermission` for.
 * Destructive rows come late (unlinking the group last), so the allowed pass leaves the others something to act on.
 */
const routes: Route[] = [
  // Discord settings and guest-role entries
  r('GET', g, 'ViewGuild'),
  r('POST', g, 'Admin', { autoAssignRoles: {} }),
  r('POST', `${g}/contact`, 'ManageImages', { email: 'admin@example.com' }),
  r('GET', `${g}/guest_roles`, 'ViewGuild'),
  r('POST', `${g}/guest_roles`, 'Admin'),
  r('PUT', `${g}/guest_roles`, 'Admin', { id: '{guestRole}', count: 1 }),
  r('DELETE', `${g}/guest_roles/{guestRole}`, 'Admin'),
  // Members
  r('GET', `/api/members/${hangout}?search=ab`, 'ViewGuild'),
  r('GET', `/api/members/${hangout}/${bystander}`, 'ViewGuild'),
  // Permissions
  r('GET', `/api/guilds/permissions/${hangout}`, 'Admin'),
  r('POST', `/api/guilds/permissions/${hangout}/${bystander}`, 'Admin', { permissions: ['ViewGuild'] }),
  r('DELETE', `/api/guilds/permissions/${hangout}/${bystander}`, 'Admin'),
  // API keys
  r('GET', `${g}/api_keys`, 'Admin'),
  r('POST', `${g}/api_keys/create`, 'Admin', {
    name: 'x',
    permissions: ['ViewWorlds'],
    validUntil: inDays(30),
  }),
  r('DELETE', `${g}/api_keys/{apiKey}`, 'Admin'),
  r('GET', `${g}/api_log`, 'Admin'),
  // The read-only API for integrations (/api/v1)
  r('GET', `/api/v1/guilds/${hangout}/members?verified=true`, 'ViewGuild'),
  r('GET', `/api/v1/guilds/${hangout}/members/discord/${bystander}`, 'ViewGuild'),
  r('GET', `/api/v1/guilds/${hangout}/members/vrchat/usr_3f2b6c1e-0000-4000-8000-000000000000`, 'ViewGuild'),
  // Worlds (the world is locked, so deleting it answers 409 and it stays)
  r('GET', `${g}/worlds`, 'ViewWorlds'),
  r('PUT', `${g}/worlds`, 'ManageWorlds', {}),
  r('GET', `${g}/worlds/{world}`, 'ViewWorlds'),
  r('POST', `${g}/worlds/{world}`, 'ManageWorlds', { name: 'Renamed' }),
  r('POST', `${g}/worlds/{world}/roles`, 'ManageWorlds', { discordEncodeRoles: [] }),
  r('GET', `${g}/worlds/preview/{world}`, 'WorldPreview'),
  // World images: {image} and slot 0 of {world} are the owner's; each pass adds slot 1 and deletes it again.
  r('POST', `${wi}/upload`, 'ManageImages'),
  r('GET', `${wi}/images`, 'ViewImages'),
  r('GET', `${wi}/image/{image}`, 'ViewImages'),
  r('GET', `${wi}/image/{image}/preview`, 'ViewImages'),
  r('POST', `${wi}/image/{image}`, 'ManageImages', { rotation: 'Clockwise' }),
  r('DELETE', `${wi}/image/${unknownId}`, 'ManageImages'),
  r('GET', `${wi}/{world}/slots`, 'ViewImages'),
  r('PUT', `${wi}/{world}/slots`, 'ManageImages'),
  r('POST', `${wi}/{world}/0/slots`, 'ManageImages', { slotId: 0, imageId: '{image}', name: 'Poster' }),
  r('POST', `${wi}/{world}/slots/batch`, 'ManageImages', { imageSlots: [] }),
  r('GET', `/api/world_images/slot_image/${hangout}/{world}/0`, 'ViewImages'),
  r('GET', `/api/world_images/slot_image/${hangout}/{world}/0/preview`, 'ViewImages'),
  r('DELETE', `${wi}/{world}/1/slots`, 'ManageImages'),
  // World atlas (a second Generate while the first is queued answers 409)
  r('POST', `/api/world_images/atlas/${hangout}/{world}/generate`, 'ManageImages'),
  r('GET', `${g}/worlds/requests`, 'ViewWorlds'),
  r('DELETE', `${g}/worlds/{world}`, 'ManageWorlds'),
  // Audit log
  r('GET', `/api/groups/audit_log/${hangout}`, 'Admin'),
  // Logging to Discord and the setup doctor
  r('GET', `/api/guilds/channels/${hangout}/channels`, 'Admin'),
  r('GET', `/api/guilds/logging/${hangout}/config`, 'ViewGuild'),
  r('PATCH', `/api/guilds/logging/${hangout}/config`, 'Admin', { eventTypes: [] }),
  r('GET', `${g}/setup_check`, 'ViewGuild'),
  // Sync
  r('GET', `${g}/sync`, 'Admin'),
  r('GET', `${g}/sync/preview`, 'Admin'),
  r('POST', `${g}/sync/preview`, 'Admin', { kind: 'autoRoles', autoAssignRoles: { linkedRoleId: null } }),
  r('POST', `${g}/sync/preview`, 'Admin', { kind: 'guestRole', id: unknownId, entry: { count: 0 } }),
  r('POST', `${g}/sync`, 'Admin'),
  r('GET', `${g}/sync/held`, 'Admin'),
  r('POST', `${g}/sync/held`, 'Admin', { decision: 'discard' }),
  // Role mappings (the Hangout's group is linked)
  r('GET', `${g}/guild_roles`, 'Admin'),
  r('POST', `${g}/guild_roles`, 'Admin'),
  r('PUT', `${g}/guild_roles`, 'Admin', { id: '{guildMapping}', action: 'None' }),
  r('DELETE', `${g}/guild_roles/{guildMapping}`, 'Admin'),
  r('GET', `/api/groups/${hangout}/group_roles`, 'Admin'),
  r('POST', `/api/groups/${hangout}/group_roles`, 'Admin'),
  r('PUT', `/api/groups/${hangout}/group_roles`, 'Admin', { id: '{groupMapping}', action: 'None' }),
  r('DELETE', `/api/groups/${hangout}/group_roles/{groupMapping}`, 'Admin'),
  // VRChat group
  r('GET', `/api/groups/${hangout}`, 'ViewGuild'),
  r('POST', `/api/groups/${hangout}`, 'Admin', { enabled: true }),
  r('POST', `/api/groups/${hangout}/link/start`, 'Admin', { groupId: grp }),
  r('POST', `/api/groups/${hangout}/link/check`, 'Admin', { groupId: grp }),
  r('POST', `/api/groups/${hangout}/link/join`, 'Admin', { groupId: grp }),
  r('DELETE', `/api/groups/${hangout}`, 'Admin'),
  // Guests: guest rights come from guest-role entries; the unassign names an entry nobody has (404 by the rule)
  r('GET', `/api/users/guests/${hangout}`, 'Host'),
  r('GET', `/api/users/guests/${hangout}/search?memberQuery=a`, 'Host'),
  r('POST', `/api/users/guests/${hangout}/assign`, 'Host', { discordId: bystander }),
  r('DELETE', `/api/users/guests/${hangout}/unassign/${unknownId}`, 'Host'),
];

const label = (route: Route) => `${route.method} ${route.url} (${route.need})`;
const allows = (granted: GuildPermission, route: Route) =>
  route.need !== 'Host' && expandPermissions([granted]).includes(route.need);
const NOT_A_HOST = { status: 403, message: 'You cannot set up guests in this server.' };
/** What any signed-in user without guest rights gets from a guest route. */
const guestRefusal = (route: Route) =>
  route.url.includes('/unassign/') ? { status: 404, message: 'Guest not found.' } : NOT_A_HOST;

describe('every server route refuses callers without the permission it needs (403 matrix)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let outsider: { id: string; session: string };
  let nobody: { id: string; session: string };
  const holders = new Map<GuildPermission, { id: string; session: string }>();
  let foreignKey: string;
  const ids: Record<string, string> = {};

  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (m, k: string) => ids[k] ?? m);
  const send = (route: Route, session: string) =>
    t.inject({
      method: route.method,
      url: fill(route.url),
      payload: route.payload && JSON.parse(fill(JSON.stringify(route.payload))),
      session,
    });
  const sendWithKey = (route: Route, key: string) =>
    t.app.inject({
      method: route.method,
      url: fill(route.url),
      payload: route.payload && JSON.parse(fill(JSON.stringify(route.payload))),
      headers: { authorization: key },
    });
  const ok = async (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    return JSON.parse(res.body);
  };

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    const asOwner = (method: Route['method'], url: string, payload?: object) =>
      t.inject({ method, url, payload, session: owner.session });

    // What the rows act on, made by the Hangout's owner.
    const worlds = await ok(await asOwner('PUT', `${g}/worlds`, { name: 'Matrix world' }));
    ids.world = worlds.worlds[0].id;
    // An image (uploading needs the contact e-mail) and slot 0 of the world, for the World Images rows.
    await ok(await asOwner('POST', `${g}/contact`, { email: 'admin@example.com' }));
    ids.image = (
      await ok(
        await t.inject({
          method: 'POST',
          url: `${wi}/upload`,
          session: owner.session,
          ...multipartFile('poster.png', await solidImage(64, 32)),
        }),
      )
    ).id;
    await ok(await asOwner('PUT', `${wi}/${ids.world}/slots`));
    ids.guestRole = (await ok(await asOwner('POST', `${g}/guest_roles`))).guestRoles[0].id;
    ids.apiKey = (
      await ok(
        await asOwner('POST', `${g}/api_keys/create`, {
          name: 'Hangout key',
          permissions: ['ViewWorlds'],
          validUntil: inDays(30),
        }),
      )
    ).id;
    await guildGroup(t, {
      guildId: hangout,
      groupId: vrchatSeed.groupIds.hangout,
      name: 'VRC Hangout Official',
    });
    ids.guildMapping = (await ok(await asOwner('POST', `${g}/guild_roles`))).id;
    ids.groupMapping = (await ok(await asOwner('POST', `/api/groups/${hangout}/group_roles`))).id;

    // Admin of the Furry Dance Club (its Staff role has Manage Server), not a member of the Hangout.
    outsider = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    // The outsider's key for the Dance Club, with every permission a key can hold.
    foreignKey = (
      await ok(
        await t.inject({
          method: 'POST',
          url: `/api/guilds/${danceClub.id}/api_keys/create`,
          payload: {
            name: 'Dance Club key',
            permissions: guildPermissionValues.filter((p) => p !== 'Admin'),
            validUntil: inDays(30),
          },
          session: outsider.session,
        }),
      )
    ).token;

    nobody = await signInMember(t, hangout);
    for (const permission of guildPermissionValues) {
      const member = await signInMember(t, hangout);
      await ok(
        await asOwner('POST', `/api/guilds/permissions/${hangout}/${member.id}`, {
          permissions: [permission],
        }),
      );
      holders.set(permission, member);
    }
  });
  afterAll(() => t?.close());

  it('lists every server-scoped operation of the OpenAPI document', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const covered = routes.map((route) => `${route.method} ${route.url.split('?')[0]}`);
    let scoped = 0;
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!/\{(guildId|serverId)\}/.test(path)) continue;
      for (const method of Object.keys(ops)) {
        scoped++;
        const pattern = new RegExp(`^${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        expect(
          covered.some((c) => pattern.test(c)),
          `${method.toUpperCase()} ${path} has no row in the 403 matrix`,
        ).toBe(true);
      }
    }
    // One operation may have a row per kind of body (the change preview), so routes are counted once.
    expect(scoped).toBe(new Set(covered).size);
  });

  it('the callers are who the matrix says (sanity)', async () => {
    // The outsider is Admin in the Dance Club and the key works there: the refusals below are about the Hangout.
    expect(
      (await t.inject({ method: 'GET', url: `/api/guilds/${danceClub.id}`, session: outsider.session }))
        .statusCode,
    ).toBe(200);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/guilds/${danceClub.id}/worlds`,
      headers: { authorization: foreignKey },
    });
    expect(own.statusCode, own.body).toBe(200);
    // Each holder has exactly their grant (and what it implies) in the Hangout; the outsider nothing there.
    const servers = async (session: string) =>
      (await t.inject({ method: 'GET', url: '/api/guilds', session })).json() as {
        id: string;
        permissions: string[];
      }[];
    for (const [permission, holder] of holders) {
      expect(await servers(holder.session)).toEqual([
        expect.objectContaining({ id: hangout, permissions: expandPermissions([permission]) }),
      ]);
    }
    expect(await servers(nobody.session)).toEqual([]);
    expect((await servers(outsider.session)).map((s) => s.id)).toEqual([danceClub.id]);
  });

  describe('a member of another server only (the Dance Club Admin)', () => {
    it.each(routes.map((route) => [label(route), route] as const))('%s', async (_, route) => {
      const res = await send(route, outsider.session);
      const want =
        route.need === 'Host'
          ? guestRefusal(route)
          : { status: 403, message: 'You are not a member of this server.' };
      expect({ status: res.statusCode, message: res.json().message }).toEqual(want);
    });
  });

  describe('an API key of another server (the Dance Club, every permission a key can hold)', () => {
    it.each(routes.map((route) => [label(route), route] as const))('%s', async (_, route) => {
      const res = await sendWithKey(route, foreignKey);
      if (route.need === 'Host') {
        // The guest routes need a user: an API key is nobody there.
        expect(res.statusCode, res.body).toBe(401);
        return;
      }
      expect({ status: res.statusCode, message: res.json().message }).toEqual({
        status: 403,
        message: 'This API key is not valid for this server.',
      });
    });
  });

  describe('a Hangout member holding no permission', () => {
    it.each(routes.map((route) => [label(route), route] as const))('%s', async (_, route) => {
      const res = await send(route, nobody.session);
      const want =
        route.need === 'Host'
          ? guestRefusal(route)
          : { status: 403, message: `You need the ${route.need} permission in this server.` };
      expect({ status: res.statusCode, message: res.json().message }).toEqual(want);
    });
  });

  // Refusals first (nothing has been changed or deleted yet), then what each grant allows.
  describe.each(guildPermissionValues)('a Hangout member granted only %s: refused', (permission) => {
    const refused = routes.filter((route) => !allows(permission, route));
    it.each(refused.map((route) => [label(route), route] as const))('%s', async (_, route) => {
      const res = await send(route, holders.get(permission)!.session);
      const want =
        route.need === 'Host'
          ? guestRefusal(route)
          : { status: 403, message: `You need the ${route.need} permission in this server.` };
      expect({ status: res.statusCode, message: res.json().message }).toEqual(want);
    });
  });

  // Only permissions that guard some route have something to let through.
  const letThrough = guildPermissionValues.filter((p) => routes.some((route) => allows(p, route)));
  describe.each(letThrough)('a Hangout member granted only %s: let through', (permission) => {
    const allowed = routes.filter((route) => allows(permission, route));
    it.each(allowed.map((route) => [label(route), route] as const))('%s', async (_, route) => {
      const res = await send(route, holders.get(permission)!.session);
      // The route's own answer (200, or 400/404/409 from its rules): never a refusal, never a failure.
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect([401, 403], res.body).not.toContain(res.statusCode);
    });
  });
});
