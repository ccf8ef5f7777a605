import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_TOKEN_REFUSED } from '../src/http/auth.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { createTestApp, laxSimulator, type TestApp } from './app.js';
import { signInHangoutOwner } from './factories.js';

const guild = seedGuildIds.hangout.id;
const vrc = 'usr_c1644b5b-3ca4-45b4-97c6-a2a0de70d469';
const world = '3f2b6c1e-0000-4000-8000-000000000000';
const grp = 'grp_3f2b6c1e-0000-4000-8000-000000000000';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
/**
 * Every route that acts for a signed-in user; each must answer 401 to an anonymous caller. The status is what
 * the Hangout's owner gets through an SDK access token (against the simulators): never 401, never a 5xx.
 */
const protectedRoutes: [method: string, url: string, bearerStatus: number, payload?: unknown][] = [
  ['GET', '/api/user', 200],
  ['GET', '/api/users/profile', 200],
  ['GET', '/api/users/profile/export', 200],
  // A wrong confirmation: refused before anything is deleted.
  ['DELETE', '/api/users/profile', 400, { username: 'not-the-username' }],
  ['GET', '/api/users/search?query=abc', 200],
  ['GET', `/api/users/check?vrcId=${vrc}`, 404],
  ['POST', `/api/users/link?vrcId=${vrc}`, 404],
  ['POST', `/api/users/verify?vrcId=${vrc}`, 404],
  ['GET', '/api/users/refresh', 404],
  ['POST', '/api/users/unlink', 404],
  ['GET', '/api/users/group/reset_invites', 404],
  // The owner holds no guest role: refused by the guest rules, not by the token.
  ['GET', `/api/users/guests/${guild}`, 403],
  ['GET', `/api/users/guests/${guild}/search?memberQuery=a`, 403],
  ['POST', `/api/users/guests/${guild}/assign`, 403, { discordId: '1300000000000000002' }],
  ['DELETE', `/api/users/guests/${guild}/unassign/1c2b3d4e-0000-4000-8000-000000000000`, 404],
  ['GET', '/api/oauth-request?token=abcdefghijklmnop', 404],
  ['POST', '/api/oauth-approve', 404, { token: 'abcdefghijklmnop' }],
  ['POST', '/api/oauth-deny', 404, { token: 'abcdefghijklmnop' }],
  ['GET', '/api/guilds', 200],
  ['GET', `/api/guilds/permissions/${guild}`, 200],
  ['POST', `/api/guilds/permissions/${guild}/1300000000000000002`, 404, { permissions: ['ViewWorlds'] }],
  ['DELETE', `/api/guilds/permissions/${guild}/1300000000000000002`, 404],
  ['GET', `/api/guilds/${guild}/worlds`, 200],
  ['PUT', `/api/guilds/${guild}/worlds`, 200, {}],
  ['GET', `/api/guilds/${guild}/worlds/${world}`, 404],
  ['POST', `/api/guilds/${guild}/worlds/${world}`, 404, { name: 'x' }],
  ['DELETE', `/api/guilds/${guild}/worlds/${world}`, 404],
  ['POST', `/api/guilds/${guild}/worlds/${world}/roles`, 404, { discordEncodeRoles: [] }],
  ['GET', `/api/guilds/${guild}/worlds/preview/${world}`, 404],
  // World images: the Hangout has no contact e-mail here, so an upload answers 409 before any file is read.
  ['POST', `/api/world_images/${guild}/upload`, 409],
  ['GET', `/api/world_images/${guild}/images`, 200],
  ['GET', `/api/world_images/${guild}/image/${world}`, 404],
  ['POST', `/api/world_images/${guild}/image/${world}`, 404, { rotation: 'Clockwise' }],
  ['DELETE', `/api/world_images/${guild}/image/${world}`, 404],
  ['GET', `/api/world_images/${guild}/image/${world}/preview`, 404],
  ['GET', `/api/world_images/${guild}/${world}/slots`, 404],
  ['PUT', `/api/world_images/${guild}/${world}/slots`, 404],
  ['POST', `/api/world_images/${guild}/${world}/slots/batch`, 404, { imageSlots: [] }],
  ['POST', `/api/world_images/${guild}/${world}/0/slots`, 404, { slotId: 0 }],
  ['DELETE', `/api/world_images/${guild}/${world}/0/slots`, 404],
  ['GET', `/api/world_images/slot_image/${guild}/${world}/0`, 404],
  ['GET', `/api/world_images/slot_image/${guild}/${world}/0/preview`, 404],
  ['POST', `/api/world_images/atlas/${guild}/${world}/generate`, 404],
  ['GET', `/api/world_images/atlas/${world}/metadata`, 404],
  ['GET', `/api/world_images/atlas/${world}/0/0`, 404],
  ['GET', `/api/guilds/${guild}/worlds/requests`, 200],
  ['GET', `/api/guilds/${guild}`, 200],
  ['POST', `/api/guilds/${guild}`, 200, { autoAssignRoles: {} }],
  ['POST', `/api/guilds/${guild}/contact`, 200, { email: 'admin@example.com' }],
  ['GET', `/api/guilds/${guild}/guest_roles`, 200],
  ['POST', `/api/guilds/${guild}/guest_roles`, 200],
  ['PUT', `/api/guilds/${guild}/guest_roles`, 404, { id: world, count: 1 }],
  ['DELETE', `/api/guilds/${guild}/guest_roles/${world}`, 404],
  ['GET', `/api/members/${guild}?search=ab`, 200],
  ['GET', `/api/guilds/${guild}/api_keys`, 200],
  [
    'POST',
    `/api/guilds/${guild}/api_keys/create`,
    200,
    { name: 'x', permissions: ['ViewWorlds'], validUntil: inDays(30) },
  ],
  ['DELETE', `/api/guilds/${guild}/api_keys/${world}`, 404],
  ['GET', `/api/guilds/${guild}/api_log`, 200],
  ['GET', `/api/v1/guilds/${guild}/members`, 200],
  ['GET', `/api/v1/guilds/${guild}/members/discord/1300000000000000002`, 404],
  ['GET', `/api/v1/guilds/${guild}/members/vrchat/${vrc}`, 404],
  ['GET', `/api/members/${guild}/1300000000000000002`, 404],
  ['GET', `/api/groups/${guild}`, 404],
  ['POST', `/api/groups/${guild}`, 404, { enabled: true }],
  ['DELETE', `/api/groups/${guild}`, 404],
  ['POST', `/api/groups/${guild}/link/start`, 404, { groupId: grp }],
  ['POST', `/api/groups/${guild}/link/check`, 404, { groupId: grp }],
  ['POST', `/api/groups/${guild}/link/join`, 404, { groupId: grp }],
  ['GET', `/api/groups/audit_log/${guild}`, 200],
  ['GET', `/api/guilds/channels/${guild}/channels`, 200],
  ['GET', `/api/guilds/logging/${guild}/config`, 200],
  ['PATCH', `/api/guilds/logging/${guild}/config`, 200, { eventTypes: [] }],
  ['GET', `/api/guilds/${guild}/setup_check`, 200],
  ['GET', `/api/guilds/${guild}/sync`, 200],
  ['GET', `/api/guilds/${guild}/sync/preview`, 200],
  ['POST', `/api/guilds/${guild}/sync/preview`, 200, { kind: 'groupSettings', autoKick: true }],
  // A guest-role change: the owner passes, and the unknown entry is the route's own 404.
  [
    'POST',
    `/api/guilds/${guild}/sync/preview`,
    404,
    { kind: 'guestRole', id: '1c2b3d4e-0000-4000-8000-000000000000', entry: null },
  ],
  ['POST', `/api/guilds/${guild}/sync`, 200],
  ['GET', `/api/guilds/${guild}/sync/held`, 200],
  ['POST', `/api/guilds/${guild}/sync/held`, 400, { decision: 'discard' }],
  ['GET', `/api/guilds/${guild}/guild_roles`, 404],
  ['POST', `/api/guilds/${guild}/guild_roles`, 404],
  ['PUT', `/api/guilds/${guild}/guild_roles`, 404, { id: world, action: 'None' }],
  ['DELETE', `/api/guilds/${guild}/guild_roles/${world}`, 404],
  ['GET', `/api/groups/${guild}/group_roles`, 404],
  ['POST', `/api/groups/${guild}/group_roles`, 404],
  ['PUT', `/api/groups/${guild}/group_roles`, 404, { id: world, action: 'None' }],
  ['DELETE', `/api/groups/${guild}/group_roles/${world}`, 404],
];
/** Platform admins only (rank Admin): 401 anonymous here, 403 for other users in wings/admin/admin. */
const platformAdminRoutes: [method: string, url: string][] = [
  ['GET', '/api/admin/scheduled-tasks/get_tasks'],
  ['POST', '/api/admin/scheduled-tasks/toggle/vrclink/box/purgeExpired'],
  ['POST', '/api/admin/scheduled-tasks/run/vrclink/box/purgeExpired'],
  ['GET', '/api/admin/status'],
  ['GET', '/api/admin/jobs/recent'],
  ['POST', '/api/admin/vrchat/retry-login'],
  ['GET', '/api/admin/world-mirror'],
];

