import { screen, waitFor } from '@testing-library/react';
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

  it('goes home when the token login fails', async () => {
    stubApi({ ...loggedOut, 'GET /api/discord_auth': { status: 400, body: { message: 'Expired.' } } });
    const { router } = renderApp('/discord_auth?token=old');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('logs out, refreshes the login context and goes home', async () => {
    const answers: Record<string, { status?: number; body?: unknown }> = {
      ...loggedInAs('User'),
      'GET /api/logout': { status: 204 },
    };
    stubApi(answers);
    const { router } = renderApp('/profile');
    expect(await screen.findByText('@neon')).toBeTruthy();
    answers['GET /api/user'] = loggedOut['GET /api/user'];
    await router.navigate('/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('link', { name: 'Login through Discord' })).toBeTruthy();
  });
});
