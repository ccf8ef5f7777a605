import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggedOut, renderApp, stubApi } from '../../../testing/renderApp';

afterEach(() => vi.unstubAllGlobals());

describe('TokenLoginPage (/discord_auth?token=…)', () => {
  it('says the link expired, and how to get a new one, instead of redirecting', async () => {
    const message = 'This login link expired: links work for 5 minutes.';
    stubApi({ ...loggedOut, 'GET /api/discord_auth/preview': { status: 404, body: { message } } });
    const { router } = renderApp('/discord_auth?token=old');
    expect(await screen.findByText(`${message} Ask the bot for a new one with /login.`)).toBeTruthy();
    expect(screen.getByText('Cannot sign in')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(router.state.location.pathname).toBe('/discord_auth');
  });

  it('says the link was used when it is used up before Sign in is pressed', async () => {
    const message = 'This login link was already used: each link signs in only once.';
    stubApi({
      ...loggedOut,
      'GET /api/discord_auth/preview': { body: { username: 'neon', avatar: null } },
      'GET /api/discord_auth': { status: 400, body: { message } },
    });
    const { router } = renderApp('/discord_auth?token=tok-1');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(`${message} Ask the bot for a new one with /login.`)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull());
    expect(router.state.location.pathname).toBe('/discord_auth');
  });
});
