import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import {
  authorize,
  call,
  clientForm,
  postAuthorize,
  REDIRECT_URI,
  registerRedirectUri,
  userToken,
} from './discord-helpers.js';

const admin = seedUserIds.admin;
const someone = seedUserIds.humans[3];
const SCOPE = 'identify guilds guilds.members.read role_connections.write';

let sim: RunningSimulator;
beforeAll(async () => {
  // About OAuth, not rate limits: these tests call the token endpoint far more often than Discord's strict
  // per-route bucket (10 per 10 s per IP) allows, so every route gets a lax limit.
  sim = await startSimulator({
    port: 0,
    discordRate: { limit: 1000, windowSeconds: 1 },
    redirectUris: [REDIRECT_URI],
  });
});
afterAll(() => sim.close());

const token = (
  form: Record<string, string>,
  opts: { path?: string; headers?: Record<string, string> } = {},
) => call(sim.url, 'POST', opts.path ?? '/api/oauth2/token', { auth: null, form, headers: opts.headers });
const exchange = (code: string, extra: Record<string, string> = {}) =>
  token({ ...clientForm, grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, ...extra });
const authorizeUrl = (params: Record<string, string>) =>
  `${sim.url}/oauth2/authorize?${new URLSearchParams({ client_id: discordApp.clientId, response_type: 'code', redirect_uri: REDIRECT_URI, ...params })}`;

