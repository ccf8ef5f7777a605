import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { servedVrchatRoutes, vrchatAccounts, vrchatUserIds } from '../src/vrchat/index.js';
import { contractCaller } from './contract/vrchat-call.js';
import {
  expectMatchesVrchatSpec,
  expectVrchatError,
  specHasOperation,
  toJsonSchema,
} from './contract/vrchat-spec.js';
import { basic, call, dance, hangout, login } from './vrchat-helpers.js';

const bot = vrchatAccounts.bot;

let sim: RunningSimulator;
let base: string;
let botCookie: string;

const expectContract = contractCaller(() => ({ base, cookie: botCookie }));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vrchatRate: { capacity: 10_000, perSecond: 10_000 } });
  base = sim.url;
  botCookie = await login(base);
});
afterAll(() => sim.close());

describe('the contract helper', () => {
  it('fails for an operation that is not in the spec', () => {
    expect(() => expectMatchesVrchatSpec('GET', '/groups/{groupId}/nonsense', 200, {})).toThrow(
      /not an operation/,
    );
    expect(() => expectMatchesVrchatSpec('PATCH', '/users/{userId}', 200, {})).toThrow(/not an operation/);
  });

  it('fails for fields the spec does not define and for wrong types', () => {
    expect(() => expectMatchesVrchatSpec('GET', '/auth', 200, { ok: true, token: 'x', extra: 1 })).toThrow();
    expect(() => expectMatchesVrchatSpec('GET', '/auth', 200, { ok: 'yes', token: 'x' })).toThrow();
  });

  it('is strict about nested schemas too', async () => {
    const user = (await call(base, 'GET', `/users/${bot.userId}`, { cookie: botCookie })).body as Record<
      string,
      unknown
    >;
    expect(() => expectMatchesVrchatSpec('GET', '/users/{userId}', 200, user)).not.toThrow();
    expect(() =>
      expectMatchesVrchatSpec('GET', '/users/{userId}', 200, { ...user, dateJoined: '2020-01-01' }),
    ).toThrow(/additional/);
    const { bio: _bio, ...noBio } = user;
    expect(() => expectMatchesVrchatSpec('GET', '/users/{userId}', 200, noBio)).toThrow(/bio/);
    expect(() =>
      expectMatchesVrchatSpec('GET', '/users/{userId}', 200, { ...user, ageVerificationStatus: 'adult' }),
    ).toThrow();
    expect(() => expectMatchesVrchatSpec('POST', '/groups/{groupId}/invites', 200, { ok: true })).toThrow(
      /no body/,
    );
  });

  it('maps OAS 3.0 nullable to JSON Schema', () => {
    expect(toJsonSchema({ type: 'string', nullable: true }, false)).toEqual({ type: ['string', 'null'] });
    expect(toJsonSchema({ $ref: '#/x', nullable: true }, false)).toMatchObject({
      anyOf: [{ $ref: '#/x' }, { type: 'null' }],
    });
  });

  it('rejects error envelopes without a matching status_code', () => {
    expect(() => expectVrchatError(404, { error: { message: 'x', status_code: 400 } })).toThrow();
    expect(() => expectVrchatError(404, { message: 'x' })).toThrow();
  });
});

describe('every served /api/1 route', () => {
  it('is an operation in the spec', () => {
    const routes = servedVrchatRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const [method, template] = route.split(' ');
      expect(specHasOperation(method, template), route).toBe(true);
    }
  });
});

