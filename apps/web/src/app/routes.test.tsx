import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoConfig, loggedInAs, loggedOut, renderApp, stubApi } from '../testing/renderApp';

describe('route table', () => {
  it.each(['/profile', '/server-settings', '/server-settings/1/roles', '/sdk-oauth'])(
    'asks a logged-out visitor on %s to log in',
    async (path) => {
      stubApi(loggedOut);
      renderApp(path);
      expect(await screen.findByText('You must be logged in to view this page')).toBeTruthy();
    },
  );

  it('sends a logged-out visitor from /admin to /', async () => {
    stubApi({ ...loggedOut, 'GET /api/config': { body: demoConfig } });
    const { router } = renderApp('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends a non-admin from /admin to /', async () => {
    stubApi(loggedInAs('User'));
    const { router } = renderApp('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows scheduled tasks to an admin', async () => {
    stubApi(loggedInAs('Admin'));
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Scheduled Tasks' })).toBeTruthy();
  });

  it('shows the not-found page for unknown paths', async () => {
    stubApi(loggedOut);
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it('completes the login callback and goes to /profile', async () => {
    const fetchMock = stubApi({
      ...loggedOut,
      'POST /api/login/callback': { body: { id: '42', username: 'neon', avatar: null, rank: 'User' } },
    });
    const { router } = renderApp('/discord/login/callback?code=abc&state=xyz');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeTruthy();
    const post = fetchMock.mock.calls.map(([r]) => r).find((r) => r.method === 'POST')!;
    expect(await post.json()).toEqual({ code: 'abc', state: 'xyz' });
  });

  it('goes home when the login callback fails', async () => {
    stubApi({ ...loggedOut, 'POST /api/login/callback': { status: 400, body: { message: 'Bad code.' } } });
    const { router } = renderApp('/discord/login/callback?code=bad&state=xyz');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('names the account of a login link and signs in only when Sign in is pressed', async () => {
    const fetchMock = stubApi({
      ...loggedOut,
      'GET /api/discord_auth/preview': { body: { username: 'neon', avatar: null } },
      'GET /api/discord_auth': { body: { id: '42', username: 'neon', avatar: null, rank: 'User' } },
    });
    const { router } = renderApp('/discord_auth?token=tok-123');
    expect(await screen.findByRole('heading', { name: 'Sign in as @neon?' })).toBeTruthy();
    const paths = () => fetchMock.mock.calls.map(([r]) => new URL(r.url).pathname);
    expect(paths()).not.toContain('/api/discord_auth');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    const redeem = fetchMock.mock.calls
      .map(([r]) => r)
      .find((r) => new URL(r.url).pathname === '/api/discord_auth');
    expect(new URL(redeem!.url).searchParams.get('token')).toBe('tok-123');
  });

  it('says so when the login link is expired or used, without redirecting', async () => {
    const message = 'This login link is invalid, expired or already used.';
    stubApi({ ...loggedOut, 'GET /api/discord_auth/preview': { status: 404, body: { message } } });
    const { router } = renderApp('/discord_auth?token=old');
    expect(await screen.findByText(new RegExp(message))).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(router.state.location.pathname).toBe('/discord_auth');
  });

  it('logs out only when Log out is pressed, then refreshes the login context and goes home', async () => {
    const answers: Record<string, { status?: number; body?: unknown }> = {
      ...loggedInAs('User'),
      'GET /api/logout': { status: 204 },
    };
    const fetchMock = stubApi(answers);
    const { router } = renderApp('/profile');
    expect(await screen.findByText('@neon')).toBeTruthy();
    await router.navigate('/logout');
    const logOut = await screen.findByRole('button', { name: 'Log out' });
    expect(fetchMock.mock.calls.some(([r]) => new URL(r.url).pathname === '/api/logout')).toBe(false);
    answers['GET /api/user'] = loggedOut['GET /api/user'];
    fireEvent.click(logOut);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('link', { name: 'Login through Discord' })).toBeTruthy();
  });
});
