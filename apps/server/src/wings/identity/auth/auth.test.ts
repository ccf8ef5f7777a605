import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import { consentOnDiscord } from '../../../../test/factories.js';
import {
  issueLoginToken,
  LOGIN_LINK_EXPIRED,
  LOGIN_LINK_UNKNOWN,
  LOGIN_LINK_USED,
  LOGIN_TOKEN_TTL_MS,
} from './login-token.service.js';
import { createSession } from './session.service.js';

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

  it("refuses another session's XSRF pair: the token is bound to the session", async () => {
    const victim = await signIn(t);
    const attacker = await signIn(t);
    const xsrfOf = (res: { cookies: { name: string; value: string }[] }) =>
      res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
    // The attacker's own working pair, planted in the victim's browser (cookie and header alike).
    const planted = xsrfOf(
      await t.app.inject({ method: 'GET', url: '/api/user', cookies: { vrclink_session: attacker.session } }),
    );
    expect(planted).toBeTruthy();
    for (const token of [planted as string, 'attacker-chosen']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/logout',
        cookies: { vrclink_session: victim.session, 'XSRF-TOKEN': token },
        headers: { 'x-xsrf-token': token },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Invalid or missing XSRF token.');
    }
    expect((await t.inject({ method: 'GET', url: '/api/user', session: victim.session })).statusCode).toBe(
      200,
    );
    // The victim's next read hands the browser its session's own token again, and that one works.
    const own = xsrfOf(
      await t.app.inject({
        method: 'GET',
        url: '/api/user',
        cookies: { vrclink_session: victim.session, 'XSRF-TOKEN': planted as string },
      }),
    );
    expect(own).toBeTruthy();
    expect(own).not.toBe(planted);
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      cookies: { vrclink_session: victim.session, 'XSRF-TOKEN': own as string },
      headers: { 'x-xsrf-token': own as string },
    });
    expect(out.statusCode).toBe(204);
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

    it('refuses a request without the XSRF pair and leaves the token usable', async () => {
      const token = await issueLoginToken(t.ctx.db, identity);
      const forged = await t.app.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
      expect(forged.statusCode).toBe(403);
      expect(forged.json().message).toBe('Invalid or missing XSRF token.');
      const res = await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
      expect(res.statusCode).toBe(200);
    });

    it('refuses a token used twice', async () => {
      const token = await issueLoginToken(t.ctx.db, identity);
      expect((await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` })).statusCode).toBe(
        200,
      );
      const again = await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('This login link was already used: each link signs in only once.');
    });

    it('refuses a token older than 5 minutes, saying it expired', async () => {
      expect(LOGIN_TOKEN_TTL_MS).toBe(5 * 60 * 1000);
      const token = await issueLoginToken(t.ctx.db, identity);
      vi.useFakeTimers({ now: Date.now() + LOGIN_TOKEN_TTL_MS + 1000, toFake: ['Date'] });
      try {
        const res = await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(LOGIN_LINK_EXPIRED);
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses a missing token with 400', async () => {
      expect((await t.inject({ method: 'GET', url: '/api/discord_auth' })).statusCode).toBe(400);
    });
  });

  describe('GET /api/discord_auth/preview', () => {
    const identity = { id: '1777777777777777778', username: 'previewuser', globalName: null, avatar: 'def' };
    const preview = (token: string) =>
      t.app.inject({ method: 'GET', url: `/api/discord_auth/preview?token=${token}` });

    it('names the account without redeeming the token, which then signs in exactly once', async () => {
      const token = await issueLoginToken(t.ctx.db, identity);
      const first = await preview(token);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ username: 'previewuser', avatar: expect.stringContaining('/avatars/') });
      expect(first.cookies.find((c) => c.name === 'vrclink_session')).toBeUndefined();
      expect((await preview(token)).statusCode).toBe(200);

      const login = await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
      expect(login.statusCode).toBe(200);
      expect(login.json().username).toBe('previewuser');
      expect((await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` })).statusCode).toBe(
        400,
      );
    });

    it('answers 404 with a sentence for a used token', async () => {
      const token = await issueLoginToken(t.ctx.db, identity);
      await t.inject({ method: 'GET', url: `/api/discord_auth?token=${token}` });
      const res = await preview(token);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(LOGIN_LINK_USED);
    });

    it('answers 404 for an unknown or expired token, saying which', async () => {
      const unknown = await preview('no-such-token-at-all');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(LOGIN_LINK_UNKNOWN);
      const token = await issueLoginToken(t.ctx.db, identity);
      vi.useFakeTimers({ now: Date.now() + LOGIN_TOKEN_TTL_MS + 1000, toFake: ['Date'] });
      try {
        const expired = await preview(token);
        expect(expired.statusCode).toBe(404);
        expect(expired.json().message).toBe(LOGIN_LINK_EXPIRED);
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses a missing token with 400', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/discord_auth/preview' })).statusCode).toBe(400);
    });
  });

  it('GET /api/login answers the Discord authorize address with a state bound by cookie', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/login', headers: { host: 'app.test' } });
    const url = new URL(res.json().redirectUri);
    expect(url.pathname).toBe('/oauth2/authorize');
    expect(url.searchParams.get('scope')).toBe('identify guilds');
    // Demo mode without PUBLIC_URL: the address the server prints, not the Host header.
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:3000/discord/login/callback');
    const state = res.cookies.find((c) => c.name === 'vrclink_oauth_state');
    expect(state?.httpOnly).toBe(true);
    expect(url.searchParams.get('state')).toBe(state?.value);
  });

  it('GET /api/login signs a returning Discord user in silently, but asks for consent after a logout (switchAccount)', async () => {
    const silent = new URL((await t.inject({ method: 'GET', url: '/api/login' })).json().redirectUri);
    expect(silent.searchParams.get('prompt')).toBe('none');
    const res = await t.inject({ method: 'GET', url: '/api/login?switchAccount=true' });
    expect(new URL(res.json().redirectUri).searchParams.get('prompt')).toBe('consent');
    const bad = await t.inject({ method: 'GET', url: '/api/login?switchAccount=maybe' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/\.$/);
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

describe('Discord OAuth login (against the simulated Discord)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Linked roles (on by default in demo mode) keep the tokens at logout; these tests are about the default.
    t = await createTestApp({ ...laxSimulator.forManyDiscordCalls, env: { LINKED_ROLES_ENABLED: 'false' } });
  });
  afterAll(() => t?.close());

  const discordUser = '1200000000000000007';

  /** Starts a login and plays the person pressing Authorize on Discord's consent page. */
  async function consent(returnTo?: string): Promise<{ code: string; state: string; stateCookie: string }> {
    const query = returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : '';
    const { stateCookie, back } = await consentOnDiscord(t, discordUser, { url: `/api/login${query}` });
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:3000/discord/login/callback');
    return {
      code: back.searchParams.get('code') as string,
      state: back.searchParams.get('state') as string,
      stateCookie,
    };
  }
  const callback = (body: object, stateCookie?: string) =>
    t.inject({
      method: 'POST',
      url: '/api/login/callback',
      headers: { host: 'app.test' },
      cookies: stateCookie ? { vrclink_oauth_state: stateCookie } : {},
      payload: body,
    });

  it('POST /api/login/callback signs in, keeps Discord’s tokens encrypted and audit-logs the login', async () => {
    const { code, state, stateCookie } = await consent();
    const res = await callback({ code, state }, stateCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: discordUser, rank: 'User' });
    const session = res.cookies.find((c) => c.name === 'vrclink_session')?.value;
    expect((await t.inject({ method: 'GET', url: '/api/user', session })).json().id).toBe(discordUser);

    const tokens = await t.ctx.database.executeSql('select * from discord_tokens where user_id = $1', [
      discordUser,
    ]);
    expect(tokens.rows).toHaveLength(1);
    expect(String(tokens.rows[0].scope)).toContain('identify');
    const audits = await t.ctx.database.executeSql(
      "select * from audit_log where action = 'user.login' and actor_id = $1",
      [discordUser],
    );
    expect(audits.rows).toEqual([expect.objectContaining({ details: { via: 'oauth' } })]);
  });

  it('POST /api/login/callback refuses a code Discord does not accept (used twice)', async () => {
    const { code, state, stateCookie } = await consent();
    expect((await callback({ code, state }, stateCookie)).statusCode).toBe(200);
    const again = await callback({ code, state }, stateCookie);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Login failed: Discord did not accept the sign-in code.');
  });

  it('POST /api/login/callback refuses a login started in another browser (no state cookie)', async () => {
    const { code, state } = await consent();
    const res = await callback({ code, state });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Login failed/);
  });

  it('keeps a return path through the Discord login and answers it after the callback', async () => {
    const returnTo = '/sdk-oauth?token=abcdefghijklmnop';
    const { code, state, stateCookie } = await consent(returnTo);
    expect(stateCookie.startsWith(`${state}.`)).toBe(true);
    const res = await callback({ code, state }, stateCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: discordUser, returnTo });
  });

  it('answers /profile as the place to land when no return path was given', async () => {
    const { code, state, stateCookie } = await consent();
    expect((await callback({ code, state }, stateCookie)).json().returnTo).toBe('/profile');
  });

  it.each([
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'profile',
    '/x\nSet-Cookie: a=b',
    `/${'a'.repeat(1100)}`,
  ])('GET /api/login refuses the unsafe return path %j with a sentence', async (returnTo) => {
    const res = await t.inject({
      method: 'GET',
      url: `/api/login?returnTo=${encodeURIComponent(returnTo)}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "The return path must be an address on this site starting with a single '/'.",
    );
    expect(res.cookies.find((c) => c.name === 'vrclink_oauth_state')).toBeUndefined();
  });

  it('a tampered return path in the state cookie lands on /profile, not elsewhere', async () => {
    const { code, state } = await consent();
    const forged = `${state}.${Buffer.from('//evil.example').toString('base64url')}`;
    const res = await callback({ code, state }, forged);
    expect(res.statusCode).toBe(200);
    expect(res.json().returnTo).toBe('/profile');
  });

  it('callback refusals name their reason for the page: expired state, rejected code', async () => {
    const first = await consent();
    expect((await callback({ code: first.code, state: first.state }, first.stateCookie)).statusCode).toBe(
      200,
    );
    const reused = await callback({ code: first.code, state: first.state }, first.stateCookie);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({
      message: 'Login failed: Discord did not accept the sign-in code.',
      reason: 'rejected',
    });
    const second = await consent();
    const noCookie = await callback({ code: second.code, state: second.state });
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.json()).toEqual({
      message: 'Login failed: the sign-in request expired or was started in another browser. Try again.',
      reason: 'expired',
    });
  });

  it('POST /api/login/callback answers 400 with a message for a missing code', async () => {
    const res = await callback({ state: 'abc' }, 'abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('code is missing.');
  });

  it('GET /api/logout deletes every session of the user, web and SDK alike', async () => {
    const first = await signIn(t);
    const second = await createSession(t.ctx.db, first.id, 'web');
    await createSession(t.ctx.db, first.id, 'sdk');
    const other = await signIn(t);
    const out = await t.inject({ method: 'GET', url: '/api/logout', session: first.session });
    expect(out.statusCode).toBe(204);
    const left = await t.ctx.database.executeSql('select user_id from sessions where user_id in ($1, $2)', [
      first.id,
      other.id,
    ]);
    expect(left.rows).toEqual([{ user_id: other.id }]);
    expect((await t.inject({ method: 'GET', url: '/api/user', session: second })).statusCode).toBe(401);
  });

  it('GET /api/logout forgets the Discord tokens (linked roles are off)', async () => {
    const { code, state, stateCookie } = await consent();
    const session = (await callback({ code, state }, stateCookie)).cookies.find(
      (c) => c.name === 'vrclink_session',
    )?.value;
    const tokensOf = () =>
      t.ctx.database.executeSql('select user_id from discord_tokens where user_id = $1', [discordUser]);
    expect((await tokensOf()).rows).toHaveLength(1);
    expect((await t.inject({ method: 'GET', url: '/api/logout', session })).statusCode).toBe(204);
    expect((await tokensOf()).rows).toHaveLength(0);
  });
});

describe('login options', () => {
  it('GET /api/login asks for role_connections.write when linked roles are enabled', async () => {
    const t = await createTestApp({ env: { LINKED_ROLES_ENABLED: 'true' } });
    try {
      const res = await t.inject({ method: 'GET', url: '/api/login' });
      const scope = new URL(res.json().redirectUri).searchParams.get('scope');
      expect(scope?.split(' ').sort()).toEqual(['guilds', 'identify', 'role_connections.write']);
    } finally {
      await t.close();
    }
  });

  it('sets the session cookie Secure when the site is reached over https (behind a trusted proxy)', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const token = await issueLoginToken(t.ctx.db, {
        id: '1777777777777777778',
        username: 'secure',
        globalName: null,
        avatar: null,
      });
      const res = await t.inject({
        method: 'GET',
        url: `/api/discord_auth?token=${token}`,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.statusCode).toBe(200);
      const cookie = res.cookies.find((c) => c.name === 'vrclink_session');
      expect(cookie?.secure).toBe(true);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Lax');
    } finally {
      await t.close();
    }
  });
});

describe('the login redirect address (PUBLIC_URL, never the request)', () => {
  const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
  const redirectFor = async (env: Record<string, string>) => {
    const t = await createTestApp({ env });
    try {
      const res = await t.inject({ method: 'GET', url: '/api/login', headers: forged });
      return new URL(res.json().redirectUri).searchParams.get('redirect_uri');
    } finally {
      await t.close();
    }
  };

  it.each<Record<string, string>>([
    {},
    { TRUST_PROXY: 'true' },
    { TRUST_PROXY: '1' },
    { TRUST_PROXY: '127.0.0.0/8' },
  ])('uses PUBLIC_URL whatever Host and X-Forwarded-Host say (%j)', async (env) => {
    expect(await redirectFor({ ...env, PUBLIC_URL: 'https://vrclink.example/' })).toBe(
      'https://vrclink.example/discord/login/callback',
    );
  });

  it('uses the address the server prints in demo mode without PUBLIC_URL, not the Host header', async () => {
    expect(await redirectFor({ PORT: '3999', TRUST_PROXY: 'true' })).toBe(
      'http://127.0.0.1:3999/discord/login/callback',
    );
  });
});
