import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../../test/app.js';
import { issueLoginToken } from './login-token.service.js';

describe('sessions and token login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_DISCORD_IDS: '1999999999999999999' } });
  });
  afterAll(() => t.close());

  it('GET /api/user answers the signed-in user with rank User', async () => {
    const u = await signIn(t, { username: 'alice' });
    const res = await t.inject({ method: 'GET', url: '/api/user', session: u.session });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: u.id, username: 'alice', avatar: null, rank: 'User' });
  });

  it('GET /api/user answers rank Admin for a platform admin named in config', async () => {
    const u = await signIn(t, { id: '1999999999999999999', username: 'boss' });
    const res = await t.inject({ method: 'GET', url: '/api/user', session: u.session });
    expect(res.json().rank).toBe('Admin');
  });

  it('GET /api/user answers 401 for an unknown session cookie', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/user', session: 'forged' });
    expect(res.statusCode).toBe(401);
  });

  it('GET /api/logout ends the session on the server', async () => {
    const u = await signIn(t);
    const out = await t.inject({ method: 'GET', url: '/api/logout', session: u.session });
    expect(out.statusCode).toBe(204);
    expect((await t.inject({ method: 'GET', url: '/api/user', session: u.session })).statusCode).toBe(401);
    const entries = await t.ctx.database.executeSql(
      "select * from audit_log where action = 'user.logout' and actor_id = $1",
      [u.id],
    );
    expect(entries.rows).toHaveLength(1);
  });

  it('GET /api/logout without the XSRF header is refused (it changes state)', async () => {
    const u = await signIn(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      cookies: { vrclink_session: u.session },
    });
    expect(res.statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/user', session: u.session })).statusCode).toBe(200);
  });

  describe('GET /api/discord_auth', () => {
    const identity = { id: '1777777777777777777', username: 'tokenuser', globalName: null, avatar: 'abc' };

    it('signs in with a one-time token and sets an HttpOnly SameSite=Lax session cookie', async () => {
      const token = await issueLoginToken(t.ctx.db, identity);
      const res = await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: identity.id, username: 'tokenuser', rank: 'User' });
      expect(res.json().avatar).toContain(`/avatars/${identity.id}/abc.png`);
      const cookie = res.cookies.find((c) => c.name === 'vrclink_session');
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Lax');
      const me = await t.inject({ method: 'GET', url: '/api/user', session: cookie?.value });
      expect(me.json().id).toBe(identity.id);
    });

    it('refuses a token used twice', async () => {
      const token = await issueLoginToken(t.ctx.db, identity);
      expect((await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` })).statusCode).toBe(
        200,
      );
      const again = await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('This login link is invalid, expired or already used.');
    });

    it('refuses a token older than 10 minutes', async () => {
      const token = await issueLoginToken(t.ctx.db, identity);
      vi.useFakeTimers({ now: Date.now() + 10 * 60 * 1000 + 1000, toFake: ['Date'] });
      try {
        expect((await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` })).statusCode).toBe(
          400,
        );
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses a missing token with 400', async () => {
      expect((await t.inject({ method: 'GET', url: '/api/discord_auth' })).statusCode).toBe(400);
    });
  });

  it('GET /api/login answers the Discord authorize address with a state bound by cookie', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/login', headers: { host: 'app.test' } });
    const url = new URL(res.json().redirectUri);
    expect(url.pathname).toBe('/oauth2/authorize');
    expect(url.searchParams.get('scope')).toBe('identify guilds');
    expect(url.searchParams.get('redirect_uri')).toBe('http://app.test/discord/login/callback');
    const state = res.cookies.find((c) => c.name === 'vrclink_oauth_state');
    expect(state?.httpOnly).toBe(true);
    expect(url.searchParams.get('state')).toBe(state?.value);
  });

  it('POST /api/login/callback refuses a state that does not match the browser', async () => {
    const login = await t.inject({ method: 'GET', url: '/api/login' });
    const state = login.cookies.find((c) => c.name === 'vrclink_oauth_state')?.value as string;
    const res = await t.inject({
      method: 'POST',
      url: '/api/login/callback',
      cookies: { vrclink_oauth_state: state },
      payload: { code: 'whatever', state: `${state}x` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Login failed/);
  });
});
