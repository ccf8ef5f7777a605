import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../../../test/app.js';

const MALFORMED = 'This sign-in link is not valid. Start the login again from the VRChat SDK in Unity.';

describe('Unity SDK editor login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const startToken = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/sdk-login' })).json().token as string;
  // The editor polls without cookies or XSRF header, exactly as the Unity SDK does.
  const poll = async (token: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/sdk-login', payload: { token } })).json();

  it('answers TokenNotAuthorizedYet until approved, then Ok once with a working Bearer token', async () => {
    const user = await signIn(t, { username: 'creator' });
    const token = await startToken();
    expect(await poll(token)).toEqual({ status: 'TokenNotAuthorizedYet' });

    const approve = await t.inject({
      method: 'POST',
      url: '/api/oauth-approve',
      session: user.session,
      payload: { token },
    });
    expect(approve.statusCode).toBe(204);

    const ok = await poll(token);
    expect(ok).toMatchObject({ status: 'Ok', id: user.id, username: 'creator', rank: 'User' });
    expect(ok.token).toBeTruthy();

    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${ok.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);

    // Single use: the same request token never yields a second access token.
    expect((await poll(token)).status).toBe('Unauthorized');
  });

  it('answers TokenNotFound for an unknown token', async () => {
    expect((await poll('this-token-does-not-exist')).status).toBe('TokenNotFound');
  });

  it('answers TokenNotFound, not 400, for an empty or short token (the editor reads status)', async () => {
    expect((await poll('')).status).toBe('TokenNotFound');
    expect((await poll('abc')).status).toBe('TokenNotFound');
  });

  it('answers TokenExpired after 10 minutes', async () => {
    const token = await startToken();
    vi.useFakeTimers({ now: Date.now() + 10 * 60 * 1000 + 1000, toFake: ['Date'] });
    try {
      expect((await poll(token)).status).toBe('TokenExpired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('GET /api/oauth-request checks a request before Allow, changing nothing', async () => {
    const user = await signIn(t);
    const other = await signIn(t);
    const check = (token: string, session = user.session) =>
      t.inject({ method: 'GET', url: `/api/oauth-request?token=${encodeURIComponent(token)}`, session });
    const token = await startToken();
    expect((await check(token)).statusCode).toBe(204);
    expect(await poll(token)).toEqual({ status: 'TokenNotAuthorizedYet' });
    const unknown = await check('this-token-does-not-exist');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This sign-in request was not found.');
    const malformed = await check('abc');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(MALFORMED);
    expect((await t.inject({ method: 'GET', url: `/api/oauth-request?token=${token}` })).statusCode).toBe(
      401,
    );
    await t.inject({ method: 'POST', url: '/api/oauth-approve', session: user.session, payload: { token } });
    // Approved by this user: still theirs; another user is told it was used.
    expect((await check(token)).statusCode).toBe(204);
    const used = await check(token, other.session);
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe('This sign-in request was already used.');
    const expiring = await startToken();
    vi.useFakeTimers({ now: Date.now() + 10 * 60 * 1000 + 1000, toFake: ['Date'] });
    try {
      const expired = await check(expiring);
      expect(expired.statusCode).toBe(410);
      expect(expired.json().message).toBe('This sign-in request has expired. Start again from the SDK.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('requires a signed-in user to approve', async () => {
    const token = await startToken();
    const res = await t.inject({ method: 'POST', url: '/api/oauth-approve', payload: { token } });
    expect(res.statusCode).toBe(401);
    expect((await poll(token)).status).toBe('TokenNotAuthorizedYet');
  });

  it('does not let a second user take over a request another user approved', async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const token = await startToken();
    await t.inject({ method: 'POST', url: '/api/oauth-approve', session: a.session, payload: { token } });
    const res = await t.inject({
      method: 'POST',
      url: '/api/oauth-approve',
      session: b.session,
      payload: { token },
    });
    expect(res.statusCode).toBe(409);
    expect((await poll(token)).id).toBe(a.id);
  });

  it('revokes SDK access tokens when the user logs out', async () => {
    const user = await signIn(t);
    const token = await startToken();
    await t.inject({ method: 'POST', url: '/api/oauth-approve', session: user.session, payload: { token } });
    const { token: access } = await poll(token);
    await t.inject({ method: 'GET', url: '/api/logout', session: user.session });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${access}` },
    });
    expect(me.statusCode).toBe(401);
  });

  it('POST /api/oauth-approve answers 403 without the XSRF header and approves nothing', async () => {
    const user = await signIn(t);
    const token = await startToken();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/oauth-approve',
      cookies: { vrclink_session: user.session },
      payload: { token },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Invalid or missing XSRF token.');
    expect((await poll(token)).status).toBe('TokenNotAuthorizedYet');
  });

  it.each([
    ['POST', '/api/oauth-approve', {}, 'token is missing.'],
    ['POST', '/api/oauth-approve', { token: 42 }, 'token must be a string.'],
    ['POST', '/api/oauth-approve', { token: 'short' }, MALFORMED],
    ['POST', '/api/oauth-approve', { token: 'x'.repeat(201) }, MALFORMED],
    ['POST', '/api/oauth-deny', { token: 'short' }, MALFORMED],
    ['POST', '/api/sdk-login', {}, 'token is missing.'],
    ['POST', '/api/sdk-login', { token: 'x'.repeat(1001) }, 'token must be at most 1000 characters long.'],
  ] as const)('%s %s answers 400 with a sentence for %j', async (method, url, payload, message) => {
    const user = await signIn(t);
    const res = await t.inject({ method, url, payload, session: user.session });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('POST /api/oauth-approve answers a sentence, not validator text, for a malformed token', async () => {
    const user = await signIn(t);
    const res = await t.inject({
      method: 'POST',
      url: '/api/oauth-approve',
      session: user.session,
      payload: { token: 'abc' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MALFORMED });
  });

  it('Deny refuses the request at once: the next poll answers Unauthorized, and it cannot be approved', async () => {
    const user = await signIn(t);
    const token = await startToken();
    expect((await poll(token)).status).toBe('TokenNotAuthorizedYet');
    const deny = await t.inject({
      method: 'POST',
      url: '/api/oauth-deny',
      session: user.session,
      payload: { token },
    });
    expect(deny.statusCode).toBe(204);
    expect(await poll(token)).toEqual({ status: 'Unauthorized' });
    // Pressing Deny again changes nothing; Allow afterwards is too late.
    const again = await t.inject({
      method: 'POST',
      url: '/api/oauth-deny',
      session: user.session,
      payload: { token },
    });
    expect(again.statusCode).toBe(204);
    const approve = await t.inject({
      method: 'POST',
      url: '/api/oauth-approve',
      session: user.session,
      payload: { token },
    });
    expect(approve.statusCode).toBe(409);
    expect((await poll(token)).status).toBe('Unauthorized');
  });

  it('Deny after one’s own Allow takes the approval back before the editor collected it', async () => {
    const user = await signIn(t);
    const token = await startToken();
    await t.inject({ method: 'POST', url: '/api/oauth-approve', session: user.session, payload: { token } });
    const deny = await t.inject({
      method: 'POST',
      url: '/api/oauth-deny',
      session: user.session,
      payload: { token },
    });
    expect(deny.statusCode).toBe(204);
    expect(await poll(token)).toEqual({ status: 'Unauthorized' });
  });

  it('Deny cannot cancel another user’s approval or a collected token, and 404s an unknown one', async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const token = await startToken();
    await t.inject({ method: 'POST', url: '/api/oauth-approve', session: a.session, payload: { token } });
    const other = await t.inject({
      method: 'POST',
      url: '/api/oauth-deny',
      session: b.session,
      payload: { token },
    });
    expect(other.statusCode).toBe(409);
    expect((await poll(token)).status).toBe('Ok');
    const late = await t.inject({
      method: 'POST',
      url: '/api/oauth-deny',
      session: a.session,
      payload: { token },
    });
    expect(late.statusCode).toBe(409);
    const unknown = await t.inject({
      method: 'POST',
      url: '/api/oauth-deny',
      session: a.session,
      payload: { token: 'no-such-request-token' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This sign-in request was not found.');
  });

  it('stores request tokens hashed', async () => {
    const token = await startToken();
    const { rows } = await t.ctx.database.executeSql('select token_hash from sdk_login_requests');
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });
});