describe('every user route refuses anonymous callers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ...protectedRoutes.map(([method, url, , payload]) => [method, url, payload] as const),
    ...platformAdminRoutes,
  ])('%s %s answers 401', async (method, url, payload?: unknown) => {
    const res = await t.inject({ method: method as 'GET', url, payload: payload as object | undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });

  it('lists every operation of the OpenAPI document that is not public', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const publicOps = new Set([
      'getHealth',
      'getReadiness',
      'getConfig',
      'getLoginRedirect',
      'completeLogin',
      'loginWithToken',
      'previewLoginToken',
      'logout',
      'startSdkLogin',
      'pollSdkLogin',
      'getVpmListing',
      'getVpmPackage',
      'getWorldData',
      'getPublicWorldAtlas',
      'getMirroredWorldData',
    ]);
    const covered = new Set(
      [...protectedRoutes, ...platformAdminRoutes].map(([m, u]) => `${m} ${u.split('?')[0]}`),
    );
    for (const [path, ops] of Object.entries<Record<string, { operationId: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (publicOps.has(op.operationId)) continue;
        const pattern = new RegExp(`^${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        expect(
          [...covered].some((c) => pattern.test(c)),
          `${method.toUpperCase()} ${path} has no 401 test`,
        ).toBe(true);
      }
    }
  });
});

describe('the Unity SDK access token', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forManyDiscordCalls, jobs: true });
    const owner = await signInHangoutOwner(t);
    token = await createSession(t.ctx.db, owner.id, 'sdk');
  });
  afterAll(() => t.close());

  /** The reads the world SDK makes (../shared/compat/world-sdk.md): the only routes the token opens. */
  const sdkReads = new Set(['GET /api/user', 'GET /api/guilds', `GET /api/guilds/${guild}/worlds`]);
  const asSdk = (
    method: string,
    url: string,
    payload: unknown,
    credentials: 'bearer' | 'cookie',
  ): Promise<{ statusCode: number; body: string; json: () => { message: string } }> =>
    credentials === 'bearer'
      ? t.app.inject({
          method: method as 'GET',
          url,
          payload: payload as object | undefined,
          headers: { authorization: `Bearer ${token}` },
        })
      : t.inject({ method: method as 'GET', url, payload: payload as object | undefined, session: token });

  // The editor has no cookies: it sends `Authorization: Bearer` with no XSRF pair; the spec lets it send the
  // token as the session cookie too. Either way the three reads answer as for the user.
  it.each(protectedRoutes.filter(([m, u]) => sdkReads.has(`${m} ${u}`)))(
    '%s %s answers %d to it, as Bearer and as the session cookie',
    async (method, url, status, payload) => {
      for (const credentials of ['bearer', 'cookie'] as const) {
        const res = await asSdk(method, url, payload, credentials);
        expect(res.statusCode, res.body).toBe(status);
      }
    },
  );

  // Anything else (an API key, settings, /admin…) is refused: an approved editor cannot act as the user.
  it.each([
    ...protectedRoutes
      .filter(([m, u]) => !sdkReads.has(`${m} ${u}`))
      .map(([m, u, , p]) => [m, u, p] as const),
    ...platformAdminRoutes,
  ])('%s %s answers 403 to it', async (method, url, payload?: unknown) => {
    for (const credentials of ['bearer', 'cookie'] as const) {
      const res = await asSdk(method, url, payload, credentials);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(SDK_TOKEN_REFUSED);
    }
  });
});