describe('GET /oauth2/authorize', () => {
  it('shows a consent page listing the seeded users with stable labels', async () => {
    const res = await fetch(authorizeUrl({ scope: SCOPE, state: 'abc' }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('aria-label="demo_admin"');
    expect(html).toContain('aria-label="bluefox"');
    expect(html.match(/type="radio" name="user_id"/g)).toHaveLength(44);
    expect(html).toContain('<button type="submit" name="decision" value="authorize"');
    expect(html).toContain('value="cancel"');
    expect(html).toContain('<input type="hidden" name="state" value="abc">');
    expect(html).not.toMatch(/<(link|script) [^>]*src=/);
  });

  it('preselects the first person, so the first Authorize click signs in', async () => {
    const html = await (await fetch(authorizeUrl({ scope: SCOPE }))).text();
    const checked = [...html.matchAll(/<input type="radio" name="user_id" value="(\d+)"[^>]* checked>/g)];
    expect(checked.map((m) => m[1])).toEqual([admin]);
    expect(html).not.toContain('Switch account');
  });

  it('preselects the signed-in person and offers Switch account, which forgets them and asks again', async () => {
    const cookie = `discord_sim_user=${someone}`;
    const url = authorizeUrl({ scope: 'identify', state: 'sw', prompt: 'none' });
    const html = await (
      await fetch(authorizeUrl({ scope: 'identify', state: 'sw' }), { headers: { cookie } })
    ).text();
    const checked = [...html.matchAll(/<input type="radio" name="user_id" value="(\d+)"[^>]* checked>/g)];
    expect(checked.map((m) => m[1])).toEqual([someone]);
    const href = html
      .match(/<a href="([^"]+)" class="switch">Switch account<\/a>/)?.[1]
      .replaceAll('&amp;', '&');
    expect(href).toMatch(/^\/oauth2\/switch-account\?/);
    const switched = await fetch(`${sim.url}${href}`, { redirect: 'manual', headers: { cookie } });
    expect(switched.status).toBe(302);
    expect(switched.headers.get('set-cookie')).toMatch(/^discord_sim_user=;.*Max-Age=0/);
    const back = new URL(switched.headers.get('location')!, sim.url);
    expect(back.pathname).toBe('/oauth2/authorize');
    expect(back.searchParams.get('state')).toBe('sw');
    // Signed out, prompt=none no longer skips the page.
    const again = await fetch(url, { redirect: 'manual' });
    expect(again.status).toBe(200);
    const signedOut = await fetch(`${sim.url}/oauth2/switch-account`);
    expect(await signedOut.text()).toContain('You are signed out of the simulated Discord.');
  });

  it('rejects an unknown client_id, an unknown scope and a non-http redirect_uri with an error page', async () => {
    expect((await fetch(authorizeUrl({ scope: 'identify', client_id: '42' }))).status).toBe(400);
    expect((await fetch(authorizeUrl({ scope: 'identify nonsense' }))).status).toBe(400);
    expect(
      (await fetch(authorizeUrl({ scope: 'identify', redirect_uri: 'javascript:alert(1)' }))).status,
    ).toBe(400);
  });

  it('refuses a redirect_uri not registered for the application, and accepts it once registered', async () => {
    const other = 'http://127.0.0.1:5998/discord/login/callback';
    const refused = await fetch(authorizeUrl({ scope: 'identify', redirect_uri: other }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Invalid OAuth2 redirect_uri');
    await expect(
      authorize(sim.url, { userId: admin, scope: 'identify', redirectUri: other }),
    ).rejects.toThrow(/authorize answered 400/);
    await registerRedirectUri(sim.url, other);
    const ok = await authorize(sim.url, { userId: admin, scope: 'identify', redirectUri: other });
    expect(`${ok.origin}${ok.pathname}`).toBe(other);
    // A reset of the world keeps the application's registration (the developer portal's, not the world's).
    await fetch(`${sim.url}/control/discord/reset`, { method: 'POST' });
    const list = await (await fetch(`${sim.url}/control/discord/application/redirect-uris`)).json();
    expect(list).toEqual({ redirectUris: [REDIRECT_URI, other] });
  });

  it('has no redirect registered for a new application', async () => {
    const fresh = await startSimulator({ port: 0 });
    try {
      const res = await fetch(
        `${fresh.url}/oauth2/authorize?${new URLSearchParams({ client_id: discordApp.clientId, response_type: 'code', scope: 'identify', redirect_uri: REDIRECT_URI })}`,
      );
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('Invalid OAuth2 redirect_uri');
    } finally {
      await fresh.close();
    }
  });

  it('redirects /api/oauth2/authorize (the spec’s authorizationUrl) to the page', async () => {
    const res = await fetch(`${sim.url}/api/oauth2/authorize?client_id=1&scope=identify`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/oauth2/authorize?client_id=1&scope=identify');
  });

  it('Authorize redirects with code and state; Cancel with error=access_denied and state', async () => {
    const ok = await authorize(sim.url, { userId: admin, scope: SCOPE, state: 's-123' });
    expect(`${ok.origin}${ok.pathname}`).toBe(REDIRECT_URI);
    expect(ok.searchParams.get('code')).toMatch(/^\w{20,}$/);
    expect(ok.searchParams.get('state')).toBe('s-123');
    const no = await authorize(sim.url, { userId: admin, scope: SCOPE, state: 's-456', decision: 'cancel' });
    expect(no.searchParams.get('error')).toBe('access_denied');
    expect(no.searchParams.get('error_description')).toBeTruthy();
    expect(no.searchParams.get('state')).toBe('s-456');
    expect(no.searchParams.has('code')).toBe(false);
  });

  it('prompt=none skips consent for a user who already authorized the scopes (remembered by cookie)', async () => {
    const res = await postAuthorize(sim.url, {
      response_type: 'code',
      scope: 'identify',
      redirect_uri: REDIRECT_URI,
      user_id: someone,
    });
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    const again = await fetch(authorizeUrl({ scope: 'identify', prompt: 'none', state: 'p' }), {
      redirect: 'manual',
      headers: { cookie },
    });
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get('location')!).searchParams.get('state')).toBe('p');
  });
});

describe('POST /oauth2/token', () => {
  it('exchanges a code once (form-encoded, client in the form) and the code cannot be reused', async () => {
    const code = (await authorize(sim.url, { userId: admin, scope: SCOPE })).searchParams.get('code')!;
    const res = await exchange(code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: SCOPE });
    const body = res.body as { access_token: string; refresh_token: string };
    expect(body.access_token).not.toBe(body.refresh_token);
    const again = await exchange(code);
    expect(again).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid "code" in request.' },
    });
  });

  it('accepts HTTP Basic client authentication and the /api/v10 path', async () => {
    const code = (await authorize(sim.url, { userId: admin, scope: 'identify' })).searchParams.get('code')!;
    const basic = Buffer.from(`${discordApp.clientId}:${discordApp.clientSecret}`).toString('base64');
    const res = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      { path: '/api/v10/oauth2/token', headers: { Authorization: `Basic ${basic}` } },
    );
    expect(res.status).toBe(200);
  });

  it('rejects JSON bodies (the form is required)', async () => {
    const code = (await authorize(sim.url, { userId: admin, scope: 'identify' })).searchParams.get('code')!;
    const basic = Buffer.from(`${discordApp.clientId}:${discordApp.clientSecret}`).toString('base64');
    const res = await call(sim.url, 'POST', '/api/oauth2/token', {
      auth: `Basic ${basic}`,
      json: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    // Without Basic auth the client is unknown too.
    const noClient = await call(sim.url, 'POST', '/api/oauth2/token', {
      auth: null,
      json: { ...clientForm, code },
    });
    expect(noClient).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('rejects a bad client secret with 401 invalid_client', async () => {
    const res = await token({
      client_id: discordApp.clientId,
      client_secret: 'nope',
      grant_type: 'client_credentials',
      scope: 'identify',
    });
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('rejects a redirect_uri different from the authorize one', async () => {
    const code = (await authorize(sim.url, { userId: admin, scope: 'identify' })).searchParams.get('code')!;
    const res = await exchange(code, { redirect_uri: 'http://127.0.0.1:5999/other' });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('rejects an expired code', async () => {
    await call(sim.url, 'PATCH', '/control/discord/config', { auth: null, json: { oauthCodeTtlMs: 50 } });
    try {
      const code = (await authorize(sim.url, { userId: admin, scope: 'identify' })).searchParams.get('code')!;
      await new Promise((r) => setTimeout(r, 120));
      expect(await exchange(code)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'Invalid "code" in request.' },
      });
    } finally {
      await call(sim.url, 'PATCH', '/control/discord/config', {
        auth: null,
        json: { oauthCodeTtlMs: 100_000 },
      });
    }
  });

  it('refreshes (rotating both tokens) and the old tokens stop working', async () => {
    const first = await userToken(sim.url, someone, 'identify guilds');
    const res = await token({
      ...clientForm,
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
    });
    expect(res.status).toBe(200);
    const second = res.body as { access_token: string; refresh_token: string; scope: string };
    expect(second.scope).toBe('identify guilds');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const reuse = await token({
      ...clientForm,
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
    });
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(
      (await call(sim.url, 'GET', '/api/v10/users/@me', { auth: `Bearer ${first.access_token}` })).status,
    ).toBe(401);
    expect(
      (await call(sim.url, 'GET', '/api/v10/users/@me', { auth: `Bearer ${second.access_token}` })).status,
    ).toBe(200);
  });

  it('issues client_credentials tokens without a refresh token', async () => {
    const res = await token({ ...clientForm, grant_type: 'client_credentials', scope: 'identify' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('refresh_token');
    const bad = await token({ ...clientForm, grant_type: 'client_credentials', scope: 'bot' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('rejects an unknown grant type', async () => {
    expect(await token({ ...clientForm, grant_type: 'password' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
  });
});

describe('POST /oauth2/token/revoke and Bearer scopes', () => {
  it('revoking the access token revokes the refresh token too', async () => {
    const t = await userToken(sim.url, someone, 'identify');
    const res = await token(
      { ...clientForm, token: t.access_token, token_type_hint: 'access_token' },
      { path: '/api/oauth2/token/revoke' },
    );
    expect(res.status).toBe(200);
    expect(
      (await call(sim.url, 'GET', '/api/v10/users/@me', { auth: `Bearer ${t.access_token}` })).body,
    ).toEqual({
      message: '401: Unauthorized',
      code: 0,
    });
    const refresh = await token({
      ...clientForm,
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('endpoints check the token’s scopes (401 like Discord when one is missing)', async () => {
    const t = await userToken(sim.url, someone, 'identify');
    const auth = `Bearer ${t.access_token}`;
    expect((await call(sim.url, 'GET', '/api/v10/users/@me', { auth })).status).toBe(200);
    expect((await call(sim.url, 'GET', '/api/v10/users/@me/guilds', { auth })).status).toBe(401);
    const memberPath = `/api/v10/users/@me/guilds/${seedGuildIds.hangout.id}/member`;
    expect((await call(sim.url, 'GET', memberPath, { auth })).status).toBe(401);
    // Bot-only endpoints refuse Bearer tokens.
    expect((await call(sim.url, 'GET', `/api/v10/guilds/${seedGuildIds.hangout.id}`, { auth })).status).toBe(
      401,
    );
  });

  it('an expired access token is refused until refreshed', async () => {
    const t = await userToken(sim.url, admin, 'identify');
    await call(sim.url, 'POST', '/control/discord/oauth2/expire-tokens', {
      auth: null,
      json: { userId: admin },
    });
    expect(
      (await call(sim.url, 'GET', '/api/v10/users/@me', { auth: `Bearer ${t.access_token}` })).status,
    ).toBe(401);
    const res = await token({ ...clientForm, grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(res.status).toBe(200);
  });
});

describe('bot install flow', () => {
  it('adds the bot to a guild the user manages and reports guild_id and permissions in the redirect', async () => {
    const quiet = seedGuildIds.quietCorner;
    const page = await fetch(
      authorizeUrl({
        scope: 'bot applications.commands identify',
        permissions: '268435456',
        guild_id: quiet.id,
        disable_guild_select: 'true',
      }),
    );
    const html = await page.text();
    expect(html).toContain('id="fixed-guild"');
    expect(html).toContain('Quiet Corner');
    // A user without Manage Server there is refused.
    const refused = await postAuthorize(sim.url, {
      response_type: 'code',
      scope: 'bot identify',
      redirect_uri: REDIRECT_URI,
      permissions: '268435456',
      guild_id: quiet.id,
      user_id: someone,
    });
    expect(refused.status).toBe(400);
    const ok = await authorize(sim.url, {
      userId: admin,
      scope: 'bot identify',
      extra: { permissions: '268435456', guild_id: quiet.id },
    });
    expect(ok.searchParams.get('guild_id')).toBe(quiet.id);
    expect(ok.searchParams.get('permissions')).toBe('268435456');
    const guild = await call(sim.url, 'GET', `/api/v10/guilds/${quiet.id}`);
    expect(guild.status).toBe(200);
  });
});
