import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, demoConfig, loggedOut, renderApp, stubApi } from '../../../testing/renderApp';
import { isSafeReturnPath, loginErrorMessage, loginPath } from '../loginReturn';

const config = { 'GET /api/config': { body: demoConfig } };
const user = { id: '42', username: 'neon', avatar: null, rank: 'User' };
const where = (router: { state: { location: { pathname: string; search: string } } }) =>
  router.state.location.pathname + router.state.location.search;

afterEach(() => vi.unstubAllGlobals());

describe('return path', () => {
  it.each(['/sdk-oauth?token=abc', '/profile', '/server-settings/1/worlds'])('accepts %s', (path) => {
    expect(isSafeReturnPath(path)).toBe(true);
  });
  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'profile',
    '',
    '/discord/login?returnTo=/x',
  ])('refuses %j', (path) => {
    expect(isSafeReturnPath(path)).toBe(false);
    expect(loginPath(path)).toBe('/discord/login');
  });

  it('the login button of a login-required page comes back to it, query included', async () => {
    stubApi({ ...loggedOut, ...config });
    renderApp('/sdk-oauth?token=sdk-request-token-123');
    expect(await screen.findByText('You must be logged in to view this page')).toBeTruthy();
    const links = await screen.findAllByRole('link', { name: 'Login through Discord' });
    expect(links.map((l) => l.getAttribute('href'))).toContain(
      `/discord/login?returnTo=${encodeURIComponent('/sdk-oauth?token=sdk-request-token-123')}`,
    );
  });

  it('the login page hands a safe return path to the server, and drops an unsafe one', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const fetchMock = stubApi({
      ...loggedOut,
      ...config,
      'GET /api/login': { body: { redirectUri: 'https://discord.example/oauth2/authorize' } },
    });
    renderApp(`/discord/login?returnTo=${encodeURIComponent('/sdk-oauth?token=abc')}`);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/login')).toHaveLength(1));
    const [call] = callsTo(fetchMock, 'GET', '/api/login');
    expect(new URL(call!.url).searchParams.get('returnTo')).toBe('/sdk-oauth?token=abc');
  });

  it('the login page sends no return path for an unsafe one', async () => {
    const fetchMock = stubApi({
      ...loggedOut,
      ...config,
      'GET /api/login': { body: { redirectUri: 'https://discord.example/oauth2/authorize' } },
    });
    vi.stubGlobal('location', { ...window.location, assign: vi.fn() });
    renderApp(`/discord/login?returnTo=${encodeURIComponent('//evil.example')}`);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/login')).toHaveLength(1));
    expect(new URL(callsTo(fetchMock, 'GET', '/api/login')[0]!.url).searchParams.has('returnTo')).toBe(false);
  });

  it('the callback lands on the return path the server answered', async () => {
    stubApi({
      ...loggedOut,
      ...config,
      'POST /api/login/callback': { body: { ...user, returnTo: '/sdk-oauth?token=sdk-request-token-123' } },
      // The approval page checks the request before it asks.
      'GET /api/oauth-request': { status: 204 },
    });
    const { router } = renderApp('/discord/login/callback?code=c&state=s');
    await waitFor(() => expect(where(router)).toBe('/sdk-oauth?token=sdk-request-token-123'));
    expect(await screen.findByRole('button', { name: 'Allow' })).toBeTruthy();
  });

  it('the callback lands on /profile when the answered return path is not safe', async () => {
    stubApi({
      ...loggedOut,
      ...config,
      'POST /api/login/callback': { body: { ...user, returnTo: '//evil.example' } },
    });
    const { router } = renderApp('/discord/login/callback?code=c&state=s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });
});

describe('login failures say why on the home page', () => {
  it('cancelled in Discord', async () => {
    stubApi({ ...loggedOut, ...config });
    const { router } = renderApp('/discord/login/callback?error=access_denied&state=s');
    await waitFor(() => expect(where(router)).toBe('/?loginError=cancelled'));
    expect(await screen.findByText('Login was cancelled in Discord.')).toBeTruthy();
  });

  it.each([
    ['rejected', 'The login link expired or was already used. Try again.'],
    ['expired', 'The login took too long or was started in another browser. Try again.'],
  ])('the server refuses the callback with reason %s', async (reason, sentence) => {
    stubApi({
      ...loggedOut,
      ...config,
      'POST /api/login/callback': { status: 400, body: { message: 'Login failed: …', reason } },
    });
    const { router } = renderApp('/discord/login/callback?code=c&state=s');
    await waitFor(() => expect(where(router)).toBe(`/?loginError=${reason}`));
    expect(await screen.findByText(sentence)).toBeTruthy();
  });

  it.each([
    ['the callback', '/discord/login/callback?code=c&state=s', 'POST /api/login/callback'],
    ['the login start', '/discord/login', 'GET /api/login'],
  ])(
    'too many sign-in attempts at %s: says so and when to try again (Retry-After)',
    async (_, start, route) => {
      stubApi({
        ...loggedOut,
        ...config,
        [route]: {
          status: 429,
          body: { message: 'Too many requests: wait 42 seconds and try again.' },
          headers: { 'Retry-After': '42' },
        },
      });
      const { router } = renderApp(start);
      await waitFor(() => expect(where(router)).toBe('/?loginError=too-many&retryAfter=42'));
      expect(
        await screen.findByText('Too many sign-in attempts from this address. Try again in 42 seconds.'),
      ).toBeTruthy();
    },
  );

  it('the server cannot be reached', async () => {
    stubApi({ ...loggedOut, ...config });
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (request: Request) =>
      new URL(request.url).pathname === '/api/login/callback'
        ? Promise.reject(new TypeError('fetch failed'))
        : realFetch(request),
    );
    const { router } = renderApp('/discord/login/callback?code=c&state=s');
    await waitFor(() => expect(where(router)).toBe('/?loginError=failed'));
    expect(await screen.findByText(loginErrorMessage('failed'))).toBeTruthy();
  });

  it('an unknown code still says the login failed, and the message can be dismissed', async () => {
    stubApi({ ...loggedOut, ...config });
    const { router } = renderApp('/?loginError=whatever');
    expect(await screen.findByText('Login failed. Try again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Login failed. Try again.')).toBeNull());
    expect(where(router)).toBe('/');
  });

  it('the home page shows no login message without a code', async () => {
    stubApi({ ...loggedOut, ...config });
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: 'Seamless Linking and Syncing for VRChat' }),
    ).toBeTruthy();
    expect(screen.queryByText(/Login/, { selector: '[role="alert"] *' })).toBeNull();
  });
});