describe('authentication', () => {
  it('GET /auth/user with Basic answers requiresTwoFactorAuth and an auth cookie', async () => {
    const res = await expectContract(
      'GET',
      '/auth/user',
      {},
      { cookie: '', auth: basic(bot.username, bot.password) },
    );
    expect(res.body).toEqual({ requiresTwoFactorAuth: ['totp', 'otp'] });
    expect(res.headers.getSetCookie()[0]).toMatch(
      /^auth=authcookie_[0-9a-f-]{36}; Expires=\w{3}, \d\d \w{3} \d{4} [\d:]{8} GMT; Path=\/; HttpOnly$/,
    );
    const pending = await expectContract(
      'GET',
      '/auth/user',
      {},
      { cookie: `auth=${res.cookies.auth}`, status: 200 },
    );
    expect(pending.body).toEqual({ requiresTwoFactorAuth: ['totp', 'otp'] });
  });

  it('GET /auth/user with finished 2FA answers the CurrentUser', async () => {
    const res = await expectContract('GET', '/auth/user', {}, { status: 200 });
    expect(res.body).toMatchObject({
      id: bot.userId,
      displayName: 'VRCLink Bot',
      twoFactorAuthEnabled: true,
    });
  });

  it('GET /auth/user without credentials is 401 "Missing Credentials" (JSON-quoted)', async () => {
    const res = await expectContract('GET', '/auth/user', {}, { cookie: '', status: 401 });
    expect(res.body).toEqual({ error: { message: '"Missing Credentials"', status_code: 401 } });
    await expectContract('GET', '/auth/user', {}, { cookie: 'auth=authcookie_bogus', status: 401 });
  });

  it('GET /auth/user with a wrong password is 401', async () => {
    const res = await expectContract(
      'GET',
      '/auth/user',
      {},
      { cookie: '', auth: basic(bot.username, 'nope'), status: 401 },
    );
    expect((res.body as { error: { message: string } }).error.message).toBe(
      'Invalid Username/Email or Password',
    );
  });

  it('POST /auth/twofactorauth/totp/verify answers verified true/false', async () => {
    const first = await call(base, 'GET', '/auth/user', { auth: basic(bot.username, bot.password) });
    const cookie = `auth=${first.cookies.auth}`;
    const wrong = await expectContract(
      'POST',
      '/auth/twofactorauth/totp/verify',
      {},
      { cookie, json: { code: '000000' }, status: 200 },
    );
    expect(wrong.body).toEqual({ verified: false });
    const code = await generate({ secret: bot.totpSecret });
    const ok = await expectContract(
      'POST',
      '/auth/twofactorauth/totp/verify',
      {},
      { cookie, json: { code }, status: 200 },
    );
    expect(ok.body).toEqual({ verified: true, enabled: true });
    expect(ok.headers.getSetCookie()[0]).toMatch(
      /^twoFactorAuth=[\w-]+\.[\w-]+; Expires=.+; Path=\/; HttpOnly$/,
    );
    await expectContract(
      'POST',
      '/auth/twofactorauth/totp/verify',
      {},
      { cookie: '', json: { code }, status: 401 },
    );
  });

  it('POST /auth/twofactorauth/otp/verify accepts a recovery code once', async () => {
    const dave = vrchatAccounts.dave;
    const first = await call(base, 'GET', '/auth/user', { auth: basic(dave.username, dave.password) });
    const cookie = `auth=${first.cookies.auth}`;
    const json = { code: dave.recoveryCodes[0] };
    const ok = await expectContract(
      'POST',
      '/auth/twofactorauth/otp/verify',
      {},
      { cookie, json, status: 200 },
    );
    expect(ok.body).toMatchObject({ verified: true });
    const again = await expectContract(
      'POST',
      '/auth/twofactorauth/otp/verify',
      {},
      { cookie, json, status: 200 },
    );
    expect(again.body).toEqual({ verified: false });
  });

  it('GET /auth answers ok and the token', async () => {
    const res = await expectContract('GET', '/auth', {}, { status: 200 });
    expect(res.body).toEqual({ ok: true, token: botCookie.split(';')[0].slice('auth='.length) });
    await expectContract('GET', '/auth', {}, { cookie: '', status: 401 });
  });

  it('PUT /logout answers Success and ends the session', async () => {
    const cookie = await login(base, vrchatAccounts.carol);
    const res = await expectContract('PUT', '/logout', {}, { cookie, status: 200 });
    expect(res.body).toEqual({ success: { message: 'Ok!', status_code: 200 } });
    await expectContract('GET', '/auth/user', {}, { cookie, status: 401 });
    await expectContract('PUT', '/logout', {}, { cookie, status: 401 });
  });

  it('any other endpoint before 2FA is 401 "Requires Two-Factor Authentication"', async () => {
    const first = await call(base, 'GET', '/auth/user', { auth: basic(bot.username, bot.password) });
    const res = await expectContract(
      'GET',
      '/users/{userId}',
      { userId: bot.userId },
      { cookie: `auth=${first.cookies.auth}`, status: 401 },
    );
    expect(res.body).toEqual({
      error: { message: '"Requires Two-Factor Authentication"', status_code: 401 },
    });
  });
});

describe('users', () => {
  it('GET /users searches display names case-insensitively', async () => {
    const res = await expectContract('GET', '/users', {}, { query: 'search=AURORA', status: 200 });
    expect((res.body as { displayName: string }[]).map((u) => u.displayName)).toEqual(['Aurora Skye']);
    const empty = await expectContract('GET', '/users', {}, { query: 'search=', status: 200 });
    expect(empty.body).toEqual([]);
    const paged = await expectContract('GET', '/users', {}, { query: 'search=e&n=3&offset=2', status: 200 });
    expect(paged.body).toHaveLength(3);
  });

  it('GET /users rejects n outside 1..100', async () => {
    await expectContract('GET', '/users', {}, { query: 'search=a&n=1000', status: 400 });
    await expectContract('GET', '/users', {}, { query: 'search=a&n=-1', status: 400 });
    await expectContract('GET', '/users', {}, { query: 'search=a', cookie: '', status: 401 });
  });

  it('GET /users/{userId} answers a User, 404 for unknown ids', async () => {
    const res = await expectContract(
      'GET',
      '/users/{userId}',
      { userId: vrchatUserIds['Aurora Skye'] },
      { status: 200 },
    );
    expect(res.body).toMatchObject({ ageVerificationStatus: '18+', ageVerified: true });
    const hidden = await expectContract(
      'GET',
      '/users/{userId}',
      { userId: vrchatUserIds.Lumi },
      { status: 200 },
    );
    expect(hidden.body).toMatchObject({ ageVerificationStatus: 'hidden', ageVerified: false });
    const missing = await expectContract(
      'GET',
      '/users/{userId}',
      { userId: 'usr_00000000-0000-4000-8000-000000000000' },
      { status: 404 },
    );
    expect(missing.body).toEqual({ error: { message: 'User not found', status_code: 404 } });
  });

  it('GET /users/{userId}/groups lists the groups the user is in', async () => {
    const res = await expectContract(
      'GET',
      '/users/{userId}/groups',
      { userId: bot.userId },
      { status: 200 },
    );
    expect((res.body as { groupId: string }[]).map((g) => g.groupId).sort()).toEqual([hangout, dance].sort());
  });
});

describe('errors outside the documented statuses keep the envelope', () => {
  it('403 without a User-Agent', async () => {
    const res = await expectContract(
      'GET',
      '/users/{userId}',
      { userId: bot.userId },
      { ua: null, status: 403 },
    );
    expect(res.headers.get('retry-after')).toBeNull();
  });
});
