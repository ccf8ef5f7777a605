import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/modules/auth/session.service.js';
import { createTestApp, signIn, type TestApp } from './app.js';

const guild = '1300000000000000001';
const vrc = 'usr_c1644b5b-3ca4-45b4-97c6-a2a0de70d469';
const world = '3f2b6c1e-0000-4000-8000-000000000000';
const grp = 'grp_3f2b6c1e-0000-4000-8000-000000000000';
/** Every route that acts for a signed-in user; each must answer 401 to an anonymous caller. */
const protectedRoutes: [string, string, unknown?][] = [
  ['GET', '/api/user'],
  ['GET', '/api/users/profile'],
  ['GET', '/api/users/search?query=abc'],
  ['GET', `/api/users/check?vrcId=${vrc}`],
  ['POST', `/api/users/link?vrcId=${vrc}`],
  ['POST', `/api/users/verify?vrcId=${vrc}`],
  ['GET', '/api/users/refresh'],
  ['POST', '/api/users/unlink'],
  ['GET', '/api/users/group/reset_invites'],
  ['GET', `/api/users/guests/${guild}`],
  ['GET', `/api/users/guests/${guild}/search?memberQuery=a`],
  ['POST', `/api/users/guests/${guild}/assign`, { discordId: '1300000000000000002' }],
  ['DELETE', `/api/users/guests/${guild}/unassign/1c2b3d4e-0000-4000-8000-000000000000`],
  ['POST', '/api/oauth-approve', { token: 'abcdefghijklmnop' }],
  ['GET', '/api/guilds'],
  ['GET', `/api/guilds/permissions/${guild}`],
  ['POST', `/api/guilds/permissions/${guild}/1300000000000000002`, { permissions: ['ViewWorlds'] }],
  ['DELETE', `/api/guilds/permissions/${guild}/1300000000000000002`],
  ['GET', `/api/guilds/${guild}/worlds`],
  ['PUT', `/api/guilds/${guild}/worlds`, {}],
  ['GET', `/api/guilds/${guild}/worlds/${world}`],
  ['POST', `/api/guilds/${guild}/worlds/${world}`, { name: 'x' }],
  ['DELETE', `/api/guilds/${guild}/worlds/${world}`],
  ['POST', `/api/guilds/${guild}/worlds/${world}/roles`, { discordEncodeRoles: [] }],
  ['GET', `/api/guilds/${guild}/worlds/preview/${world}`],
  ['GET', `/api/guilds/${guild}`],
  ['POST', `/api/guilds/${guild}`, { autoAssignRoles: {} }],
  ['POST', `/api/guilds/${guild}/contact`, { email: 'admin@example.com' }],
  ['GET', `/api/guilds/${guild}/guest_roles`],
  ['POST', `/api/guilds/${guild}/guest_roles`],
  ['PUT', `/api/guilds/${guild}/guest_roles`, { id: world, count: 1 }],
  ['DELETE', `/api/guilds/${guild}/guest_roles/${world}`],
  ['GET', `/api/members/${guild}?search=ab`],
  ['GET', `/api/guilds/${guild}/api_keys`],
  [
    'POST',
    `/api/guilds/${guild}/api_keys/create`,
    { name: 'x', permissions: ['ViewWorlds'], validUntil: '2030-01-01T00:00:00Z' },
  ],
  ['DELETE', `/api/guilds/${guild}/api_keys/${world}`],
  ['GET', `/api/members/${guild}/1300000000000000002`],
  ['GET', `/api/groups/${guild}`],
  ['POST', `/api/groups/${guild}`, { enabled: true }],
  ['DELETE', `/api/groups/${guild}`],
  ['POST', `/api/groups/${guild}/link/start`, { groupId: grp }],
  ['POST', `/api/groups/${guild}/link/check`, { groupId: grp }],
  ['POST', `/api/groups/${guild}/link/join`, { groupId: grp }],
  ['GET', `/api/groups/audit_log/${guild}`],
];

describe('every user route refuses anonymous callers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(protectedRoutes)('%s %s answers 401', async (method, url, payload) => {
    const res = await t.inject({ method: method as 'GET', url, payload: payload as object | undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });

  it('lists every operation of the OpenAPI document that is not public', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const publicOps = new Set([
      'getHealth',
      'getConfig',
      'getLoginRedirect',
      'completeLogin',
      'loginWithToken',
      'logout',
      'startSdkLogin',
      'pollSdkLogin',
      'getVpmListing',
      'getVpmPackage',
      'getWorldData',
    ]);
    const covered = new Set(protectedRoutes.map(([m, u]) => `${m} ${u.split('?')[0]}`));
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
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // The editor has no cookies: it sends `Authorization: Bearer` with no XSRF pair, on any user route.
  it.each(protectedRoutes)('%s %s accepts it as Authorization: Bearer', async (method, url, payload) => {
    const user = await signIn(t);
    const token = await createSession(t.ctx.db, user.id, 'sdk');
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      payload: payload as object | undefined,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).not.toBe(401);
    expect(res.statusCode).not.toBe(403);
  });
});
